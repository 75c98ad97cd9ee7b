// How many unused windows a profile's pool keeps (SPEC section 14). AFHTTP_TAB_POOL is the
// floor; after a burst of concurrent fetches the pool keeps up to the burst's peak (bounded),
// so the next burst takes windows that are already open instead of opening them while its
// fetches navigate. Once no fetch has run for a while, the target falls back to the floor.
// Pure: the caller owns the clock.

/** The pool never grows past this on demand (memory: roughly 30–60 MB of browser PSS per window). */
export const POOL_BURST_MAX = 8
/** A peak is remembered this long after the last fetch of the burst ended. */
export const POOL_PEAK_MEMORY_MS = 60_000

export class PoolDemand {
  #inUse = 0
  #peak = 0
  #lastBusyAt = -Infinity

  constructor (readonly floor: number, private readonly max = Math.max(floor, POOL_BURST_MAX), private readonly memoryMs = POOL_PEAK_MEMORY_MS) {}

  /** Windows handed out and still working (taken, not yet done). */
  get inUse (): number { return this.#inUse }

  taken (now: number): void {
    this.#forget(now)
    this.#inUse++
    this.#lastBusyAt = now
    if (this.#inUse > this.#peak) this.#peak = this.#inUse
  }

  done (now: number): void {
    this.#forget(now)
    if (this.#inUse > 0) this.#inUse--
    this.#lastBusyAt = now
  }

  // A tab kept for a person counts as in use until it closes, but does not hold the peak up.
  #forget (now: number): void {
    if (now - this.#lastBusyAt > this.memoryMs) this.#peak = this.#inUse
  }

  /** Windows the pool should hold now. A pool of 0 stays 0: the operator (or an attached browser) asked for none. */
  target (now: number): number {
    if (this.floor === 0) return 0
    this.#forget(now)
    return Math.min(this.max, Math.max(this.floor, this.#peak))
  }
}
