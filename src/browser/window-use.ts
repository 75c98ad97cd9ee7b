// What a pool window saw while a fetch used it, and the reset that lets it serve the next fetch
// (docs/spec.md section 14: nothing carries from one fetch to the next except the profile's own state).
// The watch starts when the window opens, before any site runs in it: sessionStorage changes
// (DOMStorage events of the window's own renderer), frames in other processes (whose storage the
// watch cannot see), popups (they keep `opener`) and dialogs. The reset navigates the window to
// about:blank, drops its history (the site's page leaves the back/forward cache with it), clears
// window.name and then checks the window against what it showed when it opened. A window the
// watch cannot vouch for, or whose reset does not check out, is closed instead.
import type { CDPSession, Frame, Page } from 'puppeteer-core'
import { mayReset, resetClean, type ReuseVerdict, type WindowState, type WindowUseFacts } from '../core/window-reuse.js'
import { withTimeout } from '../core/with-timeout.js'
import { pageSession } from '../page-ui/page-watch.js'
import { endReloadHold } from '../fetch/reload-hold.js'
import { clientAttached } from './client-attached.js'
import { targetIdOf } from './target-id.js'

/** A reset that takes longer than this (a page that will not unload, a saturated machine) closes the window instead. */
const RESET_MS = 5_000

interface StorageEvent { storageId?: { isLocalStorage?: boolean } }

const uses = new WeakMap<Page, WindowUse>()

// Runs in the page: what a site could read about its window. The reset clears the name first.
const READ_STATE = (clearName: boolean): WindowState => {
  if (clearName) window.name = ''
  return {
    url: location.href,
    historyLength: history.length,
    frames: window.length,
    name: window.name,
    opener: window.opener !== null,
    scrollX: window.scrollX,
    scrollY: window.scrollY,
    focused: document.hasFocus(),
    visibility: document.visibilityState,
    innerWidth: window.innerWidth,
    innerHeight: window.innerHeight,
    outerWidth: window.outerWidth,
    outerHeight: window.outerHeight,
    screenX: window.screenX,
    screenY: window.screenY,
    devicePixelRatio: window.devicePixelRatio,
    zoom: window.visualViewport?.scale ?? 1
  }
}

const clean = (): WindowUseFacts => ({ sessionStorageChanged: false, outOfProcessFrame: false, popupOpened: false, dialogOpened: false, reloadHeld: false, unwatched: false, cdpClient: false })

export class WindowUse {
  facts: WindowUseFacts = clean()
  /** The window as it was when it opened: what a fresh window shows. */
  opened: WindowState | undefined

  private constructor (readonly page: Page, private readonly session: CDPSession) {}

  static of (page: Page): WindowUse | undefined {
    return uses.get(page)
  }

  /** Starts watching a window that just opened (still about:blank, no site has run in it). */
  static async watch (page: Page): Promise<WindowUse> {
    const session = pageSession(page)
    const use = new WindowUse(page, session)
    uses.set(page, use)
    const changed = (ev: unknown): void => { if ((ev as StorageEvent).storageId?.isLocalStorage !== true) use.facts.sessionStorageChanged = true }
    for (const name of ['domStorageItemAdded', 'domStorageItemUpdated', 'domStorageItemRemoved', 'domStorageItemsCleared']) session.on(`DOMStorage.${name}`, changed)
    // A frame in another process reports to its own session, which this watch does not hear.
    const frame = (f: Frame): void => {
      if ((f as unknown as { client?: CDPSession }).client !== session) use.facts.outOfProcessFrame = true
    }
    page.on('frameattached', frame)
    page.on('framenavigated', frame)
    page.on('popup', () => { use.facts.popupOpened = true })
    session.on('Page.javascriptDialogOpening', () => { use.facts.dialogOpened = true })
    try {
      await session.send('DOMStorage.enable')
      use.opened = await page.evaluate(READ_STATE, false)
    } catch {
      use.facts.unwatched = true
    }
    return use
  }

  // Asked at the reset only: a fresh window a client attached to (auto-attach reaches every
  // window) is handed out as before; one a fetch used is not handed out again.
  private noteClient (): void {
    if (clientAttached(targetIdOf(this.page))) this.facts.cdpClient = true
  }

  /** Why the window may not serve another fetch as it stands; undefined when nothing was seen. */
  dirty (): string | undefined {
    const v = mayReset(this.facts)
    return v.reuse ? undefined : v.reason
  }

  /**
   * Makes the window what it was when it opened, or says why it cannot. On success the watch
   * starts over; the caller closes the window on failure.
   */
  async reset (): Promise<ReuseVerdict> {
    const page = this.page
    if (page.isClosed()) return { reuse: false, fact: 'closed', reason: 'it closed' }
    // A reload loop's held navigation would be made later, in the next fetch's page.
    if (endReloadHold(page)) this.facts.reloadHeld = true
    this.noteClient()
    const before = mayReset(this.facts)
    if (!before.reuse || !this.opened) return before.reuse ? { reuse: false, fact: 'unwatched', reason: 'its first state is unknown' } : before
    const opened = this.opened
    try {
      const state = await withTimeout((async () => {
        await page.goto('about:blank', { waitUntil: 'load', timeout: RESET_MS })
        // Deletes every entry but the current one: the site's page leaves the back/forward cache.
        await this.session.send('Page.resetNavigationHistory')
        return await page.evaluate(READ_STATE, true)
      })(), RESET_MS, 'the window reset')
      // Storage events of the page's last moments (pagehide, unload) arrived before this answer.
      const after = mayReset(this.facts)
      if (!after.reuse) return after
      const verdict = resetClean(opened, state)
      if (verdict.reuse) this.facts = clean()
      return verdict
    } catch (err) {
      return { reuse: false, fact: 'reset_failed', reason: (err as Error).message.split('\n')[0] }
    }
  }
}
