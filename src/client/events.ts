import type { Dispatcher } from 'undici'
import { AfhttpClientError } from './errors.js'
import { SseParser } from './sse.js'
import type { HandoffSummary, HostEvent } from './types.js'

/** Options of `client.events()`. */
export interface EventsOptions {
  /**
   * Resume after this event id (the `id` of the last event you handled). Over several hosts,
   * a map from each host's base URL to the last id seen there.
   */
  lastEventId?: number | string | Readonly<Record<string, number | string>>
  /** Over several hosts: follow only this one (a base URL from the client's list). */
  host?: string
  /** Ends the iteration. */
  signal?: AbortSignal
  /** Wait between reconnects after the stream drops (default 1000 ms, doubling up to 15 s). */
  reconnectMs?: number
  /** Called each time the stream is connected (first connect and every reconnect). */
  onOpen?: () => void
  /** Called when a connection attempt fails or the stream drops; it then reconnects by itself. */
  onDrop?: (err: unknown) => void
}

/** Options of `client.waitForHandoff()`. */
export interface WaitForHandoffOptions {
  signal?: AbortSignal
  /** Called with each summary read (after every event about the tab, and at the start). */
  onSummary?: (summary: HandoffSummary) => void
  /** Polling interval on a host without `GET /v1/events` (default 1000 ms). */
  pollMs?: number
}

/** The resume id for one host's stream out of `EventsOptions.lastEventId`. */
export function lastIdFor (lastEventId: EventsOptions['lastEventId'], host: string): number | string | undefined {
  if (lastEventId === undefined || typeof lastEventId !== 'object') return lastEventId
  return lastEventId[host]
}

export type OpenStream = (lastEventId: string | undefined, signal: AbortSignal) => Promise<Dispatcher.ResponseData>

const MAX_RECONNECT_MS = 15_000
const LIVE = new Set(['open', 'human', 'human_disconnected'])

/** True for an answer that means "this host has no event stream" (an older host). */
export function isNoEventStream (err: unknown): boolean {
  return err instanceof AfhttpClientError && (err.status === 404 || err.status === 405)
}

async function sleep (ms: number, signal?: AbortSignal): Promise<void> {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener('abort', () => { clearTimeout(timer); resolve() }, { once: true })
  })
}

/**
 * The event stream as an async iterator that reconnects by itself with `Last-Event-ID`, so a
 * dropped connection loses nothing the host's journal still holds; when it does not, the host
 * sends `events.gap` first and the caller must re-read state. Errors that are not transient
 * (401, 403, 404 on an older host) end the iteration with that error.
 */
export async function * eventStream (open: OpenStream, opts: Omit<EventsOptions, 'lastEventId'> & { lastEventId?: number | string } = {}): AsyncGenerator<HostEvent> {
  let lastId = opts.lastEventId === undefined ? undefined : String(opts.lastEventId)
  let backoff = opts.reconnectMs ?? 1_000
  const inner = new AbortController()
  const abort = (): void => inner.abort()
  opts.signal?.addEventListener('abort', abort, { once: true })
  try {
    while (!inner.signal.aborted) {
      let res: Dispatcher.ResponseData
      try {
        res = await open(lastId, inner.signal)
      } catch (err) {
        if (inner.signal.aborted) return
        if (err instanceof AfhttpClientError && !err.retryable && (err.status ?? 0) < 500) throw err
        opts.onDrop?.(err)
        await sleep(backoff, inner.signal)
        backoff = Math.min(backoff * 2, MAX_RECONNECT_MS)
        continue
      }
      const parser = new SseParser()
      opts.onOpen?.()
      try {
        for await (const chunk of res.body) {
          for (const msg of parser.feed(typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8'))) {
            if (msg.id) lastId = msg.id
            let event: HostEvent
            try { event = JSON.parse(msg.data) as HostEvent } catch { continue }
            backoff = opts.reconnectMs ?? 1_000
            yield event
          }
        }
      } catch (err) {
        if (inner.signal.aborted) return
        opts.onDrop?.(err)
      } finally {
        res.body.destroy()
      }
      if (inner.signal.aborted) return
      await sleep(backoff, inner.signal)
    }
  } finally {
    opts.signal?.removeEventListener('abort', abort)
    inner.abort()
  }
}

/**
 * Resolves with the handoff summary once the handoff is no longer live (`finished`, `expired`,
 * `revoked`). Reads the summary at the start and after each event about the tab (or a gap); on
 * a host without `GET /v1/events` it polls instead. Rejects with `tab_not_found` /
 * `handoff_not_found` when the tab is gone, and with the signal's reason when aborted.
 */
export async function waitForHandoffEnd (
  deps: { open: OpenStream, summary: (tabId: string, signal?: AbortSignal) => Promise<HandoffSummary> },
  tabId: string,
  opts: WaitForHandoffOptions = {}
): Promise<HandoffSummary> {
  const read = async (): Promise<HandoffSummary | undefined> => {
    const s = await deps.summary(tabId, opts.signal)
    opts.onSummary?.(s)
    return LIVE.has(s.state) ? undefined : s
  }
  const inner = new AbortController()
  const stop = (): void => inner.abort(opts.signal?.reason)
  opts.signal?.addEventListener('abort', stop, { once: true })
  try {
    // Connect first, then read: an event between the two cannot be missed.
    let first: Dispatcher.ResponseData | undefined
    try {
      first = await deps.open(undefined, inner.signal)
    } catch (err) {
      if (!isNoEventStream(err)) throw err
    }
    if (!first) {
      for (;;) {
        const done = await read()
        if (done) return done
        await sleep(opts.pollMs ?? 1_000, opts.signal)
        if (opts.signal?.aborted) throw opts.signal.reason
      }
    }
    let handed: Dispatcher.ResponseData | undefined = first
    const open: OpenStream = async (lastId, signal) => {
      if (handed) { const r = handed; handed = undefined; return r }
      return deps.open(lastId, signal)
    }
    const done = await read()
    if (done) return done
    for await (const e of eventStream(open, { signal: inner.signal })) {
      if (e.type !== 'events.gap' && e.tab_id !== tabId) continue
      if (!e.type.startsWith('handoff.') && e.type !== 'tab.closed' && e.type !== 'events.gap') continue
      const end = await read()
      if (end) return end
    }
    throw opts.signal?.reason ?? new AfhttpClientError('connection_lost', 'the event stream ended')
  } finally {
    opts.signal?.removeEventListener('abort', stop)
    inner.abort()
  }
}
