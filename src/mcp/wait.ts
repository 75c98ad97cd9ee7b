// Waiting while a person works (docs/spec.md section 18): the tool call stays open on the tab's handoff
// and tells the client how it goes every few seconds, as `--wait-for-human` does on a terminal.
import type { AfhttpClient, HandoffSummary } from '../client/index.js'
import { renderProgress } from '../client/progress.js'
import { isLiveState } from '../core/handoff.js'
import { MCP_PROGRESS_MS } from '../limits.js'
import type { ToolCall } from './tool-call.js'

export interface WaitResult {
  /** The last summary read: the ended one unless the wait timed out. */
  summary: HandoffSummary | undefined
  timedOut: boolean
}

/** States in which a person may still be working. */
export function isLive (s: HandoffSummary): boolean {
  return isLiveState(s.state)
}

/**
 * Resolves when the tab's handoff ends or `timeoutMs` passes; rejects with the call's abort
 * reason when the client cancels or goes away (nothing is left running: the event stream and
 * the ticker stop with it). Never touches the tab.
 */
export async function waitWithProgress (client: AfhttpClient, call: ToolCall, tabId: string, timeoutMs: number, first?: HandoffSummary): Promise<WaitResult> {
  const started = Date.now()
  const stop = new AbortController()
  const signal = AbortSignal.any([call.signal, stop.signal])
  let last = first
  let step = 0
  const tick = (): void => {
    if (!last) return
    step += 1
    const { text } = renderProgress(last, Date.now() - started, Date.now())
    call.progress(step, text)
  }
  tick()
  const ticker = setInterval(tick, MCP_PROGRESS_MS)
  const deadline = setTimeout(() => stop.abort(new Error('wait_for_person timed out')), Math.max(0, timeoutMs))
  try {
    // The first summary read is told at once when nobody handed one in: a person who is through
    // in under MCP_PROGRESS_MS still leaves the client a note that the call waited for them.
    const onSummary = (s: HandoffSummary): void => {
      const firstRead = last === undefined
      last = s
      if (firstRead && isLive(s)) tick()
    }
    const summary = await client.waitForHandoff(tabId, { signal, onSummary })
    return { summary, timedOut: false }
  } catch (err) {
    if (call.signal.aborted) throw call.signal.reason
    if (stop.signal.aborted) return { summary: last, timedOut: true }
    throw err
  } finally {
    clearInterval(ticker)
    clearTimeout(deadline)
  }
}
