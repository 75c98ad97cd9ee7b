import type { Browser, Page, Target } from 'puppeteer-core'
import { openWindow } from './open-window.js'

/** What a fetch got from the pool: a window opened ahead of time (hit) or just now (miss). */
export interface TakenWindow {
  page: Page
  hit: boolean
}

export interface WindowPoolOptions {
  /** Windows kept open and unused (AFHTTP_TAB_POOL); 0 opens every window on demand. */
  size: number
  /** A background refill failed; the pool tries again when the owner next calls refill() (after a fetch). */
  onError?: (err: unknown) => void
  /**
   * False while fetches of this browser are running: opening a window occupies Chromium's
   * browser process for ~100 ms and a navigation that waits behind it takes two to three
   * times as long, so the pool refills in the quiet moments between fetches.
   */
  quiet?: () => boolean
  /** On a display, new windows wait for their geometry before they are handed out (see openWindow). */
  headful?: boolean
}

/**
 * Unused windows kept open for one browser, so a fetch never waits for a window to open
 * (SPEC section 14). A window is handed out once and never comes back: whatever a fetch
 * leaves in its window (sessionStorage, history, a half-run script) dies with it.
 * Pool windows are not tabs: they are never listed, reaped or handed to a person.
 */
export class WindowPool {
  private readonly ready: Page[] = []
  private readonly creating = new Set<Promise<void>>()
  // Every target the pool ever opened, so the inventory can tell them from popups.
  private readonly opened = new WeakSet<Target>()
  private stopped = false
  private failures = 0

  constructor (readonly browser: Browser, private readonly opts: WindowPoolOptions) {}

  get size (): number { return this.opts.size }
  /** Windows open and waiting now. */
  get available (): number { return this.ready.length }

  /** Takes a window no fetch used before; opens one only when the pool is empty. */
  async take (): Promise<TakenWindow> {
    let page: Page | undefined
    while ((page = this.ready.shift()) && !this.pristine(page)) {
      // Someone else used it (a CDP passthrough client sees pool windows too): it is not fresh.
      if (!page.isClosed()) page.close().catch(() => undefined)
    }
    if (page) return { page, hit: true }
    return { page: await this.openWindow(), hit: false }
  }

  // No round trip: puppeteer tracks the main frame's URL from Chromium's own events.
  private pristine (page: Page): boolean {
    return !page.isClosed() && page.url() === 'about:blank'
  }

  /**
   * True when `target` is a pool window. Waits for windows being opened first: Chromium
   * announces a target before puppeteer's newPage() returns it.
   */
  async owns (target: Target): Promise<boolean> {
    // Only windows already being opened can be this target: a popup never waits for a refill
    // that started after it appeared.
    const pending = [...this.creating]
    if (pending.length > 0 && !this.opened.has(target)) await Promise.allSettled(pending)
    return this.opened.has(target)
  }

  /** Stops refilling and closes the unused windows (browser lost or host closing). */
  async stop (closeWindows = true): Promise<void> {
    this.stopped = true
    const pages = this.ready.splice(0)
    if (closeWindows) await Promise.allSettled(pages.map((p) => p.close()))
  }

  private async openWindow (): Promise<Page> {
    // Its own window: a background tab in a shared window paints no screencast frames,
    // and each fetch may become a person's takeover. Opened in the background (not
    // activated): headless Chromium opens such a window in ~60 ms instead of ~105, its page
    // is still `visible` and paints, and the panel brings it to the front when a person comes.
    const page = await openWindow(this.browser, this.opts.headful ?? false, true)
    this.opened.add(page.target())
    return page
  }

  /**
   * Opens windows in the background until the pool is full, one at a time and only while
   * the browser is quiet; the owner calls it when a fetch has answered (and at start).
   */
  refill (): void {
    if (this.stopped || this.creating.size > 0 || this.ready.length >= this.opts.size || !this.browser.connected) return
    if (this.opts.quiet && !this.opts.quiet()) return
    const job = this.openWindow().then((page) => {
      if (this.stopped) {
        page.close().catch(() => undefined)
        return
      }
      this.failures = 0
      this.ready.push(page)
    }, (err: unknown) => {
      this.failures++
      this.opts.onError?.(err)
    }).finally(() => {
      this.creating.delete(job)
      // After a failure, wait for the next take instead of spinning on a broken browser.
      if (this.failures === 0) this.refill()
    })
    this.creating.add(job)
  }
}
