// What the MCP tools answer (docs/spec.md section 18), made from the HTTP API's answers: pure, so each
// rule (text bound, no fence, no panel link unless asked for) is tested without a host.
import type { FetchResult, HandoffSummary, HumanTakeoverAction, SnapshotResult } from '../client/index.js'
import { MCP_TEXT_CHARS_DEFAULT, MCP_TITLE_CHARS_MAX } from '../limits.js'
import type { McpHandoff, McpPage, McpPerson } from '../schemas/mcp.js'
import { titleElementText } from '../core/document-title.js'

/** Page text cut at `maxChars` UTF-16 units, never inside a surrogate pair. */
export function boundText (text: string | undefined, maxChars = MCP_TEXT_CHARS_DEFAULT): Pick<McpPage, 'text' | 'text_chars' | 'text_truncated'> {
  const whole = text ?? ''
  if (whole.length <= maxChars) return { text: whole, text_chars: whole.length, text_truncated: false }
  let end = maxChars
  const last = whole.charCodeAt(end - 1)
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end -= 1
  return { text: whole.slice(0, end), text_chars: whole.length, text_truncated: true }
}

/** The document title from captured HTML (a fetch answer carries no title of its own). */
export function titleOf (html: string | undefined): string | null {
  return titleElementText(html ?? '')?.slice(0, MCP_TITLE_CHARS_MAX) ?? null
}

/** The summary an agent sees: everything but the fence (the MCP server finishes for the agent). */
export function withoutFence (s: HandoffSummary | null | undefined): McpHandoff | null {
  if (!s) return null
  const { handoff_fence: _fence, ...rest } = s
  return rest
}

/** The `human_takeover` action of a fetch answer, if a person is needed. */
export function humanAction (r: FetchResult): HumanTakeoverAction | undefined {
  return r.actions.find((a) => a.kind === 'human_takeover')
}

export function pageFromFetch (r: FetchResult, maxChars: number | undefined, handoff: HandoffSummary | null): McpPage {
  return {
    ok: r.ok,
    url: r.final_url,
    status: r.status,
    ...(r.page_kind !== undefined ? { page_kind: r.page_kind } : {}),
    ...(r.challenge !== undefined ? { challenge: r.challenge } : {}),
    title: titleOf(r.artifacts.html),
    ...boundText(r.artifacts.text, maxChars),
    tab_id: r.tab_id,
    tab_retained: r.tab_retained,
    handoff: withoutFence(handoff),
    warnings: r.warnings
  }
}

export function pageFromSnapshot (r: SnapshotResult, maxChars: number | undefined): McpPage {
  return {
    ok: false,
    url: r.url,
    status: r.status,
    ...(r.page_kind !== undefined ? { page_kind: r.page_kind } : {}),
    ...(r.challenge !== undefined ? { challenge: r.challenge } : {}),
    title: r.title,
    ...boundText(r.artifacts.text, maxChars),
    tab_id: r.tab_id,
    handoff: withoutFence(r.handoff),
    warnings: r.warnings
  }
}

const REASONS: Record<string, string> = {
  challenge: 'the page shows a bot check',
  denied: 'the site refused access',
  http_error: 'the page answered with an HTTP error',
  empty: 'the page came back empty',
  capture_failed: 'the page could not be captured',
  readiness_unsatisfied: 'the content the program waits for did not appear',
  content_unverified: 'the page could not be verified as the content the program needs',
  dialog: 'the page is waiting on a dialog',
  person_needed: 'the page still needs a person'
}

/** One sentence on why a person is needed, from the fetch action's reason. */
export function reasonText (reason: string): string {
  return REASONS[reason] ?? `the page needs a person (${reason})`
}

/**
 * What the person reads in their MCP client before opening the link: the driver's instructions
 * (plain text, as the panel shows them) and the reason, never the link itself (the client shows it).
 */
export function elicitationMessage (opts: { reason: string, instructions?: string, pageUrl: string }): string {
  let site = opts.pageUrl
  try { site = new URL(opts.pageUrl).host } catch { /* keep the URL as given */ }
  const lines = [`A page on ${site} needs a person: ${reasonText(opts.reason)}.`]
  if (opts.instructions?.trim()) lines.push(opts.instructions.trim())
  lines.push('Open the link to work the live page in your browser; press Done there when you are through, or "I can\'t do this" to hand it back.')
  return lines.join('\n')
}

/** A person is needed; `panelUrl` only for a client without URL elicitation (docs/spec.md section 18). */
export function personNeeded (action: HumanTakeoverAction, panelUrl: string | undefined): McpPerson {
  if (panelUrl === undefined) {
    return { needed: true, reason: action.reason, outcome: 'unavailable', next: 'No panel link could be minted (see warnings); retry fetch_page on this tab later, or close_tab.' }
  }
  return {
    needed: true,
    reason: action.reason,
    outcome: 'waiting',
    panel_url: panelUrl,
    ...(action.expires_at !== undefined ? { expires_at: action.expires_at } : {}),
    next: 'Give panel_url to a person (it is a single-use secret: do not log or share it further), then call wait_for_person with tab_id.'
  }
}

/** How asking a person ended, for an elicitation-capable client (no link in it, ever). */
export function personOutcome (reason: string, summary: HandoffSummary | null, how: 'declined' | 'ended' | 'waiting'): McpPerson {
  if (how === 'declined') {
    return { needed: true, reason, outcome: 'declined', next: 'The person declined; the tab stays open. Ask again with wait_for_person, try another way, or close_tab.' }
  }
  if (how === 'waiting') {
    return { needed: true, reason, outcome: 'waiting', ...(summary ? { expires_at: summary.expires_at } : {}), next: 'A person is still needed; call wait_for_person with tab_id to ask and wait.' }
  }
  const state = summary?.state
  const outcome = state === 'expired' || state === 'revoked' ? state : 'finished'
  return {
    needed: outcome !== 'finished',
    reason,
    outcome,
    next: outcome === 'finished' ? 'The person finished; this is the page after their work.' : `The handoff ${outcome} before a person finished; fetch_page again to start over.`
  }
}
