// Each profile's window pool (docs/spec.md section 14): one per running browser, made when the
// browser starts, replaced when it is a new browser, stopped when it is lost or the host closes.
// The tab inventory (src/tabs/tab-inventory.ts) owns it and tells it how busy each profile is.
import type { Browser, Page, Target } from 'puppeteer-core'
import type { PoolOfWindows, TabLogger, TabPages } from './ports.js'

export interface ProfilePoolsDeps {
  pages: Pick<TabPages, 'openPool' | 'anchorAttached'>
  log: Pick<TabLogger, 'warn' | 'debug'>
  /** AFHTTP_TAB_POOL, read when a browser's pool is made. */
  size: () => number
  headful: boolean
  now: () => number
  /** Fetches of the profile in flight now: the pool refills only while there are none. */
  running: (profile: string) => number
  /** A waiting window someone else navigated is theirs now: the inventory lists it as adopted. */
  adoptForeign: (profile: string, page: Page) => void
}

export class ProfilePools {
  readonly #d: ProfilePoolsDeps
  readonly #pools = new Map<string, PoolOfWindows>()
  #shuttingDown = false

  constructor (deps: ProfilePoolsDeps) {
    this.#d = deps
  }

  /** The pool of the profile's running browser; a new browser gets a new pool. */
  for (profile: string, browser: Browser): PoolOfWindows {
    const { log } = this.#d
    let pool = this.#pools.get(profile)
    if (pool?.browser === browser) return pool
    pool?.stop(false).catch(() => undefined)
    // An attached (cdp) browser is someone else's: the host opens windows there only on demand.
    const size = browser.process() ? this.#d.size() : 0
    pool = this.#d.pages.openPool(browser, {
      size,
      headful: this.#d.headful,
      quiet: () => !this.#shuttingDown && this.#d.running(profile) === 0,
      running: () => this.#d.running(profile),
      now: () => this.#d.now(),
      onError: (err) => log.warn({ err, profile }, 'the window pool could not open a window; it tries again shortly'),
      onCloseError: (err) => log.warn({ err, profile }, 'a fetch window did not close after its answer'),
      // Expected for many sites (any sessionStorage write): debug, not a warning.
      onNotReused: (reason) => log.debug({ profile, reason }, 'a fetch window is closed instead of reused'),
      // A CDP client navigated a waiting window: it is that client's page now, listed and reaped like one it opened.
      onForeign: (page) => { if (!page.isClosed()) this.#d.adoptForeign(profile, page) }
    })
    this.#pools.set(profile, pool)
    const started = pool
    // Health finds the anchor's page through puppeteer: have it attached before the pool's
    // first windows keep a just-started browser busy.
    this.#d.pages.anchorAttached(browser).catch(() => undefined).finally(() => started.refill())
    return pool
  }

  /** The profile's browser went away: its pool stops (its windows went with the browser). */
  lost (profile: string): void {
    this.#pools.get(profile)?.stop(false).catch(() => undefined)
    this.#pools.delete(profile)
  }

  /** Pool windows are not tabs until a fetch takes one. */
  async owns (profile: string, target: Target): Promise<boolean> {
    return await this.#pools.get(profile)?.owns(target) ?? false
  }

  /**
   * A released tab's window: back to its browser's pool (which closes it, or resets it for a later
   * fetch when `reusable`), or closed when that pool is gone or belongs to a newer browser.
   */
  retire (profile: string, page: Page, reusable: boolean): void {
    const pool = this.#pools.get(profile)
    if (pool?.browser === page.browser()) pool.retire(page, reusable)
    else if (!page.isClosed()) page.close().catch(() => undefined)
  }

  refill (profile: string): void { this.#pools.get(profile)?.refill() }
  available (profile: string): number { return this.#pools.get(profile)?.available ?? 0 }
  levels (): Record<string, number> { return Object.fromEntries([...this.#pools].map(([profile, pool]) => [profile, pool.available])) }

  /** The host closes: no more refills; the browser's own close takes the unused windows with it. */
  async stopAll (): Promise<void> {
    this.#shuttingDown = true
    await Promise.allSettled([...this.#pools.values()].map((p) => p.stop(false)))
  }
}
