import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { AfhttpError } from '../errors.js'
import { runLiveChecks, failedCheck } from '../browser/live-checks.js'
import { resolveAim } from '../browser/aim.js'
import { newFence } from '../core/secrets.js'
import { applyControl } from '../core/control.js'
import {
  addWarning, endedBy, handoffState, heldMs, isHeld, MAX_FINISHED_PER_TAB, newHandoff, summarize,
  type FinishReason, type Handoff, type HandoffMode, type HandoffSummary
} from '../core/handoff.js'
import type { TransitionData } from '../core/lifecycle.js'
import type { FrameProver, HandoffService } from '../handoffs/service.js'
import { PanelLinks } from '../handoffs/panel-links.js'
import { holderOf, openerTabId, popupsOf } from '../handoffs/popup-chain.js'
import { ClosedSummaries } from '../handoffs/closed-summaries.js'
import { OutcomeWatch } from '../handoffs/outcome-watch.js'
import type { TabRecord } from './tabs.js'
import { Listeners } from '../core/listeners.js'
import { originOf } from '../core/audit.js'
import { watchNavigations } from '../handoffs/page-effects.js'

export type { FrameProver, HandoffService, LiveCheckOptions, MintOptions, MintResult, SecretProblem } from '../handoffs/service.js'

declare module 'fastify' {
  interface FastifyInstance {
    handoffs: HandoffService
  }
}

interface TabHandoffs {
  current?: Handoff
  finishedCount: number
  lastGeneration: number
}

async function handoffsPlugin (app: FastifyInstance): Promise<void> {
  const clock = app.clock
  const perTab = new Map<string, TabHandoffs>()
  const closedTabs = new ClosedSummaries()
  const links = new PanelLinks()
  const outcomes = new OutcomeWatch()
  // Endings still reading their outcome; the summary is told once each settles.
  const endings = new Map<string, Promise<void>>()
  let frameProver: FrameProver | undefined
  const changed = new Listeners<[string, HandoffSummary]>((err) => app.log.error({ err }, 'handoff listener failed'))
  const lifecycle = app.lifecycle
  // The service owns each hold's deadline (docs/spec.md section 7 "Hold"): a timer announces the expiry,
  // nobody polls for it. `expired` is set once it was announced; `by` once the ending is known.
  // `profile` outlives the tab (a revoke on close still names it); `stops` end the page watches.
  const clocks = new WeakMap<Handoff, { cancel: () => void, expired: boolean, by?: 'driver' | 'person' | 'host', profile: string, stops: Array<() => void> }>()

  const emit = (h: Handoff): void => { changed.emit(h.tabId, summarize(h, clock.now())) }
  const where = (h: Handoff): { tab_id: string, profile?: string } => ({ tab_id: h.tabId, profile: clocks.get(h)?.profile ?? app.tabs.find(h.tabId)?.profile })

  /** Audits the documents a page of the handoff loads while it is held (the tab, or a popup of it). */
  function watchPage (h: Handoff, page: TabRecord['page'], popupTabId?: string): void {
    clocks.get(h)?.stops.push(watchNavigations(page, (origin) => {
      if (isHeld(h, clock.now())) lifecycle.emit('handoff.navigated', where(h), { handoff_fence: h.fence, origin, ...(popupTabId ? { popup_tab_id: popupTabId } : {}) })
    }))
  }

  /** A ended (or expired) handoff's transition payload: its summary, who ended it and how long it held. */
  function endingData (h: Handoff): TransitionData<'handoff.finished'> {
    const { tab_id: _tab, ...summary } = summarize(h, clock.now())
    return { ...summary, by: clocks.get(h)?.by ?? 'host', held_ms: heldMs(h) }
  }

  function expire (h: Handoff): void {
    const c = clocks.get(h)
    if (!c || c.expired || h.ended) return
    c.expired = true
    app.log.info({ tab_id: h.tabId }, 'handoff hold expired')
    lifecycle.emit('handoff.expired', where(h), endingData(h))
  }

  /** The live handoff of a tab, or undefined once it finished, expired or was revoked. */
  function held (tabId: string): Handoff | undefined {
    const h = perTab.get(tabId)?.current
    return h && isHeld(h, clock.now()) ? h : undefined
  }

  /** The open handoff a viewer acts on, or the coded reason it cannot. */
  function heldForViewer (tabId: string): Handoff {
    const h = held(tabId)
    if (!h) throw new AfhttpError('handoff_expired', 'This handoff is no longer open.', { tab_id: tabId })
    return h
  }

  function end (h: Handoff, state: 'finished' | 'revoked', reason: FinishReason, note?: string, byDriver = false): void {
    if (h.ended) return
    const c = clocks.get(h)
    // An expiry whose timer has not run yet is announced first: the hold ended before the handoff did.
    if (c && clock.now() >= h.expiresAt) expire(h)
    c?.cancel()
    if (c) {
      c.by = endedBy(reason, byDriver)
      for (const stop of c.stops.splice(0)) stop()
    }
    const tab = app.tabs.find(h.tabId)
    // Read before the record changes: the outcome compares with how the handoff began.
    const navigated = tab ? outcomes.navigated(h, tab) : false
    h.ended = { state, reason, at: clock.now() }
    if (note !== undefined && note !== '') h.humanNote = note
    h.outcome = { final_url: tab && !tab.page.isClosed() ? tab.page.url() : h.startUrl, navigated, cookies_set: [] }
    h.control = applyControl(h.control, { type: 'finish' }).state
    links.revoke(h)
    const rec = perTab.get(h.tabId)
    if (rec) {
      rec.finishedCount += 1
      rec.lastGeneration = h.control.generation
    }
    app.log.info({ tab_id: h.tabId, state, reason }, 'handoff ended')
    // The hold is already off; the summary (and every panel) hears of the ending once the jar
    // answered, or after OUTCOME_JAR_MS without cookie names.
    const told = (): void => {
      emit(h)
      lifecycle.emit(state === 'finished' ? 'handoff.finished' : 'handoff.revoked', where(h), endingData(h))
    }
    if (!tab || tab.page.isClosed() || !tab.page.browser().connected || reason === 'shutdown') {
      // Nothing left to read (or no time to): the ending is told at once, in order with the close.
      endings.delete(h.tabId)
      told()
      return
    }
    endings.set(h.tabId, outcomes.cookiesSet(h, tab).finally(told))
  }

  /** Ends the open handoff because a viewer asked (Done or decline), unless another viewer drives. */
  function endByViewer (tabId: string, viewerId: string, reason: FinishReason, note?: string): HandoffSummary {
    const h = heldForViewer(tabId)
    const res = applyControl(h.control, { type: 'finish', viewerId })
    const what = reason === 'human_declined' ? 'decline' : 'press Done'
    if (!res.ok) throw new AfhttpError('panel_control_held', `Another viewer is driving this tab; only they can ${what}.`, { tab_id: tabId })
    end(h, 'finished', reason, note)
    return summarize(h, clock.now())
  }

  /** A tab that has used up its handoffs gets no new one (a second mint of an open one is fine). */
  function assertCapacity (rec: TabHandoffs): void {
    if (rec.finishedCount >= MAX_FINISHED_PER_TAB) {
      throw new AfhttpError('handoff_capacity', `This tab already has ${MAX_FINISHED_PER_TAB} finished handoffs; close it and fetch again in a new tab.`, { limit: MAX_FINISHED_PER_TAB })
    }
  }

  function openHandoff (rec: TabHandoffs, tab: TabRecord, opts: Parameters<HandoffService['mint']>[1] = {}): Handoff {
    assertCapacity(rec)
    if (rec.current && !rec.current.ended) rec.finishedCount += 1 // an expired record is kept as finished history
    const h = newHandoff({
      fence: newFence(),
      tabId: tab.id,
      now: clock.now(),
      holdMs: app.config.handoffHoldMs,
      startUrl: tab.page.url(),
      generation: rec.lastGeneration + 1,
      readySelector: opts.readySelector,
      region: opts.region,
      challengeSeen: opts.challengeSeen ?? false,
      widgetSelector: opts.widgetSelector,
      instructions: opts.instructions,
      reason: opts.reason
    })
    outcomes.begin(h, tab)
    clocks.set(h, { cancel: clock.at(h.expiresAt, () => expire(h)), expired: false, profile: tab.profile, stops: [] })
    watchPage(h, tab.page)
    rec.current = h
    app.log.info({ tab_id: tab.id, expires_at: new Date(h.expiresAt).toISOString() }, 'handoff opened')
    return h
  }

  const holder = (tab: TabRecord): string | undefined => holderOf(app.tabs.list(), tab, (id) => service.isHeld(id))

  const service: HandoffService = {
    async mint (tabId, opts = {}) {
      const tab = app.tabs.get(tabId)
      // A full tab is refused before the live checks: no check can change that answer, and a
      // check failing under load would otherwise hide it behind a retryable takeover_unavailable.
      const known = perTab.get(tabId)
      if (known && !held(tabId)) assertCapacity(known)
      const checks = await service.liveChecks(tab)
      const failed = failedCheck(checks)
      if (failed) throw new AfhttpError('takeover_unavailable', `Live check ${failed.name} failed: ${failed.error}`, { check: failed.name, checks })
      // The checks take a moment: a tab closed meanwhile must not get a record (and a dead URL).
      if (app.tabs.find(tabId) !== tab) throw new AfhttpError('tab_not_found', 'The tab closed while its handoff was being prepared.', { tab_id: tabId })
      const rec = perTab.get(tabId) ?? { finishedCount: 0, lastGeneration: 0 }
      perTab.set(tabId, rec)
      let h = held(tabId)
      if (opts.reissueOf !== undefined && h?.fence !== opts.reissueOf) throw new AfhttpError('handoff_expired', 'This handoff is no longer open.', { tab_id: tabId })
      const fresh = !h
      if (!h) {
        h = openHandoff(rec, tab, opts)
      } else {
        // A second mint while open: same fence and expiry, fresh URL; the unused secret dies.
        if (opts.challengeSeen) h.challengeSeen = true
        if (opts.region) h.region = opts.region
        if (opts.widgetSelector) h.widgetSelector = opts.widgetSelector
        if (opts.instructions !== undefined) h.instructions = opts.instructions
      }
      // Each mode has one usable link: a view mint leaves the control link working, and back.
      const mode: HandoffMode = opts.mode ?? 'control'
      const secret = links.issue(h, mode)
      tab.retained = true
      const aim = await resolveAim(tab.page, h.region, h.widgetSelector)
      const warnings = aim.missed ? [{ code: 'takeover_selector_missed', message: `The region selector ${JSON.stringify(h.region)} matched nothing; the panel shows ${aim.kind === 'detected' ? 'the challenge widget' : 'the whole page'}.` }] : []
      for (const w of warnings) addWarning(h, w)
      emit(h)
      const result = {
        takeover_url_secret: `${app.config.publicUrl}/takeover/${secret}`,
        handoff_fence: h.fence,
        expires_at: new Date(h.expiresAt).toISOString(),
        surface: { tab_id: tabId, url: tab.page.url(), aim },
        warnings
      }
      // The URL is the mint's answer; it rides beside the transition (for the event stream and
      // webhook, docs/spec.md section 15), never inside its payload, and reads as spent once it is.
      const panelUrl = { url: result.takeover_url_secret, spent: () => links.problem(secret, clock.now()) }
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
    },
    current: (tabId) => perTab.get(tabId)?.current,
    closedSummary: (tabId) => closedTabs.get(tabId),
    summary (tabId) {
      const h = perTab.get(tabId)?.current
      if (!h) throw new AfhttpError('handoff_not_found', 'This tab has no handoff.', { tab_id: tabId })
      return summarize(h, clock.now())
    },
    finish (tabId, fence, reason, note) {
      const h = perTab.get(tabId)?.current
      if (!h) throw new AfhttpError('handoff_not_found', 'This tab has no handoff.', { tab_id: tabId })
      if (h.fence !== fence) throw new AfhttpError('handoff_fence_stale', 'That fence is not the current handoff of this tab; read GET /v1/tabs/:tab_id/handoff.', { tab_id: tabId })
      const state = handoffState(h, clock.now())
      if (state === 'finished' || state === 'revoked') throw new AfhttpError('handoff_fence_stale', `This handoff is already ${state}; re-fetch or snapshot the tab.`, { tab_id: tabId, state })
      if (state === 'expired') throw new AfhttpError('handoff_expired', `The hold expired at ${new Date(h.expiresAt).toISOString()}; re-fetch or snapshot the tab before acting on it.`, { tab_id: tabId, state })
      end(h, 'finished', reason, note)
      return summarize(h, clock.now())
    },
    peekSecret: (secret) => links.peek(secret),
    secretProblem: (secret) => links.problem(secret, clock.now()),
    consumeSecret (secret, viewer) {
      const h = links.peek(secret)
      const problem = links.problem(secret, clock.now())
      if (!h || problem) {
        throw new AfhttpError('handoff_secret_invalid', problem && problem !== 'unknown' ? `This panel link is ${problem === 'finished' ? 'for a finished handoff' : problem}.` : undefined, { reason: problem })
      }
      const mode = links.mode(secret) ?? 'control'
      links.consume(secret, h)
      lifecycle.emit('handoff.exchanged', where(h), {
        handoff_fence: h.fence,
        mode,
        remote_address: viewer?.remoteAddress ?? '',
        user_agent: (viewer?.userAgent ?? '').slice(0, 256)
      })
      return h
    },
    secretMode: (secret) => links.mode(secret),
    declineByViewer: (tabId, viewerId, note) => endByViewer(tabId, viewerId, 'human_declined', note),
    finishByViewer: (tabId, viewerId) => endByViewer(tabId, viewerId, 'human_done'),
    settled: async (tabId) => { await endings.get(tabId) },
    async shutdown () {
      for (const rec of perTab.values()) if (rec.current) end(rec.current, 'revoked', 'shutdown')
      await Promise.all([...endings.values()])
    },
    control (tabId, event) {
      const h = perTab.get(tabId)?.current
      if (!h) throw new AfhttpError('handoff_not_found')
      if (!isHeld(h, clock.now())) return { ok: false, state: h.control, reason: 'finished' }
      const res = applyControl(h.control, event)
      if (res.ok && res.changed) {
        h.control = res.state
        emit(h)
        const s = summarize(h, clock.now())
        lifecycle.emit('handoff.control', where(h), { handoff_fence: h.fence, controller: s.controller, generation: s.generation, state: s.state, ...('viewerId' in event && event.viewerId !== undefined ? { viewer_id: event.viewerId } : {}) })
      }
      return res
    },
    isHeld: (tabId) => isHeld(perTab.get(tabId)?.current, clock.now()),
    heldBy (tabId) {
      const tab = app.tabs.find(tabId)
      return tab ? holder(tab) : undefined
    },
    popupsOf: (tabId) => popupsOf(app.tabs.list(), tabId),
    liveChecks: (tab, opts) => runLiveChecks({
      browser: tab.page.browser(),
      page: tab.page,
      screencast: opts?.screencast,
      proveFrame: frameProver && ((timeoutMs) => frameProver!(tab, { keepStreaming: opts?.keepStreaming === true, timeoutMs }))
    }).then((checks) => { app.metrics?.liveChecks(checks); return checks }),
    onChange (fn) { changed.add(fn) },
    touched (tabId) {
      // Checks left and will_check_again change only while the handoff is held; an ended one was told once.
      const h = perTab.get(tabId)?.current
      if (h && isHeld(h, clock.now())) emit(h)
    },
    autoFinish (tabId) {
      const h = held(tabId)
      if (!h) return
      h.autoDone = true
      end(h, 'finished', 'auto_detected')
    },
    takeCheck (tabId) {
      const h = held(tabId)
      if (!h || h.checksLeft <= 0) return false
      h.checksLeft -= 1
      return true
    },
    noteChallenge (tabId, widgetSelector) {
      const h = held(tabId)
      if (!h) return
      h.challengeSeen = true
      if (widgetSelector) h.widgetSelector = widgetSelector
    },
    navigatedSince (tabId) {
      const h = perTab.get(tabId)?.current
      const tab = app.tabs.find(tabId)
      return h !== undefined && tab !== undefined && outcomes.navigated(h, tab)
    },
    warn (tabId, warning) {
      const h = held(tabId)
      if (h && addWarning(h, warning)) emit(h)
    },
    setFrameProver (fn) { frameProver = fn }
  }

  app.decorate('handoffs', service)

  app.tabs.addActGuard((tab) => {
    // A popup of a handed-off tab (a sign-in window) is part of that handoff (docs/spec.md section 7 "Popups").
    const by = holder(tab)
    if (by) {
      const s = service.summary(by)
      const of = by === tab.id ? 'this tab' : `this popup's opener ${by}`
      throw new AfhttpError('tab_under_human_control', `A person holds ${of} until ${s.expires_at} (state ${s.state}); observe with snapshot or finish the handoff.`, { tab_id: tab.id, ...(by !== tab.id ? { opener_tab_id: by } : {}), handoff: s })
    }
  })
  app.tabs.addProtector((tab) => {
    const by = holder(tab)
    return by === undefined ? undefined : by === tab.id ? 'open handoff' : `popup of ${by}, whose handoff is open`
  })
  app.tabs.addDescriber((tab) => {
    const opener = openerTabId(app.tabs.list(), tab)
    const extra = opener ? { opener_tab_id: opener } : {}
    const h = perTab.get(tab.id)?.current
    const by = holder(tab)
    if (!h) return by && by !== tab.id ? { ...extra, controller: perTab.get(by)?.current?.control.controller ?? 'agent' } : extra
    const s = summarize(h, clock.now())
    return { ...extra, controller: isHeld(h, clock.now()) ? s.controller : 'agent', handoff: s }
  })
  app.tabs.onClosed((tab, reason) => {
    const rec = perTab.get(tab.id)
    const h = rec?.current
    if (!rec || !h) {
      perTab.delete(tab.id)
      return
    }
    end(h, 'revoked', reason === 'browser_lost' ? 'browser_lost' : 'tab_closed', undefined, reason === 'api')
    // A driver waiting on this handoff must still learn how it ended when the tab went away
    // without its doing (a crash, a page that closed itself); after its own DELETE it knows.
    const keep = (): void => { if (reason !== 'api') closedTabs.keep(tab.id, summarize(h, clock.now())) }
    keep()
    // The record stays readable (panels closing, the outcome) until its ending settled.
    void service.settled(tab.id).then(() => {
      keep()
      if (perTab.get(tab.id) === rec) perTab.delete(tab.id)
      endings.delete(tab.id)
    })
  })
  // A popup of a held tab joins its handoff (docs/spec.md section 7 "Popups"): audited, and its documents too.
  lifecycle.on('tab.opened', (t) => {
    if (!t.data.opener_tab_id || !t.tab_id) return
    const by = service.heldBy(t.tab_id)
    const h = by === undefined ? undefined : held(by)
    const popup = app.tabs.find(t.tab_id)
    if (!h || !popup) return
    lifecycle.emit('handoff.popup_opened', where(h), { handoff_fence: h.fence, popup_tab_id: t.tab_id, origin: originOf(t.data.url) })
    watchPage(h, popup.page, t.tab_id)
  })
  app.addHook('preClose', () => service.shutdown())
}

export default fp(handoffsPlugin, { name: 'afhttp-handoffs', dependencies: ['afhttp-tabs', 'afhttp-lifecycle'] })
