// What the handoff registry (src/handoffs/registry.ts) needs from the rest of the host, each as
// the few calls it makes, so a unit test hands it fakes and no browser.
import type { LiveCheck, LiveCheckTarget } from '../browser/live-checks.js'
import type { Clock } from '../core/clock.js'
import type { Lifecycle } from '../core/lifecycle.js'
import type { TabRegistry } from '../tabs/types.js'

/** What the registry logs: an opened, expired or ended hold, and a listener that threw. */
export interface HandoffLogger {
  info (obj: object, msg: string): void
  error (obj: object, msg: string): void
}

/** The settings a mint reads. */
export interface HandoffSettings {
  /** How long a person holds the tab (AFHTTP_HANDOFF_HOLD_MS, docs/spec.md section 7 "Hold"). */
  handoffHoldMs: number
  /** The origin (and path prefix) minted panel URLs start with. */
  publicUrl: string
}

export interface HandoffRegistryDeps {
  clock: Clock
  /** The tab inventory, for what it tells about a tab; the registry never opens or closes one. */
  tabs: Pick<TabRegistry, 'get' | 'find' | 'list'>
  /** Where the handoff transitions are told (docs/architecture.md, the transitions table). */
  lifecycle: Pick<Lifecycle, 'emit'>
  log: HandoffLogger
  /**
   * Read at each mint, not once: with port 0 the public URL is known only once the server
   * listens (withBoundPort in src/config.ts replaces the app's config then).
   */
  settings: () => HandoffSettings
  /** Runs the live checks of docs/spec.md section 9 (runLiveChecks in src/browser/live-checks.ts). */
  runLiveChecks: (target: LiveCheckTarget) => Promise<LiveCheck[]>
  /** Hears every live-check run's results (the metrics). */
  onLiveChecks?: (checks: LiveCheck[]) => void
}
