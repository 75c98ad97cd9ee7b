import type { CDPSession, Page } from 'puppeteer-core'
import { mainFrameIdOf } from '../browser/target-id.js'
import { openPageSession } from '../browser/page-session.js'

// A page that reloads itself for ever (a JS challenge whose cookie nothing honours, a
// `<meta http-equiv=refresh content=0>` error page) never holds still long enough to be read:
// each document dies within milliseconds, and a fetch used to end in navigation_timeout. While a
// fetch observes it, the main frame's next GET of a URL it already showed is answered "204 No
// Content", which leaves the document on screen as it is — once that document finished loading
// (a refresh after load), or after this many requests (a reload while still parsing, as
// Sucuri's challenge does). When the fetch is done with the page, the last such navigation is
// made after all, so the page carries on for a person exactly as it would have.
export const LOADS_BEFORE_HOLD = 2

// Each page's hold: its release (`resume: false` drops a held navigation instead of making it)
// and how many navigations it held.
const active = new WeakMap<Page, { release: (resume?: boolean) => void, held: () => number }>()

/**
 * Ends the page's hold now, without making the navigation it held (its window is being reset
 * for another fetch). True when the page had a navigation held: it was still reloading itself.
 */
export function endReloadHold (page: Page): boolean {
  const hold = active.get(page)
  if (!hold) return false
  const owed = hold.held() > 0
  hold.release(false)
  return owed
}

export interface ReloadHold {
  /** How many navigations were answered 204 so far. */
  held: () => number
  /** Moves the release to `at` (performance.now() time), e.g. once the fetch's wait is over. */
  releaseAt: (at: number) => void
}

/**
 * Holds the page's repeated document loads until `releaseAt` (performance.now() time).
 * A later call for the same page releases the earlier hold first.
 */
export async function holdReloadLoops (page: Page, releaseAt: number): Promise<ReloadHold> {
  active.get(page)?.release()
  let session: CDPSession
  let mainFrameId: string
  try {
    session = await openPageSession(page)
    // Puppeteer already knows the main frame's id (it is the target's id): no round trip on the
    // fetch's path when it does.
    mainFrameId = mainFrameIdOf(page) ?? (await session.send('Page.getFrameTree')).frameTree.frame.id
  } catch {
    return { held: () => 0, releaseAt: () => undefined } // a page that cannot be held is navigated as before
  }
  const shown = new Map<string, { requests: number, loaded: boolean }>()
  let current: { requests: number, loaded: boolean } | undefined
  let deferred: string | undefined
  let held = 0
  const quietly = (p: Promise<unknown>): void => { p.catch(() => undefined) }
  session.on('Fetch.requestPaused', (event) => {
    const { requestId, request } = event
    const seen = shown.get(request.url)
    if (event.frameId === mainFrameId && request.method === 'GET' && seen !== undefined && (seen.loaded || seen.requests >= LOADS_BEFORE_HOLD)) {
      deferred = request.url
      held++
      return quietly(session.send('Fetch.fulfillRequest', { requestId, responseCode: 204, responseHeaders: [] }))
    }
    if (event.frameId === mainFrameId) {
      current = { requests: (seen?.requests ?? 0) + 1, loaded: false }
      shown.set(request.url, current)
    }
    quietly(session.send('Fetch.continueRequest', { requestId }))
  })
  const onLoad = (): void => { if (current !== undefined) current.loaded = true }
  page.on('load', onLoad)
  let released = false
  const release = (resumeHeld = true): void => {
    if (released) return
    released = true
    clearTimeout(timer)
    active.delete(page)
    page.off('load', onLoad)
    const resume = resumeHeld ? deferred : undefined
    quietly(session.send('Fetch.disable')
      .then(async () => { if (resume !== undefined && !page.isClosed()) await session.send('Page.navigate', { url: resume }) })
      .finally(() => { quietly(session.detach()) }))
  }
  let timer: NodeJS.Timeout | undefined
  const arm = (at: number): void => {
    if (released) return
    clearTimeout(timer)
    timer = setTimeout(() => release(), Math.max(0, at - performance.now()))
    timer.unref()
  }
  arm(releaseAt)
  active.set(page, { release, held: () => held })
  try {
    await session.send('Fetch.enable', { patterns: [{ resourceType: 'Document', requestStage: 'Request' }] })
  } catch {
    release()
  }
  return { held: () => held, releaseAt: arm }
}
