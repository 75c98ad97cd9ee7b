// How many unused windows a profile's pool keeps (docs/spec.md section 14). AFHTTP_TAB_POOL is the
// floor; after a burst of concurrent fetches the pool keeps up to the burst's peak (bounded),
// so the next burst takes windows that are already open instead of opening them while its
// fetches navigate. A minute after the last fetch of a burst, the target falls back to the
// floor. Pure: the caller owns the clock.

/** The pool never grows past this on demand (memory: roughly 30–60 MB of browser PSS per window). */
export const POOL_BURST_MAX = 8
/** A peak is remembered this long after the last fetch that took a window. */
export const POOL_PEAK_MEMORY_MS = 60_000

export class PoolDemand {
  #peak = 0
  #lastTakeAt = -Infinity

  constructor (readonly floor: number, private readonly max = Math.max(floor, POOL_BURST_MAX), private readonly memoryMs = POOL_PEAK_MEMORY_MS) {}

  /**
   * A fetch took a window while `concurrent` fetches (itself included) were running. Tabs kept
   * for a person are not counted: they hold their windows but ask for no new ones.
   */
  taken (now: number, concurrent: number): void {
    this.#forget(now)
    this.#lastTakeAt = now
    if (concurrent > this.#peak) this.#peak = concurrent
  }

  #forget (now: number): void {
    if (now - this.#lastTakeAt > this.memoryMs) this.#peak = 0
  }

  /** Windows the pool should hold now. A pool of 0 stays 0: the operator (or an attached browser) asked for none. */
  target (now: number): number {
    if (this.floor === 0) return 0
    this.#forget(now)
    return Math.min(this.max, Math.max(this.floor, this.#peak))
  }
}

/** The pause before the pool tries again after `failures` failed opens in a row: 1 s, doubling, at most 30 s. */
export function refillRetryMs (failures: number): number {
  return Math.min(30_000, 1_000 * 2 ** Math.max(0, Math.min(failures, 16) - 1))
}
