/** Time source for every expiry and idle decision, so tests can fake the clock (and nothing else). */
export interface Clock {
  now (): number
}

export const systemClock: Clock = { now: () => Date.now() }

/** A clock that moves only when told to. */
export class ManualClock implements Clock {
  constructor (private t = Date.parse('2026-01-01T00:00:00Z')) {}
  now (): number { return this.t }
  advance (ms: number): void { this.t += ms }
}
