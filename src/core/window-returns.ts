// Whether a fetch that found the pool empty should have a window built for it, or wait for a
// window in use to come back reset (docs/decisions.md, "A burst waits for windows coming back").
// Pure: the pool says what is in use, what is being reset and what things have cost lately.
import { fitsSite, type ServedSite } from './window-waiters.js'

/** A window a fetch holds now: the site it will serve once reset, and how long it has held it. */
export interface HeldWindow {
  site: ServedSite
  heldMs: number
  /** The recent mean hold of a window by a fetch of that site. */
  holdMs: number
}

/** A window being reset now: the site it served, for how long it has been reset so far. */
export interface ResettingWindow {
  site: ServedSite
  elapsedMs: number
  /** The recent mean hold of a window by a fetch of that site, when the pool knows it. */
  holdMs?: number
}

export interface ReturnsNow {
  /** The sites of the fetches waiting for a window, longest waiting first (undefined: any). */
  waiters: ServedSite[]
  /** Windows whose fetches run now and whose sites hand their windows back after a fetch. */
  held: HeldWindow[]
  resetting: ResettingWindow[]
  /** Fetches of the browser running now, whatever their windows. */
  running: number
  /** Recent means: a reset, a window's opening. Undefined: not seen yet. */
  resetMs: number | undefined
  openMs: number | undefined
}

// What is left of something that usually takes `meanMs` and has run `elapsedMs`: past its mean,
// it is taken to need as long again as it has run so far (a slow page is slow), so a stuck fetch
// or reset soon stops counting as coming back.
const remaining = (elapsedMs: number, meanMs: number): number => elapsedMs < meanMs ? meanMs - elapsedMs : elapsedMs

/**
 * Which of the waiting fetches (their places in the queue) should get a window built for them
 * now; the others are served sooner, all told, by windows coming back. Building a window occupies
 * Chromium's browser process, where every window's navigation and reset also runs
 * (docs/performance.md): while it is built, each of them waits too. So a waiter gets a new window
 * only when its turn at a returning window comes later than the window's opening multiplied by
 * the windows it would slow (its own fetch and every window in use or being reset). Until the
 * pool has seen a reset and an opening, nothing is expected back and every waiter gets a window.
 */
export function waitersToBuildFor (now: ReturnsNow): number[] {
  const { resetMs, openMs } = now
  const all = now.waiters.map((_, i) => i)
  if (resetMs === undefined || openMs === undefined) return all
  // When each returning window is next free, and how long it takes to come back once more.
  const returns = [
    ...now.held.map((h) => ({ site: h.site, at: remaining(h.heldMs, h.holdMs) + resetMs, cycle: h.holdMs + resetMs })),
    ...now.resetting.map((r) => ({ site: r.site, at: remaining(r.elapsedMs, resetMs), cycle: r.holdMs === undefined ? Infinity : r.holdMs + resetMs }))
  ]
  // A window held past its usual hold counts only through `running`: a tab kept for a person
  // after its fetch is held by no fetch, and does nothing in the browser.
  const busy = Math.max(now.running, now.held.filter((h) => h.heldMs <= h.holdMs).length) + now.resetting.length
  const buildCost = openMs * (1 + busy)
  const build: number[] = []
  now.waiters.forEach((site, i) => {
    let first: { site: ServedSite, at: number, cycle: number } | undefined
    for (const r of returns) if (fitsSite(r.site, site) && (!first || r.at < first.at)) first = r
    if (!first || first.at > buildCost) {
      build.push(i)
      return
    }
    // That window serves this waiter, then comes back once more.
    first.at += first.cycle
  })
  return build
}

/** A mean that follows the recent past: each new sample weighs a fixed share. */
export class RecentMean {
  #value: number | undefined
  constructor (private readonly weight = 0.3) {}
  get value (): number | undefined { return this.#value }
  add (sample: number): void {
    this.#value = this.#value === undefined ? sample : this.#value + this.weight * (sample - this.#value)
  }
}
