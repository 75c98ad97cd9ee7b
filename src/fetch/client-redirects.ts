import type { CDPSession, Page, Protocol } from 'puppeteer-core'
import { beforeDeadline } from './deadline.js'
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
   * redirect scheduled or in flight: each one the page starts reaches `waitUntil`, up to
   * MAX_CLIENT_REDIRECTS. `refreshHeader` is the navigation's answer's `Refresh` header. Resolves
   * to the loader (the navigation request's id) of the document the main frame then shows.
   */
  follow: (waitUntil: LifecycleWait, deadline: number, refreshHeader?: string) => Promise<{ loaderId?: string }>
  stop: () => void
}

const NONE: ClientRedirects = { follow: async () => ({}), stop: () => undefined }

/** Starts watching the page's main frame; call before the navigation whose redirects are to be followed. */
export async function watchClientRedirects (page: Page): Promise<ClientRedirects> {
  let session: CDPSession
  let mainFrameId: string
  try {
    session = await page.createCDPSession()
    const [frames] = await Promise.all([
      mainFrameIdOf(page) === undefined ? session.send('Page.getFrameTree') : undefined,
      session.send('Page.enable'),
      session.send('Page.setLifecycleEventsEnabled', { enabled: true })
    ])
    mainFrameId = mainFrameIdOf(page) ?? frames!.frameTree.frame.id
  } catch {
    return NONE // a page that cannot be watched is observed as before
  }
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
  let lifecycle: string | undefined
  let changed = (): void => undefined
  const main = (frameId: string): boolean => frameId === mainFrameId
  const update = (fn: () => void): void => { fn(); changed() }

  session.on('Page.frameScheduledNavigation', (e: Protocol.Page.FrameScheduledNavigationEvent) => {
    if (main(e.frameId) && e.delay <= FOLLOW_MAX_DELAY_S) update(() => { scheduled = true })
  })
  session.on('Page.frameClearedScheduledNavigation', (e: Protocol.Page.FrameClearedScheduledNavigationEvent) => {
    if (main(e.frameId)) update(() => { scheduled = false })
  })
  session.on('Page.frameStartedNavigating', (e: Protocol.Page.FrameStartedNavigatingEvent) => {
    if (!main(e.frameId)) return
    // A same-document navigation (a hash, pushState) loads nothing.
    if (/samedocument$/i.test(e.navigationType)) return
    update(() => { scheduled = false; dueUntil = undefined; startedSinceShown = true; loading = { loaderId: e.loaderId, committed: false } })
  })
  session.on('Page.frameNavigated', (e: Protocol.Page.FrameNavigatedEvent) => {
    if (!main(e.frame.id)) return
    shown = e.frame.loaderId
    startedSinceShown = false
    loaded = false
    if (loading?.loaderId === e.frame.loaderId) loading.committed = true
  })
  session.on('Page.frameStoppedLoading', (e: Protocol.Page.FrameStoppedLoadingEvent) => {
    if (main(e.frameId) && loading !== undefined && !loading.committed) update(() => { loading = undefined })
  })
  session.on('Page.lifecycleEvent', (e: Protocol.Page.LifecycleEventEvent) => {
    if (!main(e.frameId)) return
    if (e.name === 'load' && e.loaderId === shown) update(() => { loaded = true })
    if (e.loaderId === loading?.loaderId && e.name === lifecycle) update(() => { loading = undefined })
  })

  // One round trip through the page's event loop: whatever its load task, and the timers that task
  // set with no delay, scheduled has been reported by the time this answers; and the document's
  // own refresh, if it has one.
  const settle = async (deadline: number): Promise<string | undefined> => {
    const { result } = await beforeDeadline(session.send('Runtime.evaluate', {
      expression: `new Promise(resolve => setTimeout(() => resolve(document.querySelector('meta[http-equiv="refresh" i]')?.getAttribute('content') ?? ''), 0))`,
      awaitPromise: true, returnByValue: true, silent: true
    }), deadline, 'the page after its load')
    return typeof result.value === 'string' && result.value !== '' ? result.value : undefined
  }
  const quiet = (): boolean => !scheduled && loading === undefined && (dueUntil === undefined || performance.now() >= dueUntil)
  const untilQuiet = (deadline: number): Promise<boolean> => new Promise((resolve) => {
    const timers: NodeJS.Timeout[] = []
    const done = (settled: boolean): void => { timers.forEach(clearTimeout); changed = () => undefined; resolve(settled) }
    timers.push(setTimeout(() => done(false), Math.max(0, deadline - performance.now())))
    changed = () => { if (quiet()) done(true) }
    if (dueUntil !== undefined) timers.push(setTimeout(() => changed(), Math.max(0, dueUntil - performance.now())))
    changed()
  })
  // A refresh due at once that has not had its turn: it fires once the document has loaded, after its delay.
  const expectRefresh = (refresh: string | undefined): boolean => {
    if (startedSinceShown || !refreshesAtOnce(refresh)) return false
    dueUntil = loaded ? performance.now() + (refreshDelay(refresh) ?? 0) * 1000 + REFRESH_START_GRACE_MS : undefined
    return true
  }

  const untilLoaded = (deadline: number): Promise<boolean> => new Promise((resolve) => {
    const done = (settled: boolean): void => { clearTimeout(timer); changed = () => undefined; resolve(settled) }
    const timer = setTimeout(() => done(false), Math.max(0, deadline - performance.now()))
    changed = () => { if (loaded || scheduled || loading !== undefined) done(true) }
    changed()
  })

  return {
    async follow (waitUntil, deadline, refreshHeader) {
      lifecycle = LIFECYCLE[waitUntil]
      const first = shown
      try {
        for (let turn = 0; turn < MAX_CLIENT_REDIRECTS; turn++) {
          // A Refresh header belongs to the document the navigation answered, not to later ones.
          const refresh = await settle(deadline) ?? (shown === first ? refreshHeader : undefined)
          const due = expectRefresh(refresh)
          if (!due && quiet()) break
          // A refresh on a document still loading starts with its load: wait for that, then look again.
          const waited = due && !loaded && !scheduled && loading === undefined ? await untilLoaded(deadline) : await untilQuiet(deadline)
          if (!waited) break
        }
      } catch {
        // A page that does not answer before the deadline is observed as it stands.
      }
      return { loaderId: shown }
    },
    stop () {
      changed = () => undefined
      session.detach().catch(() => undefined)
    }
  }
}
