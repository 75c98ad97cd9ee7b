import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { AfhttpError } from '../errors.js'
import { runLiveChecks, failedCheck, type LiveCheck } from '../browser/live-checks.js'
import { resolveAim } from '../browser/aim.js'
import { hashSecret, newFence, newSecret } from '../core/secrets.js'
import { SecretLedger } from '../core/secret-ledger.js'
import { applyControl, type ControlEvent, type ControlResult } from '../core/control.js'
import {
  addWarning, cookiesSetBetween, handoffState, isHeld, MAX_FINISHED_PER_TAB, newHandoff, summarize,
  type FinishReason, type Handoff, type HandoffMode, type HandoffSummary, type HandoffWarning, type JarCookie
} from '../core/handoff.js'
import type { TabRecord } from './tabs.js'
import type { HandoffMint } from '../schemas/handoff.js'
import { readJar, within } from '../browser/jar-names.js'

/** Final summaries kept for tabs that closed (bounded: oldest forgotten first). */
const MAX_CLOSED_TAB_SUMMARIES = 256

/** Why a panel secret cannot be exchanged; each gets its own wording on the 410 page. */
export type SecretProblem = 'unknown' | 'used' | 'revoked' | 'finished' | 'expired'

/** Proves the screencast delivers a frame, through the tab's shared stream when there is one. */
export type FrameProver = (tab: TabRecord, opts: { keepStreaming: boolean }) => Promise<void>

export interface LiveCheckOptions {
  screencast?: boolean
  /** The caller expects a viewer soon (exchange, panel document): keep the proving stream warm. */
  keepStreaming?: boolean
}

export interface MintOptions {
  region?: string
  readySelector?: string
  challengeSeen?: boolean
  widgetSelector?: string
  /** Plain text for the person, shown in #afhttp-instructions. */
  instructions?: string
  /** `view`: the link only watches (SPEC section 7 "Mint options"). Default `control`. */
  mode?: HandoffMode
}

/** How long an ending waits for the cookie jar before it reports the outcome without it. */
const OUTCOME_JAR_MS = 500

/** The `POST /v1/tabs/:tab_id/handoff` answer; the shape lives in src/schemas/handoff.ts. */
export type MintResult = HandoffMint

export interface HandoffService {
  mint (tabId: string, opts?: MintOptions): Promise<MintResult>
  current (tabId: string): Handoff | undefined
  summary (tabId: string): HandoffSummary
  finish (tabId: string, fence: string, reason: FinishReason): HandoffSummary
  /** Exchanges a panel secret once; the caller runs live checks first. */
  consumeSecret (secret: string): Handoff
  /** Whether a live secret is a control or a view link (before it is consumed). */
  secretMode (secret: string): HandoffMode | undefined
  /** The person said "I can't do this": ends the handoff with human_declined and their note. */
  declineByViewer (tabId: string, viewerId: string, note?: string): HandoffSummary
  /** The host is shutting down: every open handoff ends `revoked`/`shutdown` (its panels hear it). */
  shutdown (): Promise<void>
  /** Resolves once the last ending of `tabId` has its outcome (cookie names read). */
  settled (tabId: string): Promise<void>
  /** Looks a secret up without consuming it (for the 410/503 decision). */
  peekSecret (secret: string): Handoff | undefined
  /** Why `secret` cannot be exchanged now, or undefined when it can. */
  secretProblem (secret: string): SecretProblem | undefined
  control (tabId: string, event: ControlEvent): ControlResult
  isHeld (tabId: string): boolean
  liveChecks (tab: TabRecord, opts?: LiveCheckOptions): Promise<LiveCheck[]>
  onChange (fn: (tabId: string, summary: HandoffSummary) => void): void
  /** How the last handoff of a tab that has since closed ended (bounded memory), if any. */
  closedSummary (tabId: string): (HandoffSummary & { tab_closed: true }) | undefined
  /** The tab whose open handoff covers `tabId` (itself or a popup's opener), if any. */
  heldBy (tabId: string): string | undefined
  /** Open popups of `tabId` (and of its popups), oldest first. */
  popupsOf (tabId: string): TabRecord[]
  /** Emits a change (after completion checks update a record). */
  touched (tabId: string): void
  /** A viewer pressed Done: refused (panel_control_held) while another viewer drives. */
  finishByViewer (tabId: string, viewerId: string): HandoffSummary
  /** Completion detection saw the page get through (SPEC section 7). */
  autoFinish (tabId: string): void
  /** Spends one of the handoff's finite completion checks; false when none is left. */
  takeCheck (tabId: string): boolean
  /** A challenge showed up during the handoff: "challenge gone" now counts as completion. */
  noteChallenge (tabId: string, widgetSelector?: string): void
  /** A main-frame document loaded since the handoff began (or the URL changed). */
  navigatedSince (tabId: string): boolean
  warn (tabId: string, warning: HandoffWarning): void
  setFrameProver (fn: FrameProver): void
}

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
  /** The final summary of handoffs whose tab closed, newest last, bounded. */
  const closedTabs = new Map<string, HandoffSummary & { tab_closed: true }>()
  const secrets = new SecretLedger<Handoff>()
  // The jar when each handoff began, to name the cookies the person's work set.
  const startJars = new WeakMap<Handoff, Promise<JarCookie[]>>()
  const endings = new Map<string, Promise<void>>()
  // The document response when each handoff began: a new one means the page navigated.
  const startResponses = new WeakMap<Handoff, TabRecord['lastResponse'] | undefined>()
  let frameProver: FrameProver | undefined
  const listeners: Array<(tabId: string, s: HandoffSummary) => void> = []

  const emit = (h: Handoff): void => {
    const s = summarize(h, clock.now())
    for (const l of listeners) {
      try { l(h.tabId, s) } catch (err) { app.log.error({ err }, 'handoff listener failed') }
    }
  }

  function revokeSecret (h: Handoff, mode?: HandoffMode): void {
    if (mode !== 'view') {
      secrets.retire(h.secretHash, 'revoked')
      h.secretHash = undefined
    }
    if (mode !== 'control') {
      secrets.retire(h.viewSecretHash, 'revoked')
      h.viewSecretHash = undefined
    }
  }

  /** The live handoff of a tab, or undefined once it finished, expired or was revoked. */
  function held (tabId: string): Handoff | undefined {
    const h = perTab.get(tabId)?.current
    return h && isHeld(h, clock.now()) ? h : undefined
  }

  function end (h: Handoff, state: 'finished' | 'revoked', reason: FinishReason, note?: string): void {
    if (h.ended) return
    const tab = app.tabs.find(h.tabId)
    // Read before the record changes: navigatedSince looks at the current handoff.
    const navigated = tab ? service.navigatedSince(h.tabId) : false
    h.ended = { state, reason, at: clock.now() }
    if (note !== undefined && note !== '') h.humanNote = note
    h.outcome = { final_url: tab && !tab.page.isClosed() ? tab.page.url() : h.startUrl, navigated, cookies_set: [] }
    const res = applyControl(h.control, { type: 'finish' })
    h.control = res.state
    revokeSecret(h)
    const rec = perTab.get(h.tabId)
    if (rec) {
      rec.finishedCount += 1
      rec.lastGeneration = h.control.generation
    }
    app.log.info({ tab_id: h.tabId, state, reason }, 'handoff ended')
    // The hold is already off; the summary (and every panel) hears of the ending once the jar
    // answered, or after OUTCOME_JAR_MS without cookie names.
    if (!tab || tab.page.isClosed() || !tab.page.browser().connected || reason === 'shutdown') {
      // Nothing left to read (or no time to): the ending is told at once, in order with the close.
      endings.delete(h.tabId)
      emit(h)
      return
    }
    const before = startJars.get(h) ?? Promise.resolve([])
    const ending = within(Promise.all([before, readJar(tab)]), OUTCOME_JAR_MS, [[], []] as JarCookie[][])
      .then(([a, b]) => { if (h.outcome) h.outcome.cookies_set = cookiesSetBetween(a ?? [], b ?? []) })
      .finally(() => emit(h))
    endings.set(h.tabId, ending)
  }

  /** The host's tab for the page that opened `tab` (window.open, target=_blank), if it has one. */
  function openerTabId (tab: TabRecord): string | undefined {
    const opener = tab.page.target().opener()
    if (!opener) return undefined
    return app.tabs.list().find((t) => t.page.target() === opener)?.id
  }

  /** The tab whose open handoff holds `tab`: itself, or the opener it was popped up from. */
  function heldBy (tab: TabRecord): string | undefined {
    let at: TabRecord | undefined = tab
    // Popups of popups belong to the same handoff; the chain is short, bound it anyway.
    for (let depth = 0; at && depth < 8; depth++) {
      if (service.isHeld(at.id)) return at.id
      const up = openerTabId(at)
      at = up ? app.tabs.find(up) : undefined
    }
    return undefined
  }

  const service: HandoffService = {
    async mint (tabId, opts = {}) {
      const tab = app.tabs.get(tabId)
      const checks = await service.liveChecks(tab)
      const failed = failedCheck(checks)
      if (failed) throw new AfhttpError('takeover_unavailable', `Live check ${failed.name} failed: ${failed.error}`, { check: failed.name, checks })
      // The checks take a moment: a tab closed meanwhile must not get a record (and a dead URL).
      if (app.tabs.find(tabId) !== tab) throw new AfhttpError('tab_not_found', 'The tab closed while its handoff was being prepared.', { tab_id: tabId })
      const rec = perTab.get(tabId) ?? { finishedCount: 0, lastGeneration: 0 }
      perTab.set(tabId, rec)
      const now = clock.now()
      let h = rec.current
      if (h && !isHeld(h, now)) h = undefined
      if (!h) {
        if (rec.finishedCount >= MAX_FINISHED_PER_TAB) {
          throw new AfhttpError('handoff_capacity', `This tab already has ${MAX_FINISHED_PER_TAB} finished handoffs; close it and fetch again in a new tab.`, { limit: MAX_FINISHED_PER_TAB })
        }
        if (rec.current && !rec.current.ended) rec.finishedCount += 1 // an expired record is kept as finished history
        h = newHandoff({
          fence: newFence(),
          tabId,
          now,
          holdMs: app.config.handoffHoldMs,
          startUrl: tab.page.url(),
          generation: rec.lastGeneration + 1,
          readySelector: opts.readySelector,
          region: opts.region,
          challengeSeen: opts.challengeSeen ?? false,
          widgetSelector: opts.widgetSelector,
          instructions: opts.instructions
        })
        startResponses.set(h, tab.lastResponse)
        const jar = readJar(tab)
        jar.catch(() => undefined)
        startJars.set(h, jar)
        rec.current = h
        app.log.info({ tab_id: tabId, expires_at: new Date(h.expiresAt).toISOString() }, 'handoff opened')
      } else {
        // A second mint while open: same fence and expiry, fresh URL; the unused secret dies.
        if (opts.challengeSeen) h.challengeSeen = true
        if (opts.region) h.region = opts.region
        if (opts.widgetSelector) h.widgetSelector = opts.widgetSelector
        if (opts.instructions !== undefined) h.instructions = opts.instructions
      }
      // Each mode has one usable link: a view mint leaves the control link working, and back.
      const mode = opts.mode ?? 'control'
      revokeSecret(h, mode)
      const secret = newSecret()
      if (mode === 'view') {
        h.viewSecretHash = secrets.add(secret, h)
      } else {
        h.secretHash = secrets.add(secret, h)
        h.secretUsed = false
      }
      tab.retained = true
      const aim = await resolveAim(tab.page, h.region, h.widgetSelector)
      const warnings = aim.missed ? [{ code: 'takeover_selector_missed', message: `The region selector ${JSON.stringify(h.region)} matched nothing; the panel shows ${aim.kind === 'detected' ? 'the challenge widget' : 'the whole page'}.` }] : []
      for (const w of warnings) addWarning(h, w)
      emit(h)
      return {
        takeover_url_secret: `${app.config.publicUrl}/takeover/${secret}`,
        handoff_fence: h.fence,
        expires_at: new Date(h.expiresAt).toISOString(),
        surface: { tab_id: tabId, url: tab.page.url(), aim },
        warnings
      }
    },
    current: (tabId) => perTab.get(tabId)?.current,
    closedSummary: (tabId) => closedTabs.get(tabId),
    summary (tabId) {
      const h = perTab.get(tabId)?.current
      if (!h) throw new AfhttpError('handoff_not_found', 'This tab has no handoff.', { tab_id: tabId })
      return summarize(h, clock.now())
    },
    finish (tabId, fence, reason) {
      const h = perTab.get(tabId)?.current
      if (!h) throw new AfhttpError('handoff_not_found', 'This tab has no handoff.', { tab_id: tabId })
      if (h.fence !== fence) throw new AfhttpError('handoff_fence_stale', 'That fence is not the current handoff of this tab; read GET /v1/tabs/:tab_id/handoff.', { tab_id: tabId })
      const state = handoffState(h, clock.now())
      if (state === 'finished' || state === 'revoked') throw new AfhttpError('handoff_fence_stale', `This handoff is already ${state}; re-fetch or snapshot the tab.`, { tab_id: tabId, state })
      if (state === 'expired') throw new AfhttpError('handoff_expired', `The hold expired at ${new Date(h.expiresAt).toISOString()}; re-fetch or snapshot the tab before acting on it.`, { tab_id: tabId, state })
      end(h, 'finished', reason)
      return summarize(h, clock.now())
    },
    peekSecret: (secret) => secrets.get(secret),
    secretProblem (secret) {
      const h = secrets.get(secret)
      if (!h) return secrets.retiredReason(secret) ?? 'unknown'
      if (h.secretUsed && service.secretMode(secret) === 'control') return 'used'
      const state = handoffState(h, clock.now())
      if (state === 'expired') return 'expired'
      if (state === 'finished' || state === 'revoked') return 'finished'
      return undefined
    },
    consumeSecret (secret) {
      const h = secrets.get(secret)
      const problem = service.secretProblem(secret)
      if (!h || problem) {
        throw new AfhttpError('handoff_secret_invalid', problem && problem !== 'unknown' ? `This panel link is ${problem === 'finished' ? 'for a finished handoff' : problem}.` : undefined, { reason: problem })
      }
      if (service.secretMode(secret) === 'view') {
        secrets.retire(h.viewSecretHash, 'used')
        h.viewSecretHash = undefined
        return h
      }
      h.secretUsed = true
      secrets.retire(h.secretHash, 'used')
      h.secretHash = undefined
      return h
    },
    secretMode (secret) {
      const h = secrets.get(secret)
      if (!h) return undefined
      return h.viewSecretHash !== undefined && h.viewSecretHash === hashSecret(secret) ? 'view' : 'control'
    },
    declineByViewer (tabId, viewerId, note) {
      const h = held(tabId)
      if (!h) throw new AfhttpError('handoff_expired', 'This handoff is no longer open.', { tab_id: tabId })
      const res = applyControl(h.control, { type: 'finish', viewerId })
      if (!res.ok) throw new AfhttpError('panel_control_held', 'Another viewer is driving this tab; only they can decline.', { tab_id: tabId })
      end(h, 'finished', 'human_declined', note)
      return summarize(h, clock.now())
    },
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
      }
      return res
    },
    isHeld: (tabId) => isHeld(perTab.get(tabId)?.current, clock.now()),
    heldBy (tabId) {
      const tab = app.tabs.find(tabId)
      return tab ? heldBy(tab) : undefined
    },
    popupsOf (tabId) {
      const out: TabRecord[] = []
      const ids = new Set([tabId])
      // Listing order is opening order, so an opener is always seen before its popups.
      for (const t of app.tabs.list()) {
        const opener = openerTabId(t)
        if (opener && ids.has(opener)) { out.push(t); ids.add(t.id) }
      }
      return out
    },
    liveChecks: (tab, opts) => runLiveChecks({
      browser: tab.page.browser(),
      page: tab.page,
      screencast: opts?.screencast,
      proveFrame: frameProver && (() => frameProver!(tab, { keepStreaming: opts?.keepStreaming === true }))
    }).then((checks) => { app.metrics?.liveChecks(checks); return checks }),
    onChange (fn) { listeners.push(fn) },
    touched (tabId) {
      const h = perTab.get(tabId)?.current
      if (h) emit(h)
    },
    finishByViewer (tabId, viewerId) {
      const h = held(tabId)
      if (!h) throw new AfhttpError('handoff_expired', 'This handoff is no longer open.', { tab_id: tabId })
      const res = applyControl(h.control, { type: 'finish', viewerId })
      if (!res.ok) throw new AfhttpError('panel_control_held', 'Another viewer is driving this tab; only they can press Done.', { tab_id: tabId })
      end(h, 'finished', 'human_done')
      return summarize(h, clock.now())
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
      if (!h || !tab) return false
      return tab.page.url() !== h.startUrl || tab.lastResponse !== startResponses.get(h)
    },
    warn (tabId, warning) {
      const h = held(tabId)
      if (h && addWarning(h, warning)) emit(h)
    },
    setFrameProver (fn) { frameProver = fn }
  }

  app.decorate('handoffs', service)

  app.tabs.addActGuard((tab) => {
    // A popup of a handed-off tab (a sign-in window) is part of that handoff (SPEC section 7 "Popups").
    const holder = heldBy(tab)
    if (holder) {
      const s = service.summary(holder)
      const of = holder === tab.id ? 'this tab' : `this popup's opener ${holder}`
      throw new AfhttpError('tab_under_human_control', `A person holds ${of} until ${s.expires_at} (state ${s.state}); observe with snapshot or finish the handoff.`, { tab_id: tab.id, ...(holder !== tab.id ? { opener_tab_id: holder } : {}), handoff: s })
    }
  })
  app.tabs.addProtector((tab) => {
    const holder = heldBy(tab)
    return holder === undefined ? undefined : holder === tab.id ? 'open handoff' : `popup of ${holder}, whose handoff is open`
  })
  app.tabs.addDescriber((tab) => {
    const opener = openerTabId(tab)
    const extra = opener ? { opener_tab_id: opener } : {}
    const h = perTab.get(tab.id)?.current
    const holder = heldBy(tab)
    if (!h) return holder && holder !== tab.id ? { ...extra, controller: perTab.get(holder)?.current?.control.controller ?? 'agent' } : extra
    const s = summarize(h, clock.now())
    return { ...extra, controller: isHeld(h, clock.now()) ? s.controller : 'agent', handoff: s }
  })
  app.tabs.onClosed((tab, reason) => {
    const rec = perTab.get(tab.id)
    if (rec?.current) {
      end(rec.current, 'revoked', reason === 'browser_lost' ? 'browser_lost' : 'tab_closed')
      // A driver waiting on this handoff must still learn how it ended when the tab went away
      // without its doing (a crash, a page that closed itself); after its own DELETE it knows.
      const h = rec.current
      const keep = (): void => {
        if (reason !== 'api') closedTabs.set(tab.id, { ...summarize(h, clock.now()), tab_closed: true })
        while (closedTabs.size > MAX_CLOSED_TAB_SUMMARIES) closedTabs.delete(closedTabs.keys().next().value as string)
      }
      keep()
      // The record stays readable (panels closing, the outcome) until its ending settled.
      void service.settled(tab.id).then(() => {
        keep()
        if (perTab.get(tab.id) === rec) perTab.delete(tab.id)
        endings.delete(tab.id)
      })
      return
    }
    perTab.delete(tab.id)
  })
  app.addHook('preClose', () => service.shutdown())
}

export default fp(handoffsPlugin, { name: 'afhttp-handoffs', dependencies: ['afhttp-tabs'] })
