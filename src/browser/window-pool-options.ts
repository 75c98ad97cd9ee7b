// What a window pool (src/browser/window-pool.ts) is told by its owner, and what it hands a fetch.
import type { Page } from 'puppeteer-core'

/** What a fetch got from the pool: a window opened ahead of time (hit) or just now (miss). */
export interface TakenWindow {
  page: Page
  hit: boolean
}

export interface WindowPoolOptions {
  /** Windows kept open and unused (AFHTTP_TAB_POOL); 0 opens every window on demand. */
  size: number
  /**
   * A background refill failed; the pool tries again by itself after a pause that doubles with
   * each failure in a row (1 s up to 30 s), and at once when the owner next calls refill().
   */
  onError?: (err: unknown) => void
  /** A used window did not close (it stays open; the reaper never sees it, the browser's close does). */
  onCloseError?: (err: unknown) => void
  /**
   * False while fetches of this browser are running: opening a window occupies Chromium's
   * browser process for ~100 ms and a navigation that waits behind it takes two to three
   * times as long, so the pool refills in the quiet moments between fetches.
   */
  quiet?: () => boolean
  /** Fetches of this browser running now (the pool's demand); 0 when not told. */
  running?: () => number
  /** On a display, new windows wait for their geometry before they are handed out (see openWindow). */
  headful?: boolean
  /** The clock the pool's demand memory runs on (the app's, so tests can move it). */
  now?: () => number
  /**
   * A waiting window was navigated by someone else (a CDP passthrough client sees pool windows
   * too): it is theirs now. The owner adopts it as a tab; without an owner it is left open.
   */
  onForeign?: (page: Page) => void
  /** A used window could not be proven clean and is closed instead of reused (why, in a sentence). */
  onNotReused?: (reason: string) => void
}
