import type { AfhttpClient } from '../../client/index.js'

/** What woke a waiting loop: an event about the tab (read the summary), or only time passing. */
export type Wake = 'event' | 'tick'
export type WakeFn = (ms: number, signal: AbortSignal) => Promise<Wake>

// How long to wait for the stream to connect before falling back to polling.
const CONNECT_MS = 5_000

/**
 * Follows `GET /v1/events` for one tab so a waiting loop reads the handoff summary only when
 * something happened to it. Resolves undefined on a host without an event stream (or one that
 * does not connect in time): the caller polls as before. `close()` ends the stream.
 */
export async function tabEventWaker (client: Pick<AfhttpClient, 'events'>, tabId: string): Promise<{ wake: WakeFn, close: () => void } | undefined> {
  const stream = new AbortController()
  let pending = false
  let notify: (() => void) | undefined
  let failed = false
  const opened = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), CONNECT_MS)
    timer.unref()
    void (async () => {
      try {
        for await (const e of client.events({ signal: stream.signal, onOpen: () => { clearTimeout(timer); resolve(true) } })) {
          if (e.tab_id !== tabId && e.type !== 'events.gap') continue
          pending = true
          notify?.()
        }
      } catch { /* no stream on this host, or it refused us: poll instead */ }
      failed = true
      clearTimeout(timer)
      resolve(false)
      notify?.()
    })()
  })
  if (!await opened) { stream.abort(); return undefined }
  const wake: WakeFn = async (ms, signal) => {
    if (!pending && !failed) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms)
        function done (): void { clearTimeout(timer); notify = undefined; signal.removeEventListener('abort', done); resolve() }
        notify = done
        signal.addEventListener('abort', done, { once: true })
      })
    }
    if (signal.aborted) throw signal.reason
    // A stream that ended for good turns every wake into a read: the loop polls from then on.
    if (pending || failed) { pending = false; return 'event' }
    return 'tick'
  }
  return { wake, close: () => stream.abort() }
}
