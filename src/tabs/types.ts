// The tab inventory's shapes: what a tab is, how it closes, what the reaper reports, and the
// registry the rest of the host uses (docs/spec.md section 8).
import type { Page } from 'puppeteer-core'
import type { ReapReport, TabView } from '../schemas/index.js'

export interface TabRecord {
  readonly id: string
  readonly profile: string
  readonly page: Page
  readonly openedAt: number
  lastActiveAt: number
  /** Kept open for a person or a later re-fetch instead of being closed after use. */
  retained: boolean
  /** `host`: opened by afhttp; `adopted`: appeared in the browser (popup, CDP client). */
  origin: 'host' | 'adopted'
  /** Agent operations in flight (a fetch); the reaper and other fetches keep off while > 0. */
  busy: number
  /** The main frame's latest document response, whoever navigated (driver or person). */
  lastResponse?: { status: number, url: string, headers: Record<string, string> }
}

export type { TabView } from '../schemas/tabs.js'

export type TabCloseReason = 'api' | 'fetch_cleanup' | 'reaper' | 'page_closed' | 'browser_lost' | 'recycled'

export type { ReapReport } from '../schemas/host.js'

export interface TabRegistry {
  /** A tab in a new window; `forUrl` (the address it loads first) lets the pool pick a window that may serve it. */
  open (profile: string, forUrl?: string): Promise<TabRecord>
  get (id: string): TabRecord
  find (id: string): TabRecord | undefined
  list (): TabRecord[]
  touch (id: string): void
  idleMs (tab: TabRecord): number
  close (id: string, reason: TabCloseReason): Promise<void>
  /**
   * A fetch is done with its own tab: the anchor guard runs now (a failure throws and the
   * page stays open), the tab leaves the inventory at once, and the window is closed once
   * the answer has gone out, so the caller never waits for Chromium to tear it down.
   * A `reusable` window (a plain fetch's own, never shown to a person) may instead be reset and
   * handed to a later fetch once the pool proves it clean (docs/spec.md section 14, see WindowPool).
   */
  release (id: string, reusable?: boolean): Promise<void>
  /** Unused windows waiting in a profile's pool (docs/spec.md section 14); 0 when it runs none. */
  poolAvailable (profile: string): number
  /** Unused windows per profile that runs a pool. */
  poolLevels (): Record<string, number>
  /** Called for every window a tab was opened in: from the pool (hit) or on demand (miss). */
  onPoolTake (fn: (profile: string, hit: boolean) => void): void
  onReaped (fn: (report: ReapReport) => void): void
  reap (): Promise<ReapReport>
  lastReap (): ReapReport | undefined
  /** Returns why a tab may not be reaped (e.g. an open handoff), or undefined. */
  addProtector (fn: (tab: TabRecord) => string | undefined): void
  onClosed (fn: (tab: TabRecord, reason: TabCloseReason) => void): void
  /** Adds fields (controller, handoff) to the inventory view of a tab. */
  addDescriber (fn: (tab: TabRecord) => Partial<TabView>): void
  describe (tab: TabRecord): Promise<TabView>
  /** Throws (tab_under_human_control) when a hold forbids agent page effects on this tab. */
  assertAgentMayAct (tab: TabRecord): void
  /** Marks the tab busy for one agent operation; throws tab_busy if another is running. */
  beginWork (tab: TabRecord): () => void
  addActGuard (fn: (tab: TabRecord) => void): void
}
