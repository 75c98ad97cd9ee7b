import type { Page } from 'puppeteer-core'
import { RecentMean, waitersToBuildFor, type HeldWindow } from '../core/window-returns.js'
import type { ServedSite } from '../core/window-waiters.js'

// Sites whose fetches the ledger remembers (whether their windows come back, and how long they
// hold them): the most recent ones, so a host that fetches many sites keeps a bounded record.
const SITES_REMEMBERED = 256

interface SiteRecord { returns: boolean, holdMs: RecentMean }

/**
 * What a window pool knows about windows coming back (docs/decisions.md, "A burst waits for windows
 * coming back"): which windows fetches hold and since when, which are being reset, whether each
 * site's windows come back and how long its fetches hold them, and what resets and openings cost
 * lately. The pool tells it what happens; `toBuild` asks the pure rule what to build.
 */
export class WindowReturnsLedger {
  readonly #held = new Map<Page, { site: ServedSite, since: number }>()
  readonly #watchedClose = new WeakSet<Page>()
  readonly #resetting = new Map<Page, { site: ServedSite, since: number }>()
  readonly #sites = new Map<string, SiteRecord>()
  readonly #resetMs = new RecentMean()
  readonly #openMs = new RecentMean()

  /** Windows being reset now. */
  get resetting (): number { return this.#resetting.size }

  /** A fetch of `site` took `page`. */
  held (page: Page, site: ServedSite): void {
    this.#held.set(page, { site, since: performance.now() })
    if (this.#watchedClose.has(page)) return
    this.#watchedClose.add(page)
    page.once('close', () => { this.#held.delete(page) })
  }

  /**
   * Its fetch is done with `page`, which now shows `served`. Answers the site the window comes
   * back for once reset: the one its fetch asked for, and only when the fetch ended there (a site
   * that redirects elsewhere hands back windows no fetch of it can take).
   */
  released (page: Page, reusable: boolean, served: ServedSite): string | undefined {
    const held = this.#held.get(page)
    this.#held.delete(page)
    if (held?.site === undefined) return undefined
    if (!reusable || served !== held.site) {
      this.#site(held.site).returns = false
      return undefined
    }
    this.#site(held.site).holdMs.add(performance.now() - held.since)
    return held.site
  }

  /** `page`, which served `served`, is being reset. */
  resetStarted (page: Page, served: ServedSite): void {
    this.#resetting.set(page, { site: served, since: performance.now() })
  }

  /**
   * The reset of `page` ended: reused or not, and whether windows of `returnsFor` come back.
   * Returns how long the reset took (the one clock the pool's stats read too).
   */
  resetEnded (page: Page, reused: boolean, returnsFor: string | undefined): number {
    const started = this.#resetting.get(page)
    this.#resetting.delete(page)
    if (returnsFor !== undefined) this.#site(returnsFor).returns = reused
    const ms = started === undefined ? 0 : performance.now() - started.since
    if (reused && started) this.#resetMs.add(ms)
    return ms
  }

  /** A window took `ms` to open. */
  opened (ms: number): void { this.#openMs.add(ms) }

  /** The places in line of the waiting fetches (`waiters`, their sites) to build windows for. */
  toBuild (waiters: ServedSite[], running: number): number[] {
    const now = performance.now()
    const held: HeldWindow[] = []
    for (const [page, h] of this.#held) {
      const holdMs = this.#returningHold(h.site)
      if (holdMs !== undefined && !page.isClosed()) held.push({ site: h.site, heldMs: now - h.since, holdMs })
    }
    return waitersToBuildFor({
      waiters,
      held,
      resetting: [...this.#resetting.values()].map((r) => ({ site: r.site, elapsedMs: now - r.since, holdMs: r.site === undefined ? undefined : this.#sites.get(r.site)?.holdMs.value })),
      running,
      resetMs: this.#resetMs.value,
      openMs: this.#openMs.value
    })
  }

  // How long fetches of `site` hold a window, for a site whose windows come back.
  #returningHold (site: ServedSite): number | undefined {
    const record = site === undefined ? undefined : this.#sites.get(site)
    return record?.returns === true ? record.holdMs.value : undefined
  }

  // The record of a site asked for, kept among the most recent SITES_REMEMBERED.
  #site (site: string): SiteRecord {
    const known = this.#sites.get(site)
    if (known) this.#sites.delete(site)
    const record = known ?? { returns: false, holdMs: new RecentMean() }
    this.#sites.set(site, record)
    if (this.#sites.size > SITES_REMEMBERED) this.#sites.delete(this.#sites.keys().next().value!)
    return record
  }
}
