/** Time source for every expiry and idle decision, so tests can fake the clock (and nothing else). */
export interface Clock {
  now (): number
  /**
   * Calls `fn` once the clock reaches `when` (ms); the returned function cancels it. Owners of
   * deadlines (a handoff's hold) run their own timers through this instead of being polled.
   */
  at (when: number, fn: () => void): () => void
}

/** Node's timers are capped at about 24.8 days; a later deadline waits in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1

export const systemClock: Clock = {
  now: () => Date.now(),
  at (when, fn) {
    let timer: NodeJS.Timeout | undefined
    const arm = (): void => {
      const wait = when - Date.now()
      if (wait <= 0) { timer = undefined; fn(); return }
      timer = setTimeout(arm, Math.min(wait, MAX_TIMER_MS))
      timer.unref()
    }
    // A deadline already reached still fires on a later turn, never inside the caller.
    timer = setTimeout(arm, Math.max(0, Math.min(when - Date.now(), MAX_TIMER_MS)))
    timer.unref()
    return () => { if (timer) clearTimeout(timer) }
  }
}

/** A clock that moves only when told to; its timers fire, in order, as it is advanced past them. */
export class ManualClock implements Clock {
  readonly #timers = new Set<{ when: number, fn: () => void }>()
  constructor (private t = Date.parse('2026-01-01T00:00:00Z')) {}
  now (): number { return this.t }
  advance (ms: number): void {
    this.t += ms
    const due = [...this.#timers].filter((x) => x.when <= this.t).sort((a, b) => a.when - b.when)
    for (const x of due) {
      this.#timers.delete(x)
      x.fn()
    }
  }

  at (when: number, fn: () => void): () => void {
    const timer = { when, fn }
    this.#timers.add(timer)
    return () => { this.#timers.delete(timer) }
  }
}
