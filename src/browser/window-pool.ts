import type { Browser, Frame, Page, Target } from 'puppeteer-core'
import { openWindow } from './open-window.js'
import { POOL_PEAK_MEMORY_MS, PoolDemand, refillRetryMs } from '../core/pool-demand.js'
import { DeferredCloses } from './deferred-closes.js'
import { WindowUse } from './window-use.js'
import { reuseSite } from '../core/window-reuse.js'
import { fitsSite, WindowWaiters } from '../core/window-waiters.js'
import { WindowReturnsLedger } from './window-returns-ledger.js'
import { poolStats, type PoolStats } from './pool-stats.js'
import type { TakenWindow, WindowPoolOptions } from './window-pool-options.js'
export { poolStats, type PoolStats } from './pool-stats.js'
export type { TakenWindow, WindowPoolOptions } from './window-pool-options.js'


// Work the pool does for later fetches (opening windows, closing used ones) waits until no fetch
// of the browser has run for this long: a fetch arriving right after the previous answer then
// navigates without a window being built beside it in Chromium's browser process.
const SETTLE_MS = 25
// Windows opened at once for fetches that found the pool empty.
const OPENERS = 2
// While fetches wait for windows coming back, how often the pool looks again at whether one
// should be built instead (a fetch holding its window longer than usual changes the answer).
const REVIEW_MS = 50

/**
 * Unused windows kept open for one browser, so a fetch never waits for a window to open
 * (docs/spec.md section 14). A fetch's window comes back only when its fetch released it as reusable
 * and the window's watch proves it clean (see WindowUse): reset to about:blank with one history
 * entry, no sessionStorage change, no popup, no dialog, no frame out of process, and the same
 * window state as when it opened. Any other window is closed: whatever a fetch leaves in it
 * (sessionStorage, history, a half-run script) dies with it.
 * Pool windows are not tabs: they are never listed, reaped or handed to a person.
 */
export class WindowPool {
  private readonly ready: Page[] = []
  // Stops watching a waiting window for someone else's navigation (once it is taken or handed over).
  private readonly taken = new WeakMap<Page, () => void>()
  private readonly creating = new Set<Promise<void>>()
  // Every window being opened (ahead or on demand): owns() waits for them before it answers.
  private readonly opening = new Set<Promise<unknown>>()
  // Every target the pool ever opened, so the inventory can tell them from popups.
  private readonly opened = new WeakSet<Target>()
  private stopped = false
  private failures = 0
  private readonly demand: PoolDemand
  private readonly closes: DeferredCloses
  // Fetches waiting for a window because the pool was empty, and the windows opening for them.
  private readonly waiters = new WindowWaiters<Page>()
  // The site a reset window last served (see reuseSite); a window never used serves any.
  private readonly servedSite = new WeakMap<Page, string>()
  private openers = 0
  // Windows held, being reset and coming back, and what they cost: what decides whether to build one.
  private readonly returns = new WindowReturnsLedger()
  private review: NodeJS.Timeout | undefined
  private settle: NodeJS.Timeout | undefined
  private shrink: NodeJS.Timeout | undefined
  private retry: NodeJS.Timeout | undefined
  private readonly stats: PoolStats

  constructor (readonly browser: Browser, private readonly opts: WindowPoolOptions) {
    this.demand = new PoolDemand(opts.size)
    this.stats = poolStats(browser)
    this.closes = new DeferredCloses(this.stats, (err) => opts.onCloseError?.(err), () => browser.connected)
  }

  get size (): number { return this.opts.size }
  /** Windows open and waiting now. */
  get available (): number { return this.ready.length }
  /** Windows the pool fills up to now: AFHTTP_TAB_POOL, or the recent peak of concurrent fetches (bounded). */
  get target (): number { return this.demand.target(this.now()) }

  private now (): number { return this.opts.now?.() ?? performance.now() }

  /**
   * Takes a clean window for a fetch of `url`: one never used, or one reset after a fetch of the
   * same site; opens one only when the pool has none. Without `url`, any clean window.
   */
  async take (url?: string): Promise<TakenWindow> {
    // The fetch asking has not started its work yet, nor have those still opening their own window.
    this.demand.taken(this.now(), (this.opts.running?.() ?? 0) + this.waiters.length + 1)
    this.postpone()
    const site = url === undefined ? undefined : reuseSite(url)
    const otherSites: Page[] = []
    let page: Page | undefined
    while ((page = this.ready.shift())) {
      if (!this.usable(page)) {
        this.refuse(page)
      } else if (fitsSite(this.servedSite.get(page), site)) {
        break
      } else {
        otherSites.push(page)
      }
    }
    this.ready.unshift(...otherSites)
    if (page) {
      this.taken.get(page)?.()
      this.returns.held(page, site)
      return { page, hit: true }
    }
    // Every window waiting served another site: the oldest makes room for a fresh one.
    const oldest = otherSites[0]
    if (oldest) {
      this.ready.splice(this.ready.indexOf(oldest), 1)
      this.taken.get(oldest)?.()
      this.stats.otherSite++
      this.close(oldest)
    }
    return { page: await this.nextOpened(site), hit: false }
  }

  // A waiting window that is no longer clean leaves the pool.
  private refuse (page: Page): void {
    if (!this.pristine(page)) {
      // Someone else used it and the navigation event has not come yet: not fresh, and not ours.
      this.handOver(page)
    } else {
      // A late storage event of the page that used it before: not proven clean.
      this.taken.get(page)?.()
      this.discard(page, 'late_event')
    }
  }

  /**
   * The pool is empty: wait for the next window to open. Chromium builds windows one after
   * another in its browser process, so eight fetches each opening their own at once all wait
   * for the slowest; opening at most OPENERS at a time, first come first served, hands the
   * first window out as soon as it exists, and its fetch navigates while the next is built.
   */
  private nextOpened (site: string | undefined): Promise<Page> {
    const window = this.waiters.wait(site).then((page) => {
      this.returns.held(page, site)
      return page
    })
    this.openForWaiters()
    return window
  }

  // The places in line of the waiting fetches to build windows for (see WindowReturnsLedger).
  private toBuild (): number[] {
    return this.returns.toBuild(this.waiters.sites(), this.opts.running?.() ?? 0)
  }

  private openForWaiters (): void {
    // Called on every close and reset: nothing to weigh when no fetch waits.
    if (this.waiters.length === 0) return
    const build = this.toBuild().length
    // Some wait for a window coming back: look again soon, in case it is slow to come.
    if (!this.review && !this.stopped) {
      this.review = setTimeout(() => { this.review = undefined; this.openForWaiters() }, REVIEW_MS)
      this.review.unref()
    }
    while (this.openers < OPENERS && this.openers + this.creating.size < build) {
      this.openers++
      const t0 = performance.now()
      this.openWindow(false).then((page) => {
        this.stats.onDemandMs += performance.now() - t0
        // Built for the first waiter no returning window serves, which is not always the first in line.
        const first = this.toBuild()[0]
        if (first === undefined || !this.waiters.handOutTo(first, page)) this.handOut(page)
      }, (err: unknown) => {
        this.waiters.failFirst(err)
      }).finally(() => {
        this.openers--
        this.openForWaiters()
      })
    }
  }

  // A window just opened (or reset) goes to the fetch that has waited longest and may take it, else into the pool.
  private handOut (page: Page): void {
    if (this.waiters.handOut(page, this.servedSite.get(page))) return
    if (this.stopped) page.close().catch(() => undefined)
    else this.wait(page)
  }

  // A window waits in the pool until a fetch takes it, or until someone else navigates it.
  private wait (page: Page): void {
    this.ready.push(page)
    const navigated = (frame: Frame): void => {
      if (frame !== page.mainFrame() || this.pristine(page)) return
      page.off('framenavigated', navigated)
      const at = this.ready.indexOf(page)
      if (at < 0) return // a fetch took it meanwhile: its own navigation
      this.ready.splice(at, 1)
      this.handOver(page)
      this.refill()
    }
    page.on('framenavigated', navigated)
    // Taken by a fetch: its navigations are the fetch's own.
    this.taken.set(page, () => page.off('framenavigated', navigated))
  }

  private handOver (page: Page): void {
    this.taken.get(page)?.()
    if (!page.isClosed()) this.opts.onForeign?.(page)
  }

  /**
   * A fetch answered and is done with its window. A `reusable` window (a plain fetch's own, never
   * shown to a person) is reset at once and handed to the next fetch if it proves clean and the
   * pool wants it; any other window is closed, at once when the browser is quiet, else once it
   * is, within a second (see DeferredCloses).
   */
  retire (page: Page, reusable = false): void {
    if (page.isClosed()) {
      this.returns.released(page, false, undefined)
      return
    }
    const served = reuseSite(page.url())
    const returnsFor = this.returns.released(page, reusable, served)
    if (reusable && this.wantsBack()) {
      this.servedSite.set(page, served)
      this.reset(page, returnsFor)
      return
    }
    this.close(page)
  }

  // The pool keeps windows at all (not AFHTTP_TAB_POOL=0) and has fewer on hand or on their way than it wants.
  private wantsBack (): boolean {
    return !this.stopped && this.browser.connected && this.size > 0 && (this.ready.length + this.returns.resetting + this.creating.size < this.target || this.waiters.length > this.openers + this.creating.size + this.returns.resetting)
  }

  // A reset costs the browser a navigation to about:blank, a fraction of a new window (see
  // docs/performance.md), so it runs at once, beside the next fetch, instead of in a quiet moment.
  private reset (page: Page, returnsFor: string | undefined): void {
    const use = WindowUse.of(page)
    if (!use) { this.discard(page, 'unwatched'); return }
    this.returns.resetStarted(page, this.servedSite.get(page))
    use.reset().then((verdict) => {
      const ms = this.returns.resetEnded(page, verdict.reuse, returnsFor)
      if (!verdict.reuse) {
        this.opts.onNotReused?.(verdict.reason)
        this.discard(page, verdict.fact)
        return
      }
      this.stats.reused++
      this.stats.resetMs += ms
      this.handOut(page)
    }, () => {
      this.returns.resetEnded(page, false, returnsFor)
      this.discard(page, 'reset_failed')
    }).finally(() => { this.openForWaiters() })
  }

  private discard (page: Page, fact: string): void {
    this.stats.notReused[fact] = (this.stats.notReused[fact] ?? 0) + 1
    this.close(page)
  }

  private close (page: Page): void {
    if (page.isClosed()) return
    this.closes.add(page, this.stopped)
    this.refill()
    // A window that will not come back: a fetch waiting for it may need one built now.
    this.openForWaiters()
  }

  // Any fetch activity pushes the pool's own work back by SETTLE_MS.
  private postpone (): void {
    if (this.settle) this.settle.refresh()
  }

  // No round trip: puppeteer tracks the main frame's URL from Chromium's own events.
  private pristine (page: Page): boolean {
    return !page.isClosed() && page.url() === 'about:blank'
  }

  // Pristine, and nothing was seen in it since it opened or was last reset.
  private usable (page: Page): boolean {
    return this.pristine(page) && WindowUse.of(page)?.dirty() === undefined
  }

  /**
   * True when `target` is a pool window. Waits for windows being opened first: Chromium
   * announces a target before puppeteer's newPage() returns it.
   */
  async owns (target: Target): Promise<boolean> {
    // Only windows already being opened can be this target: a popup never waits for a refill
    // that started after it appeared.
    const pending = [...this.opening]
    if (pending.length > 0 && !this.opened.has(target)) await Promise.allSettled(pending)
    return this.opened.has(target)
  }

  /** Stops refilling and closes the unused windows (browser lost or host closing). */
  async stop (closeWindows = true): Promise<void> {
    this.stopped = true
    clearTimeout(this.settle)
    clearTimeout(this.shrink)
    clearTimeout(this.retry)
    clearTimeout(this.review)
    if (closeWindows) this.closes.flush()
    this.closes.cancelTimer()
    const pages = this.ready.splice(0)
    // Fetches still waiting for a window get none from a stopped pool: they fail now, not at their deadline.
    this.waiters.failAll(new Error('Browser closed: the window pool stopped while a fetch waited for a window'))
    if (closeWindows) await Promise.allSettled(pages.map((p) => p.close()))
  }

  private async openWindow (ahead = true): Promise<Page> {
    // Its own window: a background tab in a shared window paints no screencast frames,
    // and each fetch may become a person's takeover. Opened in the background (not
    // activated): headless Chromium opens such a window in ~60 ms instead of ~105, its page
    // is still `visible` and paints, and the panel brings it to the front when a person comes.
    const t0 = performance.now()
    const opened = openWindow(this.browser, this.opts.headful ?? false, true).then(async (page) => {
      this.opened.add(page.target())
      // Watched from before any site runs in it, so it can be proven clean after its fetch.
      await WindowUse.watch(page)
      return page
    })
    this.opening.add(opened)
    const page = await opened.finally(() => this.opening.delete(opened))
    const ms = performance.now() - t0
    this.returns.opened(ms)
    if (ahead) {
      this.stats.opened++
      this.stats.openMs += ms
    } else {
      this.stats.openedOnDemand++
    }
    return page
  }

  /**
   * Asks the pool to catch up: once the browser has been quiet for SETTLE_MS it closes the used
   * windows waiting for it, then opens windows in the background, one at a time and only while
   * the browser stays quiet, until the pool holds its target; windows past the target (a burst
   * long over) are closed. The owner calls it when a fetch has answered (and at start).
   */
  refill (): void {
    if (this.stopped || !this.browser.connected) return
    if (this.settle) { this.settle.refresh(); return }
    this.settle = setTimeout(() => {
      this.settle = undefined
      this.catchUp()
    }, SETTLE_MS)
    this.settle.unref()
  }

  // After a failure, a pause before the next try instead of spinning on a broken browser; a pool
  // left short would otherwise wait for the next fetch to notice (a fetch then opens its own window).
  private retryLater (): void {
    if (this.retry || this.stopped) return
    this.retry = setTimeout(() => { this.retry = undefined; this.refill() }, refillRetryMs(this.failures))
    this.retry.unref()
  }

  // No fetch runs, and none waits for a window: a window opening for a waiting fetch goes back
  // to the pool after its fetch (reset) or is replaced then, so the pool adds none beside it.
  private quiet (): boolean {
    if (this.waiters.length > 0 || this.openers > 0) return false
    return this.opts.quiet ? this.opts.quiet() : (this.opts.running?.() ?? 0) === 0
  }

  private catchUp (): void {
    if (this.stopped || !this.browser.connected || !this.quiet()) return
    if (this.closes.pending > 0) {
      this.stats.deferredCloses += this.closes.pending
      this.closes.flush()
    }
    const target = this.target
    while (this.ready.length > target) this.ready.pop()?.close().catch(() => undefined)
    if (target > this.size && !this.shrink) {
      // Look again once the burst is forgotten, even if no fetch comes to call refill().
      this.shrink = setTimeout(() => { this.shrink = undefined; this.refill() }, POOL_PEAK_MEMORY_MS + SETTLE_MS)
      this.shrink.unref()
    }
    if (this.creating.size > 0 || this.ready.length + this.returns.resetting >= target) return
    const job = this.openWindow().then((page) => {
      if (this.stopped) {
        page.close().catch(() => undefined)
        return
      }
      this.failures = 0
      this.handOut(page)
    }, (err: unknown) => {
      this.failures++
      this.opts.onError?.(err)
    }).finally(() => {
      this.creating.delete(job)
      // A fetch that waited on this window opens its own now (and hears at once if the browser is gone).
      this.openForWaiters()
      if (this.failures === 0) this.catchUp()
      else this.retryLater()
    })
    this.creating.add(job)
  }
}
