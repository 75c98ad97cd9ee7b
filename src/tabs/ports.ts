// What the tab inventory (src/tabs/tab-inventory.ts) needs from the rest of the host, each as the
// few calls it makes, so a unit test hands it fakes and no Chromium.
import type { Browser, Page } from 'puppeteer-core'
import type { Clock } from '../core/clock.js'
import type { Lifecycle } from '../core/lifecycle.js'
import type { BrowserPool } from '../browser/browser-pool.js'
import type { WindowPool, WindowPoolOptions } from '../browser/window-pool.js'

/** What the inventory, its pools and its reaper log. */
export interface TabLogger {
  debug (obj: object, msg: string): void
  info (obj: object, msg: string): void
  warn (obj: object, msg: string): void
  error (obj: object, msg: string): void
}

/** The settings the inventory reads when it needs them (never copied at start). */
export interface TabSettings {
  /** AFHTTP_TAB_IDLE_MS: how long a tab may stay unused before the reaper closes it (docs/spec.md section 8). */
  tabIdleMs: number
  /** AFHTTP_TAB_POOL: unused windows a launched browser keeps ready (docs/spec.md section 14). */
  tabPool: number
}

/** One browser's unused windows, as the inventory uses them (WindowPool, src/browser/window-pool.ts). */
export type PoolOfWindows = Pick<WindowPool, 'browser' | 'available' | 'take' | 'owns' | 'retire' | 'refill' | 'stop'>

/** The page calls that talk to Chromium, so the inventory's rules run on fakes. */
export interface TabPages {
  /** The anchor guard (ensureAnchor, src/browser/window-anchor.ts): throws when the browser would be left without a window. */
  ensureAnchor (browser: Browser): Promise<unknown>
  /** Closes a tab's page and waits until Chromium has (closePage, src/browser/close-page.ts). */
  close (page: Page): Promise<void>
  /** The title the inventory view shows, bounded in time (boundedTitle, src/browser/bounded-title.ts). */
  title (page: Page): Promise<string | null>
  /** Settles once the browser's anchor page is attached (findAnchorPage, src/browser/window-anchor.ts). */
  anchorAttached (browser: Browser): Promise<unknown>
  /** Opens the window pool of one browser. */
  openPool (browser: Browser, options: WindowPoolOptions): PoolOfWindows
}

export interface TabInventoryDeps {
  clock: Clock
  log: TabLogger
  /** Where `tab.opened` and `tab.closed` are told (docs/architecture.md, the transitions table). */
  lifecycle: Pick<Lifecycle, 'emit'>
  /** Each profile's browser: the inventory opens tabs in it and follows its starts and losses. */
  browsers: Pick<BrowserPool, 'get' | 'status' | 'onStarted' | 'onLost' | 'mode'>
  pages: TabPages
  settings: () => TabSettings
}
