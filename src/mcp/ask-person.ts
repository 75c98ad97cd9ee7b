// Asking a person through the MCP client (docs/spec.md section 18): the panel link goes out as a URL
// elicitation, never in a tool result; the call stays open while the person works, and ends with
// the page as it is after their work. A "no" from the client ends the handoff `human_declined`.
import { randomUUID } from 'node:crypto'
import { AfhttpClientError, type AfhttpClient, type FetchRequest } from '../client/index.js'
import type { McpPage } from '../schemas/mcp.js'
import { elicitationMessage, humanAction, pageFromFetch, pageFromSnapshot, personNeeded, personOutcome } from './page.js'
import type { ToolCall } from './tool-call.js'
import { waitWithProgress, type WaitResult } from './wait.js'

// Past the hold's end the host says `expired` by itself; this only covers clock skew and a slow read.
const HOLD_GRACE_MS = 5_000
const MIN_ELICIT_MS = 5_000

export interface PersonAsk {
  tabId: string
  /** The secret panel link: it goes into the elicitation only. */
  link: string
  fence: string
  reason: string
  instructions?: string
  pageUrl: string
  expiresAt: string
}

/** What the page-returning tools share: the client, the call, how much text, how to re-fetch. */
export interface PageContext {
  client: AfhttpClient
  call: ToolCall
  maxChars: number | undefined
  /** The fetch options a re-fetch repeats (`wait`, `timeout_ms`). */
  refetch: Pick<FetchRequest, 'wait' | 'timeout_ms'>
}

function msUntil (iso: string): number {
  const t = Date.parse(iso)
  return Number.isFinite(t) ? t - Date.now() : 0
}

/** Sends the link as a URL elicitation, then waits out the handoff and answers with the page. */
export async function askPerson (ctx: PageContext, ask: PersonAsk): Promise<McpPage> {
  const elicitationId = randomUUID()
  const message = elicitationMessage({ reason: ask.reason, instructions: ask.instructions, pageUrl: ask.pageUrl })
  const holdLeft = msUntil(ask.expiresAt)
  let answer
  try {
    answer = await ctx.call.elicitUrl({ elicitationId, url: ask.link, message, timeoutMs: Math.max(MIN_ELICIT_MS, holdLeft) })
  } catch (err) {
    if (ctx.call.signal.aborted) throw err
    // No answer within the hold (or the client failed the request): the handoff is left as it
    // is, for wait_for_person or its own expiry.
    return pageAfter(ctx, ask.tabId, ask.reason, { summary: await ctx.client.handoffSummary(ask.tabId, { signal: ctx.call.signal }), timedOut: true })
  }
  if (answer !== 'accept') {
    const note = answer === 'decline' ? 'Declined in the MCP client.' : 'Dismissed in the MCP client.'
    const summary = await ctx.client.declineHandoff(ask.tabId, ask.fence, note, { signal: ctx.call.signal }).catch(async (err: unknown) => {
      // The person may have finished (or the hold ended) meanwhile: report what is, not the refusal.
      if (err instanceof AfhttpClientError && (err.code === 'handoff_fence_stale' || err.code === 'handoff_expired')) return ctx.client.handoffSummary(ask.tabId, { signal: ctx.call.signal })
      throw err
    })
    return pageAfter(ctx, ask.tabId, ask.reason, { summary, timedOut: false })
  }
  const waited = await waitWithProgress(ctx.client, ctx.call, ask.tabId, msUntil(ask.expiresAt) + HOLD_GRACE_MS)
  // The elicitation's work is over once the handoff ended (finished, declined in the panel,
  // expired or revoked); a wait that merely timed out leaves the person their link.
  if (!waited.timedOut) await ctx.call.elicitationComplete(elicitationId).catch(() => undefined)
  return pageAfter(ctx, ask.tabId, ask.reason, waited)
}

/**
 * The page once a wait is over: re-fetched when the person finished (the takeover re-fetch of
 * docs/spec.md section 6), observed by a snapshot otherwise (declined, expired, revoked, still waiting).
 */
export async function pageAfter (ctx: PageContext, tabId: string, reason: string, waited: WaitResult): Promise<McpPage> {
  const s = waited.summary
  const declined = s?.state === 'finished' && s.finish_reason === 'human_declined'
  if (s && s.state === 'finished' && !declined && !waited.timedOut) {
    const r = await ctx.client.fetch({ tab_id: tabId, takeover: true, capture: ['html', 'text'], ...ctx.refetch }, { signal: ctx.call.signal })
    const again = humanAction(r)
    if (r.ok || !again) return pageFromFetch(r, ctx.maxChars, s)
    // Still not through: a fresh handoff; the agent asks again with wait_for_person.
    const fresh = await ctx.client.handoffSummary(r.tab_id, { signal: ctx.call.signal }).catch(() => null)
    const page = pageFromFetch(r, ctx.maxChars, fresh)
    return { ...page, person: ctx.call.urlElicitation ? personOutcome(again.reason, fresh, 'waiting') : personNeeded(again, again.takeover_url_secret) }
  }
  const snap = pageFromSnapshot(await ctx.client.snapshot(tabId, { capture: ['text'] }, { signal: ctx.call.signal }), ctx.maxChars)
  const how = declined ? 'declined' : waited.timedOut ? 'waiting' : 'ended'
  return { ...snap, person: personOutcome(reason, s ?? null, how) }
}
