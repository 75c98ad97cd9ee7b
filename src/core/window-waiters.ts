// Fetches waiting for a window because the pool had none for them (docs/spec.md section 14). A
// window never used serves any fetch; a reset one serves only the site it served (see reuseSite
// in window-reuse.ts). First come, first served among the fetches a window fits. Pure: the pool
// says which site a window served, and hands out whatever it opens or resets.

/** The site a window served: undefined for a window never used (it serves any fetch). */
export type ServedSite = string | undefined

/** Whether a window that served `served` may go to a fetch of `site` (undefined: any site). */
export function fitsSite (served: ServedSite, site: string | undefined): boolean {
  return served === undefined || site === undefined || served === site
}

interface Waiter<W> {
  site: string | undefined
  resolve: (window: W) => void
  reject: (err: unknown) => void
}

export class WindowWaiters<W> {
  readonly #waiters: Array<Waiter<W>> = []

  get length (): number { return this.#waiters.length }

  /** A fetch of `site` (undefined: any) waits; the promise is its window, or why there is none. */
  wait (site: string | undefined): Promise<W> {
    return new Promise<W>((resolve, reject) => { this.#waiters.push({ site, resolve, reject }) })
  }

  /** The sites the waiting fetches asked for, longest waiting first. */
  sites (): ServedSite[] {
    return this.#waiters.map((w) => w.site)
  }

  /** True when some waiting fetch could take a window that served `served`. */
  wants (served: ServedSite): boolean {
    return this.#waiters.some((w) => fitsSite(served, w.site))
  }

  /** Gives `window` to the fetch that has waited longest and may take it; false when none may. */
  handOut (window: W, served: ServedSite): boolean {
    const at = this.#waiters.findIndex((w) => fitsSite(served, w.site))
    if (at < 0) return false
    this.#waiters.splice(at, 1)[0].resolve(window)
    return true
  }

  /** Gives `window` (one never used: it fits any site) to the waiter at `place` in line; false when there is none. */
  handOutTo (place: number, window: W): boolean {
    const waiter = this.#waiters[place]
    if (waiter === undefined) return false
    this.#waiters.splice(place, 1)
    waiter.resolve(window)
    return true
  }

  /** The window opening for the longest waiter failed: that fetch hears why. */
  failFirst (err: unknown): void {
    this.#waiters.shift()?.reject(err)
  }

  /** No window will come (the pool stopped): every waiting fetch hears why, now. */
  failAll (err: unknown): void {
    for (const w of this.#waiters.splice(0)) w.reject(err)
  }
}
