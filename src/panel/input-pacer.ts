// Paces relayed input (docs/spec.md section 10 "Gestures"): mouse moves are coalesced to at most
// one per page frame (≤ 60 per second, newest position wins), while every other event —
// presses, releases, keys, text — passes at once, in order, never dropped. A held move
// is flushed before the next non-move so nothing overtakes it. Pure: the caller owns the
// timer and the clock.

export const MOVE_INTERVAL_MS = 1000 / 60

export interface Paced<T> {
  /** Send now, in this order. */
  now: T[]
  /** When to call flush() for a held move, if one is held. */
  flushAt?: number
}

export class InputPacer<T> {
  #lastMoveAt = -Infinity
  #held: T | undefined

  constructor (private readonly interval = MOVE_INTERVAL_MS) {}

  push (event: T, isMove: boolean, now: number): Paced<T> {
    if (!isMove) {
      const out = this.#held === undefined ? [event] : [this.#held, event]
      if (this.#held !== undefined) this.#lastMoveAt = now
      this.#held = undefined
      return { now: out }
    }
    if (this.#held === undefined && now - this.#lastMoveAt >= this.interval) {
      this.#lastMoveAt = now
      return { now: [event] }
    }
    this.#held = event
    return { now: [], flushAt: this.#lastMoveAt + this.interval }
  }

  /** The held move, if its time has come. */
  flush (now: number): Paced<T> {
    if (this.#held === undefined) return { now: [] }
    if (now - this.#lastMoveAt < this.interval) return { now: [], flushAt: this.#lastMoveAt + this.interval }
    const out = [this.#held]
    this.#held = undefined
    this.#lastMoveAt = now
    return { now: out }
  }

  /** Forget a held move (control moved on: docs/spec.md section 7 "queued input is dropped"). */
  drop (): boolean {
    const had = this.#held !== undefined
    this.#held = undefined
    return had
  }

  get holding (): boolean {
    return this.#held !== undefined
  }
}
