// The handoff service (docs/spec.md section 7): every tab's handoff record, its hold's deadline,
// its panel links and how it ends. Its dependencies come in through the constructor as the few
// calls it makes (as WindowPool's do), so it is unit-tested with fakes and no browser; the plugin
// (src/plugins/handoffs.ts) hands it the app's, and src/handoffs/tab-hooks.ts wires it to the tabs.
import { AfhttpError } from '../errors.js'
import { failedCheck, type LiveCheck } from '../browser/live-checks.js'
import { resolveAim } from '../browser/aim.js'
import { newFence } from '../core/secrets.js'
import { applyControl, type ControlEvent, type ControlResult } from '../core/control.js'
import {
  addWarning, handoffState, isHeld, newHandoff, summarize,
  type FinishReason, type Handoff, type HandoffMode, type HandoffSummary, type HandoffWarning
} from '../core/handoff.js'
import { Listeners } from '../core/listeners.js'
import { originOf } from '../core/audit.js'
import type { FrameProver, HandoffService, LiveCheckOptions, MintOptions, MintResult, SecretProblem } from './service.js'
import { PanelLinks } from './panel-links.js'
import { holderOf, popupsOf } from './popup-chain.js'
import { ClosedSummaries, type ClosedSummary } from './closed-summaries.js'
import { OutcomeWatch } from './outcome-watch.js'
import { HandoffEndings } from './endings.js'
import { Holds } from './holds.js'
import { TabLiveChecks } from './tab-checks.js'
import { assertCapacity, countEnding, type TabHandoffs } from './tab-history.js'
import type { HandoffRegistryDeps } from './ports.js'
import type { TabCloseReason, TabRecord } from '../tabs/types.js'

export class HandoffRegistry implements HandoffService {
  readonly #d: HandoffRegistryDeps
  readonly #perTab = new Map<string, TabHandoffs>()
  readonly #closedTabs = new ClosedSummaries()
  readonly #links = new PanelLinks()
  readonly #outcomes = new OutcomeWatch()
  readonly #holds: Holds
  readonly #changed: Listeners<[string, HandoffSummary]>
  readonly #endings: HandoffEndings
  readonly #checks: TabLiveChecks

  constructor (deps: HandoffRegistryDeps) {
    this.#d = deps
    this.#checks = new TabLiveChecks(deps.runLiveChecks, deps.onLiveChecks)
    this.#changed = new Listeners<[string, HandoffSummary]>((err) => deps.log.error({ err }, 'handoff listener failed'))
    this.#holds = new Holds({
      clock: deps.clock,
      lifecycle: deps.lifecycle,
      log: deps.log,
      profileOf: (tabId) => deps.tabs.find(tabId)?.profile
    })
    this.#endings = new HandoffEndings({
      ...deps,
      holds: this.#holds,
      outcomes: this.#outcomes,
      links: this.#links,
      ended: (h) => {
        const rec = this.#perTab.get(h.tabId)
        if (rec) countEnding(rec, h)
      },
      changed: (h) => { this.#emitChange(h) }
    })
  }

  async mint (tabId: string, opts: MintOptions = {}): Promise<MintResult> {
    const { tabs, clock, lifecycle } = this.#d
    const tab = tabs.get(tabId)
    // A full tab is refused before the live checks: no check can change that answer, and a
    // check failing under load would otherwise hide it behind a retryable takeover_unavailable.
    const known = this.#perTab.get(tabId)
    if (known && !this.#held(tabId)) assertCapacity(known)
    const checks = await this.liveChecks(tab)
    const failed = failedCheck(checks)
    if (failed) throw new AfhttpError('takeover_unavailable', `Live check ${failed.name} failed: ${failed.error}`, { check: failed.name, checks })
    // The checks take a moment: a tab closed meanwhile must not get a record (and a dead URL).
    if (tabs.find(tabId) !== tab) throw new AfhttpError('tab_not_found', 'The tab closed while its handoff was being prepared.', { tab_id: tabId })
    const rec = this.#perTab.get(tabId) ?? { finishedCount: 0, lastGeneration: 0 }
    this.#perTab.set(tabId, rec)
    let h = this.#held(tabId)
    if (opts.reissueOf !== undefined && h?.fence !== opts.reissueOf) throw new AfhttpError('handoff_expired', 'This handoff is no longer open.', { tab_id: tabId })
    const fresh = !h
    if (!h) {
      h = this.#open(rec, tab, opts)
    } else {
      // A second mint while open: same fence and expiry, fresh URL; the unused secret dies.
      if (opts.challengeSeen) h.challengeSeen = true
      if (opts.region) h.region = opts.region
      if (opts.widgetSelector) h.widgetSelector = opts.widgetSelector
      if (opts.gateFrame) h.gateFrame = opts.gateFrame
      if (opts.instructions !== undefined) h.instructions = opts.instructions
    }
    // Each mode has one usable link: a view mint leaves the control link working, and back.
    const mode: HandoffMode = opts.mode ?? 'control'
    const secret = this.#links.issue(h, mode)
    tab.retained = true
    const [aim] = await Promise.all([resolveAim(tab.page, h), fresh ? this.#outcomes.began(h) : undefined])
    const warnings = aim.missed ? [{ code: 'takeover_selector_missed', message: `The region selector ${JSON.stringify(h.region)} matched nothing; the panel shows ${aim.kind === 'detected' ? 'the challenge widget' : 'the whole page'}.` }] : []
    for (const w of warnings) addWarning(h, w)
    this.#emitChange(h)
    const result = {
      takeover_url_secret: `${this.#d.settings().publicUrl}/takeover/${secret}`,
      handoff_fence: h.fence,
      expires_at: new Date(h.expiresAt).toISOString(),
      surface: { tab_id: tabId, url: tab.page.url(), aim },
      warnings
    }
    // The URL is the mint's answer; it rides beside the transition (for the event stream and
    // webhook, docs/spec.md section 15), never inside its payload, and reads as spent once it is.
    const panelUrl = { url: result.takeover_url_secret, spent: () => this.#links.problem(secret, clock.now()) }
    const data = {
      handoff_fence: h.fence,
      expires_at: result.expires_at,
      mode,
      ...(opts.instructions !== undefined ? { instructions: opts.instructions } : {}),
      surface: result.surface,
      reason: h.challengeSeen ? 'challenge' as const : 'driver' as const
    }
    lifecycle.emit(fresh ? 'handoff.opened' : 'handoff.url_reissued', { tab_id: tabId, profile: tab.profile }, data, { panelUrl })
    return result
  }

  current (tabId: string): Handoff | undefined { return this.#perTab.get(tabId)?.current }
  closedSummary (tabId: string): ClosedSummary | undefined { return this.#closedTabs.get(tabId) }
  isHeld (tabId: string): boolean { return isHeld(this.#perTab.get(tabId)?.current, this.#d.clock.now()) }

  summary (tabId: string): HandoffSummary {
    const h = this.#perTab.get(tabId)?.current
    if (!h) throw new AfhttpError('handoff_not_found', 'This tab has no handoff.', { tab_id: tabId })
    return summarize(h, this.#d.clock.now())
  }

  finish (tabId: string, fence: string, reason: FinishReason, note?: string): HandoffSummary {
    const { clock } = this.#d
    const h = this.#perTab.get(tabId)?.current
    if (!h) throw new AfhttpError('handoff_not_found', 'This tab has no handoff.', { tab_id: tabId })
    if (h.fence !== fence) throw new AfhttpError('handoff_fence_stale', 'That fence is not the current handoff of this tab; read GET /v1/tabs/:tab_id/handoff.', { tab_id: tabId })
    const state = handoffState(h, clock.now())
    if (state === 'finished' || state === 'revoked') throw new AfhttpError('handoff_fence_stale', `This handoff is already ${state}; re-fetch or snapshot the tab.`, { tab_id: tabId, state })
    if (state === 'expired') throw new AfhttpError('handoff_expired', `The hold expired at ${new Date(h.expiresAt).toISOString()}; re-fetch or snapshot the tab before acting on it.`, { tab_id: tabId, state })
    this.#endings.end(h, 'finished', reason, note)
    return summarize(h, clock.now())
  }

  peekSecret (secret: string): Handoff | undefined { return this.#links.peek(secret) }
  secretProblem (secret: string): SecretProblem | undefined { return this.#links.problem(secret, this.#d.clock.now()) }
  secretMode (secret: string): HandoffMode | undefined { return this.#links.mode(secret) }

  consumeSecret (secret: string, viewer?: { remoteAddress: string, userAgent: string }): Handoff {
    const h = this.#links.peek(secret)
    const problem = this.#links.problem(secret, this.#d.clock.now())
    if (!h || problem) {
      throw new AfhttpError('handoff_secret_invalid', problem && problem !== 'unknown' ? `This panel link is ${problem === 'finished' ? 'for a finished handoff' : problem}.` : undefined, { reason: problem })
    }
    const mode = this.#links.mode(secret) ?? 'control'
    this.#links.consume(secret, h)
    this.#d.lifecycle.emit('handoff.exchanged', this.#holds.where(h), {
      handoff_fence: h.fence,
      mode,
      remote_address: viewer?.remoteAddress ?? '',
      user_agent: (viewer?.userAgent ?? '').slice(0, 256)
    })
    return h
  }

  declineByViewer (tabId: string, viewerId: string, note?: string): HandoffSummary { return this.#endByViewer(tabId, viewerId, 'human_declined', note) }
  finishByViewer (tabId: string, viewerId: string): HandoffSummary { return this.#endByViewer(tabId, viewerId, 'human_done') }
  async settled (tabId: string): Promise<void> { await this.#endings.settled(tabId) }

  /**
   * The summary once its ending is told: an ended handoff whose outcome is still being read (the
   * jar's cookie names, the last look at a filling frame; at most OUTCOME_FRAME_MS) is answered
   * with that outcome, never with one that reads nothing happened (docs/spec.md section 7).
   */
  async settledSummary (tabId: string): Promise<HandoffSummary> {
    await this.settled(tabId)
    return this.summary(tabId)
  }

  async shutdown (): Promise<void> {
    for (const rec of this.#perTab.values()) if (rec.current) this.#endings.end(rec.current, 'revoked', 'shutdown')
    await this.#endings.allSettled()
  }

  control (tabId: string, event: ControlEvent): ControlResult {
    const { clock } = this.#d
    const h = this.#perTab.get(tabId)?.current
    if (!h) throw new AfhttpError('handoff_not_found')
    if (!isHeld(h, clock.now())) return { ok: false, state: h.control, reason: 'finished' }
    const res = applyControl(h.control, event)
    if (res.ok && res.changed) {
      h.control = res.state
      this.#emitChange(h)
      const s = summarize(h, clock.now())
      this.#d.lifecycle.emit('handoff.control', this.#holds.where(h), { handoff_fence: h.fence, controller: s.controller, generation: s.generation, state: s.state, ...('viewerId' in event && event.viewerId !== undefined ? { viewer_id: event.viewerId } : {}) })
    }
    return res
  }

  heldBy (tabId: string): string | undefined {
    const tab = this.#d.tabs.find(tabId)
    return tab ? this.holderOf(tab) : undefined
  }

  /** The tab whose open handoff holds `tab`: itself, or the opener it was popped up from (docs/spec.md section 7 "Popups"). */
  holderOf (tab: TabRecord): string | undefined {
    return holderOf(this.#d.tabs.list(), tab, (id) => this.isHeld(id))
  }

  popupsOf (tabId: string): TabRecord[] { return popupsOf(this.#d.tabs.list(), tabId) }

  async liveChecks (tab: TabRecord, opts?: LiveCheckOptions): Promise<LiveCheck[]> { return await this.#checks.of(tab, opts) }

  onChange (fn: (tabId: string, summary: HandoffSummary) => void): void { this.#changed.add(fn) }

  touched (tabId: string): void {
    // Checks left and will_check_again change only while the handoff is held; an ended one was told once.
    const h = this.#perTab.get(tabId)?.current
    if (h && isHeld(h, this.#d.clock.now())) this.#emitChange(h)
  }

  autoFinish (tabId: string): void {
    const h = this.#held(tabId)
    if (!h) return
    h.autoDone = true
    this.#endings.end(h, 'finished', 'auto_detected')
  }

  takeCheck (tabId: string): boolean {
    const h = this.#held(tabId)
    if (!h || h.checksLeft <= 0) return false
    h.checksLeft -= 1
    return true
  }

  noteChallenge (tabId: string, widgetSelector?: string, gateFrame?: string): void {
    const h = this.#held(tabId)
    if (!h) return
    h.challengeSeen = true
    // Where this look saw it: in the frame that fills the view, or in the top document, which the
    // aim then looks in first and a frame's later move no longer speaks for. A widget seen only
    // in the frame is no aim in the top document.
    if (!gateFrame && h.gateFrame !== undefined) {
      delete h.gateFrame
      delete h.widgetSelector
    }
    if (gateFrame) h.gateFrame = gateFrame
    if (widgetSelector) h.widgetSelector = widgetSelector
  }

  noteFrameMovedOn (tabId: string): void {
    const h = this.#held(tabId)
    if (h) h.frameMovedOn = true
  }

  navigatedSince (tabId: string): boolean {
    const h = this.#perTab.get(tabId)?.current
    const tab = this.#d.tabs.find(tabId)
    return h !== undefined && tab !== undefined && this.#outcomes.navigated(h, tab)
  }

  warn (tabId: string, warning: HandoffWarning): void {
    const h = this.#held(tabId)
    if (h && addWarning(h, warning)) this.#emitChange(h)
  }

  setFrameProver (fn: FrameProver): void { this.#checks.setFrameProver(fn) }

  /**
   * A tab left the inventory: its handoff ends `revoked` (tab_closed, or browser_lost), and a
   * driver waiting on it still learns how it ended when the tab went away without its doing (a
   * crash, a page that closed itself); after its own DELETE (`api`) it knows.
   */
  tabClosed (tab: TabRecord, reason: TabCloseReason): void {
    const rec = this.#perTab.get(tab.id)
    const h = rec?.current
    if (!rec || !h) {
      this.#perTab.delete(tab.id)
      return
    }
    this.#endings.end(h, 'revoked', reason === 'browser_lost' ? 'browser_lost' : 'tab_closed', undefined, reason === 'api')
    const keep = (): void => { if (reason !== 'api') this.#closedTabs.keep(tab.id, summarize(h, this.#d.clock.now())) }
    keep()
    // The record stays readable (panels closing, the outcome) until its ending settled.
    void this.settled(tab.id).then(() => {
      keep()
      if (this.#perTab.get(tab.id) === rec) this.#perTab.delete(tab.id)
      this.#endings.forget(tab.id)
    })
  }

  /** A popup of a held tab joins its handoff (docs/spec.md section 7 "Popups"): audited, and its documents too. */
  joinPopup (popupTabId: string, url: string): void {
    const by = this.heldBy(popupTabId)
    const h = by === undefined ? undefined : this.#held(by)
    const popup = this.#d.tabs.find(popupTabId)
    if (!h || !popup) return
    this.#d.lifecycle.emit('handoff.popup_opened', this.#holds.where(h), { handoff_fence: h.fence, popup_tab_id: popupTabId, origin: originOf(url) })
    this.#holds.watchPage(h, popup.page, popupTabId)
  }

  #emitChange (h: Handoff): void { this.#changed.emit(h.tabId, summarize(h, this.#d.clock.now())) }

  /** The live handoff of a tab, or undefined once it finished, expired or was revoked. */
  #held (tabId: string): Handoff | undefined {
    const h = this.#perTab.get(tabId)?.current
    return h && isHeld(h, this.#d.clock.now()) ? h : undefined
  }

  #open (rec: TabHandoffs, tab: TabRecord, opts: MintOptions): Handoff {
    const { clock, log } = this.#d
    assertCapacity(rec)
    if (rec.current && !rec.current.ended) rec.finishedCount += 1 // an expired record is kept as finished history
    const h = newHandoff({
      fence: newFence(),
      tabId: tab.id,
      now: clock.now(),
      holdMs: this.#d.settings().handoffHoldMs,
      startUrl: tab.page.url(),
      generation: rec.lastGeneration + 1,
      readySelector: opts.readySelector,
      region: opts.region,
      challengeSeen: opts.challengeSeen ?? false,
      widgetSelector: opts.widgetSelector,
      gateFrame: opts.gateFrame,
      instructions: opts.instructions,
      reason: opts.reason
    })
    this.#outcomes.begin(h, tab)
    this.#holds.start(h, tab.profile)
    this.#holds.watchPage(h, tab.page)
    rec.current = h
    log.info({ tab_id: tab.id, expires_at: new Date(h.expiresAt).toISOString() }, 'handoff opened')
    return h
  }

  /** Ends the open handoff because a viewer asked (Done or decline), unless another viewer drives. */
  #endByViewer (tabId: string, viewerId: string, reason: FinishReason, note?: string): HandoffSummary {
    const h = this.#held(tabId)
    if (!h) throw new AfhttpError('handoff_expired', 'This handoff is no longer open.', { tab_id: tabId })
    const res = applyControl(h.control, { type: 'finish', viewerId })
    const what = reason === 'human_declined' ? 'decline' : 'press Done'
    if (!res.ok) throw new AfhttpError('panel_control_held', `Another viewer is driving this tab; only they can ${what}.`, { tab_id: tabId })
    this.#endings.end(h, 'finished', reason, note)
    return summarize(h, this.#d.clock.now())
  }
}
