import type { Browser } from 'puppeteer-core'

/** What a browser's window pool did, for the bench's breakdown: windows opened ahead, closed after answers. */
export interface PoolStats {
  opened: number
  openMs: number
  /** Windows a fetch had to open itself (the pool was empty): the pool wait of a miss. */
  openedOnDemand: number
  onDemandMs: number
  closed: number
  closeMs: number
  /** Closes that waited for a quiet moment instead of running beside other fetches. */
  deferredCloses: number
  /** Used windows reset and put back for the next fetch, and the mean time of a reset. */
  reused: number
  resetMs: number
  /** Used windows that could not be proven clean (closed instead), by what failed (see core/window-reuse.ts). */
  notReused: Record<string, number>
  /** Reset windows closed because fetches of other sites asked (a reset window serves only its own site). */
  otherSite: number
}

// Kept by browser (they go with it), so the bench reads them with no handle on the pool.
const stats = new WeakMap<Browser, PoolStats>()

/** Counters of the pool of `browser` (zeros when it never ran one). */
export function poolStats (browser: Browser): PoolStats {
  let s = stats.get(browser)
  if (!s) stats.set(browser, s = { opened: 0, openMs: 0, openedOnDemand: 0, onDemandMs: 0, closed: 0, closeMs: 0, deferredCloses: 0, reused: 0, resetMs: 0, notReused: {}, otherSite: 0 })
  return s
}
