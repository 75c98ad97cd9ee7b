/** Raised when a page call outlives the time the fetch has left. */
export class DeadlineError extends Error {
  constructor (what: string) {
    super(`${what} did not answer in time`)
    this.name = 'DeadlineError'
  }
}

/**
 * Races a page call against a performance.now() deadline. A page that busy-loops never answers
 * CDP calls; without this a fetch with timeout_ms 2000 would wait for the 30 s protocol timeout.
 */
export function beforeDeadline<T> (p: Promise<T>, deadline: number, what: string): Promise<T> {
  const left = deadline - performance.now()
  if (left <= 0) {
    p.catch(() => undefined)
    return Promise.reject(new DeadlineError(what))
  }
  let timer: NodeJS.Timeout | undefined
  return Promise.race([
    p,
    new Promise<never>((_resolve, reject) => { timer = setTimeout(() => reject(new DeadlineError(what)), left) })
  ]).finally(() => clearTimeout(timer))
}

/** Observation after the wait gets at least this long, even when the wait used all of timeout_ms. */
export const OBSERVE_GRACE_MS = 3_000

export function observationDeadline (deadline: number): number {
  return Math.max(deadline, performance.now() + OBSERVE_GRACE_MS)
}
