// What the browser fleet (src/browser/browser-fleet.ts) needs from the rest of the host, each as the
// few calls it makes, so a unit test hands it fakes and no Chromium. The launch itself (Chromium,
// Xvfb, the forwarder, the cookie restore) is one port: src/browser/browser-launch.ts.
import type { Browser } from 'puppeteer-core'
import type { Lifecycle } from '../core/lifecycle.js'
import type { CookieJournal } from './cookie-journal.js'
import type { Egress } from './egress.js'

/**
 * One profile's browser as the fleet keeps it. The launch fills it in as it goes (backend first,
 * then the pid), so `status()` tells a starting browser's pid while its anchor is still awaited.
 */
export interface BrowserEntry {
  browser?: Browser
  owned: boolean
  pid?: number
  backend: 'chromium' | 'cdp'
  starting?: Promise<Browser>
  /** Why the last browser went away or failed to start; cleared by a successful start. */
  error?: string
  version?: string
  /** Settles when the last launched process has exited (a relaunch waits, bounded, for it). */
  exited?: Promise<void>
  /** Set while the host itself closes the browser, so the disconnect is not reported as a crash. */
  closing?: boolean
  /** The durable cookie record of a launched (not attached) browser. */
  journal?: Pick<CookieJournal, 'record' | 'restore'>
  /** The host's forwarder this browser's traffic goes through (docs/spec.md section 21), while it runs. */
  egress?: Egress
}

/** What the fleet and its launch log: starts, losses, refusals, a listener that threw. */
export interface FleetLogger {
  info (obj: object, msg: string): void
  warn (obj: object, msg: string): void
  error (obj: object, msg: string): void
}

export interface BrowserFleetDeps {
  /** What this host's Chromium runs as (docs/spec.md section 13). */
  mode: 'headful' | 'headless'
  log: FleetLogger
  /** Where `browser.started` and `browser.lost` are told (docs/architecture.md, the transitions table). */
  lifecycle: Pick<Lifecycle, 'emit'>
  /**
   * Aborted first when the fleet closes: what is still starting (Xvfb, Chromium) stops, so a slow
   * start cannot hold the host past its grace period nor leave a half-started browser behind.
   */
  shutdown: AbortController
  /**
   * Starts the profile's browser and makes it ready to serve (launchBrowser in
   * src/browser/browser-launch.ts), filling in `entry` as it goes. A launch that fails leaves
   * nothing running and rejects.
   */
  launch: (profile: string, entry: BrowserEntry) => Promise<Browser>
  /** Stops what the host ran beside its browsers (its Xvfb, the watchdog), once they have all closed. */
  stopHostProcesses: () => Promise<void>
}
