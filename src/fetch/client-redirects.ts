import type { CDPEvents, CDPSession, Page } from 'puppeteer-core'
import { beforeDeadline, DeadlineError } from './deadline.js'
import { mainFrameIdOf } from '../browser/target-id.js'
import { FOLLOW_MAX_DELAY_S, refreshDelay, refreshesAtOnce } from '../core/client-redirect.js'

// A page that sends itself on at once — `<meta http-equiv="refresh" content="0; url=…">`, a
// script's `location = …` on load, a form that submits itself (a SAML POST binding), a `Refresh`
// header — is a redirect in all but name: an ordinary visitor never reads it. The fetch used to
// observe it anyway while the next document replaced it, and answered a blank bounce page or
// `page_unresponsive` ("Execution context was destroyed"). Chromium says when a navigation is
// scheduled (`Page.frameScheduledNavigation`, with its delay), but a refresh's timer starts in a
// task posted after the load: the page's own refresh (its meta tag, its header) says one is due
// before the event does. docs/spec.md section 6.

/** How long after its load a refresh due at once may take to start, on a busy machine. */
const REFRESH_START_GRACE_MS = 1_000
/** Client redirects followed per fetch; a chain longer than this is observed where it stands. */
export const MAX_CLIENT_REDIRECTS = 10

// The lifecycle event a strategy waits for (puppeteer's networkidle2 is Chromium's networkAlmostIdle).
const LIFECYCLE = { load: 'load', domcontentloaded: 'DOMContentLoaded', networkidle2: 'networkAlmostIdle' } as const
export type LifecycleWait = keyof typeof LIFECYCLE

export interface ClientRedirects {
  /**
   * Waits, bounded by `deadline` (performance.now() time), until the main frame has no client
   * redirect scheduled or in flight: each one the page starts reaches the watch's lifecycle event, up to
   * MAX_CLIENT_REDIRECTS. `refreshHeader` is the navigation's answer's `Refresh` header. Resolves
   * to the loader (the navigation request's id) of the document the main frame then shows.
   */
  follow: (deadline: number, refreshHeader?: string) => Promise<{ loaderId?: string }>
  stop: () => void
}

const NONE: ClientRedirects = { follow: async () => ({}), stop: () => undefined }

/**
 * puppeteer's own session with the page, which has the Page domain and its lifecycle events on
 * already. A session of our own would cost two round trips per fetch, and attaching it beside the
 * reload hold's races puppeteer: an attach that lands while another to the same target is pending
 * is taken for an auto-attached target, and detaching it made puppeteer forget the page's target
 * (its popups were no longer adopted).
 */
function ownSession (page: Page): CDPSession | undefined {
  const client = (page as unknown as { _client?: () => CDPSession })._client
  return typeof client === 'function' ? client.call(page) : undefined
}

/** Starts watching the page's main frame; call before the navigation whose redirects are to be followed. */
export function watchClientRedirects (page: Page, waitUntil: LifecycleWait): ClientRedirects {
  const session = ownSession(page)
  const mainFrameId = mainFrameIdOf(page)
  if (session === undefined || mainFrameId === undefined) return NONE // a page that cannot be watched is observed as before
  // The main frame: a navigation scheduled and not yet started, or one its document's refresh says
  // is due (until a deadline); the document loading, and whether it committed (one that never
  // does — a 204, a download, a cancelled one — ends when loading stops); whether a navigation
  // started since the shown document committed (then its refresh has had its turn).
  let scheduled = false
  let dueUntil: number | undefined
  let loading: { loaderId: string, committed: boolean } | undefined
  let shown: string | undefined
  let startedSinceShown = false
  let loaded = false
  const lifecycle = LIFECYCLE[waitUntil]
  let changed = (): void => undefined
  const main = (frameId: string): boolean => frameId === mainFrameId
  const update = (fn: () => void): void => { fn(); changed() }
  const listeners: Array<() => void> = []
  const on = <E extends keyof CDPEvents>(event: E, listener: (e: CDPEvents[E]) => void): void => {
    session.on(event, listener as never)
    listeners.push(() => { session.off(event, listener as never) })
  }

  on('Page.frameScheduledNavigation', (e) => {
    if (main(e.frameId) && e.delay <= FOLLOW_MAX_DELAY_S) update(() => { scheduled = true })
  })
  on('Page.frameClearedScheduledNavigation', (e) => {
    if (main(e.frameId)) update(() => { scheduled = false })
  })
  on('Page.frameStartedNavigating', (e) => {
    if (!main(e.frameId)) return
    // A same-document navigation (a hash, pushState) loads nothing.
    if (/samedocument$/i.test(e.navigationType)) return
    update(() => { scheduled = false; dueUntil = undefined; startedSinceShown = true; loading = { loaderId: e.loaderId, committed: false } })
  })
  on('Page.frameNavigated', (e) => {
    if (!main(e.frame.id)) return
    shown = e.frame.loaderId
    startedSinceShown = false
    loaded = false
    if (loading !== undefined && loading.loaderId === e.frame.loaderId) loading.committed = true
  })
  on('Page.frameStoppedLoading', (e) => {
    if (main(e.frameId) && loading !== undefined && !loading.committed) update(() => { loading = undefined })
  })
  on('Page.lifecycleEvent', (e) => {
    if (!main(e.frameId)) return
    if (e.name === 'load' && e.loaderId === shown) update(() => { loaded = true })
    if (e.loaderId === loading?.loaderId && e.name === lifecycle) update(() => { loading = undefined })
  })

  // One round trip through the page's event loop: whatever its load task, and the timers that task
  // set with no delay, scheduled has been reported by the time this answers; and the document's
  // own refresh, if it has one.
  // A document replaced while it answers (the redirect it had scheduled began) tells nothing, and
  // the navigation's own events say what to wait for; only a page that does not answer before the
  // deadline ends the follow.
  const settle = async (deadline: number): Promise<string | undefined> => {
    try {
      const { result } = await beforeDeadline(session.send('Runtime.evaluate', {
        expression: `new Promise(resolve => setTimeout(() => resolve(document.querySelector('meta[http-equiv="refresh" i]')?.getAttribute('content') ?? ''), 0))`,
        awaitPromise: true, returnByValue: true, silent: true
      }), deadline, 'the page after its load')
      return typeof result.value === 'string' && result.value !== '' ? result.value : undefined
    } catch (err) {
      if (err instanceof DeadlineError) throw err
      return undefined
    }
  }
  const quiet = (): boolean => !scheduled && loading === undefined && (dueUntil === undefined || performance.now() >= dueUntil)
  // Resolves true once `condition` holds (checked on every change of state, and at `wakeAt`), false at the deadline.
  const until = (condition: () => boolean, deadline: number, wakeAt?: number): Promise<boolean> => new Promise((resolve) => {
    const timers: NodeJS.Timeout[] = []
    const done = (settled: boolean): void => { timers.forEach(clearTimeout); changed = () => undefined; resolve(settled) }
    timers.push(setTimeout(() => done(false), Math.max(0, deadline - performance.now())))
    changed = () => { if (condition()) done(true) }
    if (wakeAt !== undefined) timers.push(setTimeout(() => changed(), Math.max(0, wakeAt - performance.now())))
    changed()
  })
  // A refresh due at once that has not had its turn: it fires once the document has loaded, after its delay.
  const expectRefresh = (refresh: string | undefined): boolean => {
    if (startedSinceShown || !refreshesAtOnce(refresh)) return false
    dueUntil = loaded ? performance.now() + (refreshDelay(refresh) ?? 0) * 1000 + REFRESH_START_GRACE_MS : undefined
    return true
  }

  return {
    async follow (deadline, refreshHeader) {
      const first = shown
      try {
        for (let turn = 0; turn < MAX_CLIENT_REDIRECTS; turn++) {
          // A Refresh header belongs to the document the navigation answered, not to later ones.
          const refresh = await settle(deadline) ?? (shown === first ? refreshHeader : undefined)
          const due = expectRefresh(refresh)
          if (!due && quiet()) break
          // A refresh on a document still loading starts with its load: wait for that, then look again.
          const waited = due && !loaded && !scheduled && loading === undefined
            ? await until(() => loaded || scheduled || loading !== undefined, deadline)
            : await until(quiet, deadline, dueUntil)
          if (!waited) break
        }
      } catch {
        // A page that does not answer before the deadline is observed as it stands.
      }
      return { loaderId: shown }
    },
    stop () {
      changed = () => undefined
      for (const off of listeners) off()
    }
  }
}
