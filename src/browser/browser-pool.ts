// What the rest of the host calls `app.browsers`: each profile's browser, started on explicit use
// (docs/spec.md section 22), its status, its cookie record and its forwarder. BrowserFleet
// (src/browser/browser-fleet.ts) implements it; src/plugins/browsers.ts re-exports these names.
import type { Browser } from 'puppeteer-core'
import type { ProfileRunningState } from '../schemas/profiles.js'
import type { RecordOutcome } from './cookie-journal.js'
import type { Egress } from './egress.js'

/** What `GET /v1/profiles/:name` reports as `running`; the shape lives in src/schemas/profiles.ts. */
export type BrowserStatus = ProfileRunningState

export type BrowserListener = (profile: string, browser: Browser) => void

export interface BrowserPool {
  /** The profile's browser, started (or restarted after a crash) on this explicit use. */
  get (profile: string): Promise<Browser>
  /** The running browser, if any; never starts one (health uses this). */
  peek (profile: string): Browser | undefined
  status (profile: string): BrowserStatus
  /** The Chromium version read at start, kept after a crash for /health. */
  chromiumVersion (profile: string): string | undefined
  onStarted (listener: BrowserListener): void
  onLost (listener: (profile: string) => void): void
  /** Records the profile's cookies durably if they changed (docs/spec.md section 13); never throws. */
  recordCookies (profile: string, reason: string): Promise<RecordOutcome>
  /** The forwarder the running browser of a profile goes through, if any (docs/spec.md section 21). */
  egress (profile: string): Egress | undefined
  /** 'headful' or 'headless': what this host's Chromium runs as. */
  readonly mode: 'headful' | 'headless'
  closeAll (): Promise<void>
}
