import { AfhttpClientError, type AfhttpClient, type HandoffSummary } from '../../client/index.js'
import { formatDuration, renderProgress } from '../../client/progress.js'
import type { WakeFn } from './event-wake.js'

// The progress line is shared with the MCP server's wait (src/mcp/wait.ts).
export { renderProgress }

export type WaitOutcome =
  | { kind: 'finished', summary: HandoffSummary }
  /** The person said "I can't do this" (finish_reason human_declined); the tab stays retained. */
  | { kind: 'declined', summary: HandoffSummary, note?: string }
  /** The host ended the hold without a finish: `expired` or `revoked`. */
  | { kind: 'ended', summary: HandoffSummary }
  /** The tab or its handoff no longer exists (closed, host restarted). */
  | { kind: 'gone', error: AfhttpClientError }
  | { kind: 'interrupted', summary?: HandoffSummary }
  | { kind: 'unreachable', error: AfhttpClientError }

export interface WaitOptions {
  tabId: string
  /** Expiry known from the fetch's action; the summary's own `expires_at` wins once read. */
  expiresAt?: string
  pollMs: number
  now: () => number
  sleep: (ms: number, signal: AbortSignal) => Promise<void>
  signal: AbortSignal
  progress: (text: string, key: string) => void
  /**
   * Wakes the loop on events about the tab (see tabEventWaker). With it the summary is read only
   * after an event, after a failed read, and every SAFETY_READ_MS; `pollMs` then only paces the
   * progress line. Without it the loop polls every `pollMs`.
   */
  wake?: WakeFn
}

/** With events, a read this often anyway: a stream can be quiet because its host is gone. */
export const SAFETY_READ_MS = 30_000


// Keep trying this long past the hold's end while the host does not answer: a restart takes a moment.
const UNREACHABLE_GRACE_MS = 30_000
const UNREACHABLE_WITHOUT_EXPIRY_MS = 60_000

/** What the CLI prints when the person declined: their note, quoted as text, and what next. */
export function explainDecline (outcome: Extract<WaitOutcome, { kind: 'declined' }>, tabId: string): string {
  const note = outcome.note !== undefined ? `: ${JSON.stringify(outcome.note)}` : ' (no reason given)'
  return `the person declined${note}\nTab ${tabId} stays retained; mint another panel link for someone else or close the tab.`
}

function isTransient (err: AfhttpClientError): boolean {
  return ['host_unreachable', 'connection_lost', 'request_timeout', 'rate_limited'].includes(err.code) || (err.status ?? 0) >= 500
}

/**
 * Polls the handoff summary until the person finishes, the hold ends, the tab disappears, the
 * signal aborts (Ctrl-C) or the host stays unreachable past the hold. Never touches the tab.
 */
export async function waitForHandoff (client: Pick<AfhttpClient, 'handoffSummary'>, opts: WaitOptions): Promise<WaitOutcome> {
  const started = opts.now()
  let last: HandoffSummary | undefined
  let failingSince: number | undefined
  let lastReadAt = started
  const show = (s: HandoffSummary): void => {
    const now = opts.now()
    const { text, key } = renderProgress(s, now - started, now)
    opts.progress(text, key)
  }
  /** One summary read: an outcome when the wait is over, undefined to keep waiting. */
  const readOnce = async (): Promise<WaitOutcome | undefined> => {
    lastReadAt = opts.now()
    try {
      const s = await client.handoffSummary(opts.tabId, { signal: opts.signal, timeoutMs: Math.max(5_000, opts.pollMs * 5) })
      last = s
      failingSince = undefined
      if (s.state === 'finished' && s.finish_reason === 'human_declined') {
        return { kind: 'declined', summary: s, ...(typeof s.human_note === 'string' ? { note: s.human_note } : {}) }
      }
      if (s.state === 'finished') return { kind: 'finished', summary: s }
      if (s.state === 'expired' || s.state === 'revoked') return { kind: 'ended', summary: s }
      show(s)
    } catch (err) {
      if (opts.signal.aborted) return { kind: 'interrupted', summary: last }
      if (!(err instanceof AfhttpClientError)) throw err
      if (err.code === 'tab_not_found' || err.code === 'handoff_not_found') return { kind: 'gone', error: err }
      if (!isTransient(err)) throw err
      const now = opts.now()
      failingSince ??= now
      const expiry = Date.parse(last?.expires_at ?? opts.expiresAt ?? '')
      const giveUpAt = Number.isFinite(expiry) ? expiry + UNREACHABLE_GRACE_MS : failingSince + UNREACHABLE_WITHOUT_EXPIRY_MS
      if (now >= giveUpAt) return { kind: 'unreachable', error: err }
      opts.progress(`waiting for a person · ${formatDuration(now - started)} elapsed · host not answering (${err.code}), retrying`, 'unreachable')
    }
    return undefined
  }
  let mustRead = true
  for (;;) {
    if (opts.signal.aborted) return { kind: 'interrupted', summary: last }
    if (mustRead || !last) {
      const outcome = await readOnce()
      if (outcome) return outcome
    } else {
      show(last)
    }
    try {
      if (opts.wake) {
        const woke = await opts.wake(opts.pollMs, opts.signal)
        mustRead = woke === 'event' || failingSince !== undefined || opts.now() - lastReadAt >= SAFETY_READ_MS
      } else {
        await opts.sleep(opts.pollMs, opts.signal)
      }
    } catch {
      return { kind: 'interrupted', summary: last }
    }
  }
}
