// Whether a fetch that found the pool empty should have a window built for it, or wait for a
// window in use to come back reset (docs/decisions.md, "A burst waits for windows coming back").
// Pure: the pool says what is in use, what is being reset and what things have cost lately.
import { fitsSite, type ServedSite } from './window-waiters.js'

/** A window a fetch holds now, and how long it has held it. */
export interface HeldWindow {
  /** The site its fetch asked for: the site it serves once reset. */
  site: ServedSite
  heldMs: number
}

export interface ReturnsNow {
  /** The sites of the fetches waiting for a window, longest waiting first (undefined: any). */
  waiters: ServedSite[]
  /** Windows whose fetches run now and whose sites hand their windows back after a fetch. */
  held: HeldWindow[]
  /** Windows being reset now, by the site they served. */
  resetting: ServedSite[]
  /** Fetches of the browser running now, whatever their windows. */
  running: number
  /** Recent means: a fetch's hold of its window, a reset, a window's opening. Undefined: not seen yet. */
  holdMs: number | undefined
  resetMs: number | undefined
  openMs: number | undefined
}

/**
 * How many of the waiting fetches should get a window built for them now; the others are served
 * sooner, all told, by windows coming back. Building a window occupies Chromium's browser
 * process, where every window's navigation also runs (docs/performance.md): while it is built,
 * each fetch running beside it waits too. So a waiter gets a new window only when its turn at a
 * returning window comes later than the window's opening multiplied by the windows it would
 * slow (its own fetch and every window in use or being reset). Until the pool has seen a hold, a reset and an opening,
 * nothing is expected back and every waiter gets a window, as before.
 */
export function windowsToBuild (now: ReturnsNow): number {
  const { holdMs, resetMs, openMs } = now
  if (holdMs === undefined || resetMs === undefined || openMs === undefined) return now.waiters.length
  const cycle = holdMs + resetMs
  // When each returning window is next free: a fetch past its mean hold is taken to need as long
  // again as it has run so far (a slow page is slow), so a stuck fetch soon stops counting.
  const returns = [
    ...now.held.map((h) => ({ site: h.site, at: (h.heldMs < holdMs ? holdMs - h.heldMs : h.heldMs) + resetMs })),
    ...now.resetting.map((site) => ({ site, at: resetMs }))
  ]
  // Every window in use or being reset works in the browser process while the new one is built.
  // A window held past its usual hold counts only through `running`: a tab kept for a person
  // after its fetch is held by no fetch, and does nothing there.
  const busy = Math.max(now.running, now.held.filter((h) => h.heldMs <= holdMs).length) + now.resetting.length
  const buildCost = openMs * (1 + busy)
  let build = 0
  for (const site of now.waiters) {
    let first: { site: ServedSite, at: number } | undefined
    for (const r of returns) if (fitsSite(r.site, site) && (!first || r.at < first.at)) first = r
    if (!first || first.at > buildCost) {
      build++
      continue
    }
    // That window serves this waiter, then comes back once more.
    first.at += cycle
  }
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
