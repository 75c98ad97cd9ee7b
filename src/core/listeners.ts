// A list of callbacks that one failing listener cannot break: each is called, a throw is
// reported (never propagated), and the rest still hear the event. The one way the host's
// services call their listeners.
export class Listeners<A extends unknown[]> {
  readonly #fns: Array<(...args: A) => void> = []
  constructor (private readonly onError: (err: unknown, ...args: A) => void) {}

  add (fn: (...args: A) => void): void {
    this.#fns.push(fn)
  }

  /** Stops calling one listener (its owner closed); the others still hear. */
  remove (fn: (...args: A) => void): void {
    const at = this.#fns.indexOf(fn)
    if (at >= 0) this.#fns.splice(at, 1)
  }

  emit (...args: A): void {
    for (const fn of this.#fns) {
      try { fn(...args) } catch (err) { this.onError(err, ...args) }
    }
  }
}
