// The panel side of the host (docs/spec.md section 7): per tab, one shared screencast and one
// PanelTab while a handoff is held; the UI leases its viewers hold; the files they chose. It hears
// the lifecycle (an ending closes the panel at once), the tab inventory (a closed tab's stream is
// disposed) and sweeps leases its panels stopped renewing. Its sources are injected, so it is tested
// with fakes (test/panel/panel-host.test.ts); src/plugins/panel.ts only wires it to the app.
import type { FastifyBaseLogger, FastifyRequest } from 'fastify'
import type { Page } from 'puppeteer-core'
import { isHeld, isLiveState, summarize } from '../core/handoff.js'
import type { Clock } from '../core/clock.js'
import type { Lifecycle } from '../core/lifecycle.js'
import { HANDOFF_ENDINGS } from '../schemas/lifecycle.js'
import type { DriverHandoffs, HandoffService } from '../handoffs/service.js'
import type { TabRecord } from '../tabs/types.js'
import type { PromptedPermission } from '../vocabulary/profile.js'
import { LeaseBook, leaseCookieName, type Lease } from './lease.js'
import { PanelTab, type PanelTabDeps } from './panel-tab.js'
import { TabStreamer, type StreamerOptions } from './streamer.js'
import { UploadStore } from './uploads.js'

/** JPEG quality of panel frames: 60–70 keeps 60 fps at full size (docs/panel.md "CDP facts" 1). */
export const FRAME_QUALITY = 60

/**
 * A viewer whose panel stopped renewing its UI lease is disconnected within this. (A handoff's
 * own ending — expiry included — arrives as a lifecycle transition, at once.)
 */
export const LEASE_SWEEP_MS = 250

export interface PanelService {
  readonly leases: LeaseBook
  /** Files people chose for file choosers, per handoff (deleted when it ends). */
  readonly uploads: UploadStore
  /** The tab's one shared screencast (created on first use, kept until the tab closes). */
  streamer (tab: TabRecord): TabStreamer
  /** The panel side of a tab with a live handoff, opened on the first connection. */
  open (tab: TabRecord): Promise<PanelTab>
  find (tabId: string): PanelTab | undefined
  /** The lease a request's cookie holds for `tabId`, if it is valid and its handoff is live. */
  leaseFor (req: Pick<FastifyRequest, 'cookies'>, tabId: string): Lease | undefined
}

export interface PanelHostDeps {
  clock: Pick<Clock, 'now'>
  log: FastifyBaseLogger
  handoffs: PanelTabDeps['handoffs'] & Pick<DriverHandoffs, 'popupsOf' | 'onChange'> & Pick<HandoffService, 'setFrameProver'>
  lifecycle: Pick<Lifecycle, 'on' | 'emit'>
  tabs: { onClosed: (fn: (tab: TabRecord) => void) => void }
  /** Relayed input acknowledged by Chromium (the input → page latency of /metrics). */
  inputDelivered: NonNullable<PanelTabDeps['inputDelivered']>
  /** Keeps a permission a person allowed in the profile, for its browser's next start. */
  keepPermission: (profile: string, origin: string, permission: PromptedPermission) => Promise<void>
  /** PanelTab.open unless a test passes a fake. */
  openPanel?: (deps: PanelTabDeps) => Promise<PanelTab>
  /** A TabStreamer unless a test passes a fake. */
  newStreamer?: (page: Page, opts: StreamerOptions) => TabStreamer
}

export class PanelHost implements PanelService {
  readonly leases = new LeaseBook()
  readonly uploads = new UploadStore()
  readonly #d: PanelHostDeps
  readonly #streamers = new Map<string, TabStreamer>()
  /** Panels being opened or open, by tab; `#opened` holds only those that finished opening. */
  readonly #panels = new Map<string, Promise<PanelTab>>()
  readonly #opened = new Map<string, PanelTab>()
  #sweep: NodeJS.Timeout | undefined

  constructor (deps: PanelHostDeps) {
    this.#d = deps
  }

  /** Subscribes to the handoffs, the lifecycle and the tab inventory, and starts the lease sweep. */
  start (): void {
    const { handoffs, lifecycle, tabs } = this.#d
    handoffs.setFrameProver((tab, { keepStreaming, timeoutMs }) => this.streamer(tab).proveFrame(keepStreaming, timeoutMs))
    handoffs.onChange((tabId, summary) => {
      if (isLiveState(summary.state)) this.#opened.get(tabId)?.update(summary)
    })
    // Ending reaches every viewer (docs/spec.md section 7): finish, decline, expiry, revocation, tab close.
    for (const ending of HANDOFF_ENDINGS) lifecycle.on(ending, (t) => { if (t.tab_id) this.#closePanel(t.tab_id) })
    tabs.onClosed((tab) => { this.#tabClosed(tab) })
    // A lease is the panel's to renew, not a transition of the handoff: look for lapsed ones.
    this.#sweep = setInterval(() => { this.#sweepLeases() }, LEASE_SWEEP_MS)
    this.#sweep.unref()
  }

  streamer (tab: TabRecord): TabStreamer {
    let s = this.#streamers.get(tab.id)
    if (!s) {
      const vp = tab.page.viewport()
      s = (this.#d.newStreamer ?? ((page, opts) => new TabStreamer(page, opts)))(tab.page, {
        quality: FRAME_QUALITY,
        log: this.#d.log.child({ tab_id: tab.id }),
        provisional: { maxWidth: vp?.width ?? 1280, maxHeight: vp?.height ?? 720 }
      })
      this.#streamers.set(tab.id, s)
    }
    return s
  }

  open (tab: TabRecord): Promise<PanelTab> {
    let p = this.#panels.get(tab.id)
    if (p) return p
    p = (this.#d.openPanel ?? PanelTab.open)(this.#panelDeps(tab))
    const opening = p
    opening.then((panel) => {
      // The handoff may have ended while the panel was opening.
      if (this.#panels.get(tab.id) === opening && this.#d.handoffs.isHeld(tab.id)) this.#opened.set(tab.id, panel)
      else panel.close()
    }, () => { if (this.#panels.get(tab.id) === opening) this.#panels.delete(tab.id) })
    this.#panels.set(tab.id, p)
    return p
  }

  find (tabId: string): PanelTab | undefined { return this.#opened.get(tabId) }

  leaseFor (req: Pick<FastifyRequest, 'cookies'>, tabId: string): Lease | undefined {
    const now = this.#d.clock.now()
    const h = this.#d.handoffs.current(tabId)
    if (!h || !isHeld(h, now)) return undefined
    const lease = this.leases.find(req.cookies[leaseCookieName(tabId)], tabId, now)
    return lease && lease.fence === h.fence ? lease : undefined
  }

  /** The host is closing: every panel closes, every stream stops, chosen files are deleted. */
  async close (): Promise<void> {
    clearInterval(this.#sweep)
    for (const tabId of [...this.#opened.keys()]) this.#closePanel(tabId)
    await Promise.all([...this.#streamers.values()].map((s) => s.dispose()))
    this.#streamers.clear()
    await this.uploads.dispose()
  }

  #panelDeps (tab: TabRecord): PanelTabDeps {
    const { handoffs, lifecycle, log, clock } = this.#d
    const where = { tab_id: tab.id, profile: tab.profile }
    return {
      tab,
      handoffs,
      streamer: this.streamer(tab),
      streamerFor: (popup) => this.streamer(popup),
      popups: () => handoffs.popupsOf(tab.id),
      now: () => clock.now(),
      log: log.child({ tab_id: tab.id }),
      inputDelivered: this.#d.inputDelivered,
      dialogAnswered: (dialogType) => {
        const h = handoffs.current(tab.id)
        if (h) lifecycle.emit('handoff.dialog_answered', where, { handoff_fence: h.fence, dialog_type: dialogType })
      },
      grantPermission: async (origin, permission) => {
        // In force at once for this browser, and kept in the profile for its next start.
        await tab.page.browserContext().setPermission(origin, { permission: { name: permission }, state: 'granted' })
        const h = handoffs.current(tab.id)
        if (h) lifecycle.emit('handoff.permission_granted', where, { handoff_fence: h.fence, permission, origin })
        await this.#d.keepPermission(tab.profile, origin, permission).catch((err: unknown) => {
          log.warn({ err, profile: tab.profile, permission }, 'a granted permission could not be kept in the profile')
          throw new Error('Allowed until the browser restarts: it could not be kept in the profile.')
        })
      }
    }
  }

  #closePanel (tabId: string): void {
    const panel = this.#opened.get(tabId)
    this.#opened.delete(tabId)
    this.#panels.delete(tabId)
    this.leases.revokeTab(tabId)
    this.uploads.drop(tabId).catch((err: unknown) => this.#d.log.warn({ err, tab_id: tabId }, 'uploaded files could not be deleted'))
    const h = this.#d.handoffs.current(tabId)
    panel?.close(h ? summarize(h, this.#d.clock.now()) : undefined)
  }

  #tabClosed (tab: TabRecord): void {
    this.#closePanel(tab.id)
    // A popup that closed: its opener's panel goes back to the tab that is left.
    for (const panel of this.#opened.values()) {
      panel.syncPopups().catch((err: unknown) => this.#d.log.debug({ err, tab_id: tab.id }, 'popups could not be synced'))
    }
    const s = this.#streamers.get(tab.id)
    this.#streamers.delete(tab.id)
    s?.dispose().catch((err: unknown) => this.#d.log.debug({ err, tab_id: tab.id }, 'a stream could not be disposed'))
  }

  #sweepLeases (): void {
    const now = this.#d.clock.now()
    for (const panel of this.#opened.values()) {
      for (const v of panel.viewers.values()) if (now >= v.lease.expiresAt) v.ws.close(4401, 'lease expired')
    }
  }
}
