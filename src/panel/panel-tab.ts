// Everything one handed-off tab's panel needs while people watch it: its viewers, the
// control events they send, the input relay, the focus indicator, the aim and completion
// detection. Created on the first panel connection of a handoff, gone when it ends.
import type { FastifyBaseLogger } from 'fastify'
import type { CDPSession } from 'puppeteer-core'
import type WebSocket from 'ws'
import { acceptsInput, type ControlResult } from '../core/control.js'
import { clampAim, screencastSizeFor } from '../core/coords.js'
import { isHeld, isLiveState, type HandoffSummary } from '../core/handoff.js'
import type { CompletionHandoffs, ViewerHandoffs } from '../handoffs/service.js'
import type { TabRecord } from '../tabs/types.js'
import { AimTracker } from './aim-tracker.js'
import { CompletionMonitor } from './completion.js'
import { FocusWatch } from './focus-watch.js'
import { FrameSink } from './frame-sink.js'
import { InputRelay, type RelayHooks } from './input-relay.js'
import type { Lease } from './lease.js'
import { isInput, isUiAnswer, parsePanelMessage, type HostMessage, type PageUiMessage, type PanelMessage, type StateMessage, type TabsMessage } from './messages.js'
import type { TabStreamer } from './streamer.js'
import type { PromptedPermission } from '../vocabulary/profile.js'
import type { PageUiRelay } from './page-ui-relay.js'
import { earlyDialogsOf, pageUiRelayFor } from './page-ui-wiring.js'
import { tabsMessage } from './popups.js'
import { PopupFollower } from './popup-follower.js'
import { answeredByViewer, newViewerId, sendTo, staleInputMessage, stateMessage, type Viewer } from './viewer.js'
import { openPageSession } from '../browser/page-session.js'

export interface PanelTabDeps {
  tab: TabRecord
  /** The panel drives viewers' control and endings; its completion monitor reports through the same service. */
  handoffs: ViewerHandoffs & CompletionHandoffs
  streamer: TabStreamer
  /** The shared screencast of another tab (a popup shown in this panel). */
  streamerFor: (tab: TabRecord) => TabStreamer
  /** Open popups of the handed-off tab, oldest first (docs/spec.md section 7 "Popups"). */
  popups: () => TabRecord[]
  now: () => number
  log: FastifyBaseLogger
  /** Relayed input acknowledged by Chromium (the input → page latency of /metrics). */
  inputDelivered?: RelayHooks['inputDelivered']
  /** A person answered a JavaScript dialog of this handoff (for the audit trail, docs/spec.md section 19). */
  dialogAnswered?: (dialogType: string) => void
  /** A person allowed `origin` a permission (applied to the browser, kept in the profile, put on the trail). */
  grantPermission?: (origin: string, permission: PromptedPermission) => Promise<void>
}

const FOCUS_POLL_MS = 700
/** How long the first aim may take before the first viewer is let in without it. */
const FIRST_AIM_MS = 500

const AIM_MARGIN = 16

export class PanelTab {
  readonly viewers = new Map<string, Viewer>()
  readonly #deps: PanelTabDeps
  readonly #session: CDPSession
  readonly #relay: InputRelay
  readonly #completion: CompletionMonitor
  readonly #aim: AimTracker
  readonly #ui: PageUiRelay
  readonly #focus: FocusWatch
  #poll: NodeJS.Timeout | undefined
  #closed = false
  /** The tab every viewer of this handoff sees now: the handed-off tab or one of its popups. */
  #shown: string
  readonly #popups: PopupFollower
  #tabsKey = ''

  static async open (deps: PanelTabDeps): Promise<PanelTab> {
    const session = await openPageSession(deps.tab.page)
    // The page believes its window is focused, as it would for a person at the keyboard.
    // Not awaited: a page blocked by a dialog answers it only after the person answers that.
    session.send('Emulation.setFocusEmulationEnabled', { enabled: true }).catch(() => undefined)
    const panel = new PanelTab(deps, session)
    // The first viewer's first picture is drawn at the aim it keeps (docs/spec.md section 17: nothing
    // moves after the first frame), so the aim is measured before anyone joins — within a bound:
    // a page too busy to answer gets the whole viewport first, as before.
    let bound: NodeJS.Timeout | undefined
    await Promise.race([panel.#aim.measure().catch(() => undefined), new Promise((resolve) => { bound = setTimeout(resolve, FIRST_AIM_MS) })])
    clearTimeout(bound)
    return panel
  }

  private constructor (deps: PanelTabDeps, session: CDPSession) {
    this.#deps = deps
    this.#session = session
    this.#shown = deps.tab.id
    this.#popups = new PopupFollower({
      popups: deps.popups,
      streamerFor: deps.streamerFor,
      popupDeps: (tab) => ({
        hooks: { completionMoment: () => this.#completion.moment(), inputSent: () => this.#focus.afterInput(), inputDelivered: deps.inputDelivered },
        broadcast: (msg) => this.#broadcastUi(tab.id, msg),
        log: deps.log,
        now: deps.now,
        grant: (origin, permission) => this.#grant(origin, permission)
      }),
      opened: (popup) => this.#show(popup.tab.id),
      closed: (popup) => {
        if (this.#shown === popup.tab.id) this.#show(deps.tab.id)
        // A sign-in popup that closed is when the opener moves on: look at it, as after a click.
        this.#completion.moment()
      },
      synced: () => this.#announceTabs(),
      disposed: () => this.#closed
    })
    this.#relay = new InputRelay(session, {
      completionMoment: () => this.#completion.moment(),
      inputSent: () => this.#focus.afterInput(),
      inputDelivered: deps.inputDelivered
    }, deps.log)
    this.#focus = new FocusWatch({
      shown: () => {
        const popup = this.#popups.get(this.#shown)
        return { session: popup?.session ?? this.#session, url: (popup?.tab ?? deps.tab).page.url() }
      },
      broadcast: (focus, url) => { for (const v of this.viewers.values()) this.#send(v, { t: 'focus', ...focus, url }) },
      closed: () => this.#closed
    })
    // A popup that asks something as it loads shows it here until it is adopted (src/page-ui/early-dialogs.ts).
    const early = earlyDialogsOf(deps.tab.page, (window) => [...this.#popups.values()].some((p) => p.tab.page.target() === window))
    this.#ui = pageUiRelayFor(deps.tab.page, session, this.#relay, (msg) => this.#broadcastUi(deps.tab.id, msg), deps.log, deps.now, {
      early,
      grant: (origin, permission) => this.#grant(origin, permission)
    })
    this.#completion = new CompletionMonitor({ tab: deps.tab, handoffs: deps.handoffs, now: deps.now, log: deps.log })
    this.#aim = new AimTracker(deps.tab.page, () => deps.handoffs.current(deps.tab.id), (aim, resolved) => {
      deps.streamer.setAim(aim)
      if (resolved.missed) {
        deps.handoffs.warn(deps.tab.id, { code: 'takeover_selector_missed', message: 'The region selector matched nothing in the panel; the person saw the challenge widget or the whole page.' })
      }
      for (const v of this.viewers.values()) this.#want(v)
    })
  }

  get closed (): boolean { return this.#closed }

  /** The page every viewer sees now (the handed-off tab or one of its popups). */
  get shownPage (): TabRecord['page'] { return (this.#popups.get(this.#shown)?.tab ?? this.#deps.tab).page }

  /** The viewer driving the tab, if it connected under `lease` (its person's other requests speak for it). */
  holderUnder (lease: Lease): string | undefined {
    const h = this.#deps.handoffs.current(this.#deps.tab.id)
    const holder = h?.control.controller === 'human' ? this.viewers.get(h.control.holder ?? '') : undefined
    return holder?.lease === lease ? holder.id : undefined
  }

  join (ws: WebSocket, lease: Lease, id = newViewerId()): Viewer {
    const viewer: Viewer = { id, ws, sink: new FrameSink(ws), lease, stale: 0 }
    this.viewers.set(viewer.id, viewer)
    // The first panel of a lease takes control of an untouched tab; a reconnecting one
    // (after human_disconnected) shows "Take control" instead (docs/spec.md section 7).
    const first = lease.connections++ === 0
    const h = this.#deps.handoffs.current(this.#deps.tab.id)
    if (first && lease.mode !== 'view' && h?.control.controller === 'agent') this.#control(viewer, { type: 'take', viewerId: viewer.id }, 'take')
    this.#send(viewer, this.#stateFor(viewer))
    this.#send(viewer, { t: 'focus', ...this.#focus.current, url: this.#deps.tab.page.url() })
    for (const msg of this.#uiOf(this.#shown).state()) this.#send(viewer, msg)
    this.#send(viewer, this.#tabsMessage())
    // Frames after what lays the panel out (state: instructions, control; the tab strip), so its
    // first picture is drawn where it stays and a press on it can go at once (docs/spec.md section 17).
    this.#streamerOf(this.#shown).add(viewer.sink)
    if (this.viewers.size === 1) this.#watch()
    return viewer
  }

  leave (viewer: Viewer): void {
    if (!this.viewers.delete(viewer.id)) return
    this.#streamerOf(this.#shown).remove(viewer.sink)
    if (!this.#closed) this.#control(viewer, { type: 'disconnect', viewerId: viewer.id })
    if (this.viewers.size === 0) this.#unwatch()
  }

  receive (viewer: Viewer, raw: string): void {
    const parsed = parsePanelMessage(raw)
    if (!parsed.ok) {
      this.#send(viewer, { t: 'error', message: parsed.error })
      return
    }
    const msg: PanelMessage = parsed.msg
    const tabId = this.#deps.tab.id
    if (answeredByViewer(viewer, msg)) return
    if (isInput(msg) || isUiAnswer(msg)) {
      const h = this.#deps.handoffs.current(tabId)
      if (!h || !isHeld(h, this.#deps.now()) || !acceptsInput(h.control, viewer.id, msg.g)) {
        // Stale or not the holder: dropped (docs/spec.md section 7), and the person told why (SPEC
        // section 17: no silent drop), once per burst, with the state that explains it.
        if (viewer.stale++ % 50 === 0) {
          this.#send(viewer, { t: 'refused', action: 'input', reason: 'stale', message: staleInputMessage(h, viewer.id, this.#deps.now()) })
          this.#send(viewer, this.#stateFor(viewer))
        }
        return
      }
      if (isUiAnswer(msg)) {
        // An answered dialog or a choice can be what gets the page through: check, as after a click.
        const ui = this.#uiOf(this.#shown)
        const dialogType = msg.t === 'dialog' ? ui.dialogType : undefined
        ui.answer(msg).then(() => {
          if (dialogType !== undefined) this.#deps.dialogAnswered?.(dialogType)
          if (msg.t !== 'chooser') this.#completion.moment()
        }, (err: unknown) => this.#send(viewer, { t: 'refused', action: msg.t, message: (err as Error).message }))
        return
      }
      const popup = this.#popups.get(this.#shown)
      if (popup) {
        // The person works the popup the page opened, its dialogs and lists drawn as the opener's are.
        if (this.#refuseWhileDialog(viewer, popup.ui)) return
        popup.relay.relay(msg)
        popup.ui.noticeInput(msg)
        this.#deps.tab.lastActiveAt = this.#deps.now()
        return
      }
      if (this.#refuseWhileDialog(viewer, this.#ui)) return
      this.#relay.relay(msg)
      this.#ui.noticeInput(msg)
      // A person at work keeps the tab fresh for the reaper once the hold is over.
      this.#deps.tab.lastActiveAt = this.#deps.now()
      return
    }
    switch (msg.t) {
      case 'size':
        viewer.size = { width: msg.width, height: msg.height, dpr: msg.dpr, whole: msg.whole }
        this.#want(viewer)
        return
      case 'detail':
        this.#streamerOf(this.#shown).detail(viewer.sink, msg.rect, msg.scale)
        return
      case 'show': {
        // One picture for all viewers: the person driving (or anyone, while nobody drives) picks it.
        const h = this.#deps.handoffs.current(tabId)
        if (h?.control.controller === 'human' && h.control.holder !== viewer.id) {
          this.#send(viewer, { t: 'refused', action: 'show', reason: 'held_by_other' })
          return
        }
        if (msg.tab_id !== tabId && !this.#popups.has(msg.tab_id)) {
          this.#send(viewer, { t: 'refused', action: 'show', message: 'That tab is not part of this handoff.' })
          return
        }
        this.#show(msg.tab_id)
        return
      }
      case 'take':
      case 'release':
        this.#control(viewer, { type: msg.t, viewerId: viewer.id }, msg.t)
        return
      case 'done':
      case 'decline':
        try {
          if (msg.t === 'done') this.#deps.handoffs.finishByViewer(tabId, viewer.id)
          else this.#deps.handoffs.declineByViewer(tabId, viewer.id, msg.reason)
        } catch (err) {
          this.#send(viewer, { t: 'refused', action: msg.t, message: (err as Error).message })
        }
    }
  }

  /** A handoff change: everyone sees it; a handoff that is over closes the panel. */
  update (summary: HandoffSummary): void {
    if (this.#closed) return
    if (!isLiveState(summary.state)) { this.close(summary); return }
    for (const v of this.viewers.values()) this.#send(v, this.#stateFor(v))
  }

  /** Lets go of everything held in the page and closes every viewer with the outcome. */
  close (summary?: HandoffSummary): void {
    if (this.#closed) return
    this.#closed = true
    this.#relay.dropQueued()
    this.#relay.releaseHeld()
    this.#completion.dispose()
    this.#ui.dispose()
    this.#unwatch()
    // The popups stay open for the driver (docs/spec.md section 7): only the panel lets go of them.
    this.#popups.releaseAll()
    for (const v of this.viewers.values()) {
      this.#send(v, { t: 'ended', state: summary?.state ?? 'revoked', finish_reason: summary?.finish_reason ?? null, auto_done: summary?.auto_done ?? false, ...(summary?.human_note !== undefined ? { human_note: summary.human_note } : {}) })
      v.ws.close(1000, 'handoff ended')
    }
    this.#session.detach().catch(() => undefined)
  }

  /** Input would wait in a page blocked by a dialog and land after the answer, somewhere unseen. */
  #refuseWhileDialog (viewer: Viewer, ui: PageUiRelay): boolean {
    if (!ui.dialogOpen) return false
    if (viewer.stale++ % 50 === 0) this.#send(viewer, { t: 'refused', action: 'input', message: 'Answer the dialog first: the page waits for it.' })
    return true
  }

  /** Every viewer learns what was allowed, and to whom (the page may ask again now). */
  async #grant (origin: string, permission: PromptedPermission): Promise<void> {
    if (!this.#deps.grantPermission) throw new Error('Permissions cannot be granted here.')
    await this.#deps.grantPermission(origin, permission)
    for (const v of this.viewers.values()) this.#send(v, { t: 'granted', permission, origin })
  }

  #uiOf (tabId: string): PageUiRelay {
    return this.#popups.get(tabId)?.ui ?? this.#ui
  }

  /** Dialogs and lists of the tab on show reach every viewer; another tab's wait until it is shown. */
  #broadcastUi (tabId: string, msg: PageUiMessage): void {
    if (tabId !== this.#shown) return
    for (const v of this.viewers.values()) this.#send(v, msg)
  }

  #control (viewer: Viewer, event: Parameters<ViewerHandoffs['control']>[1], action?: string): void {
    let res: ControlResult
    try {
      res = this.#deps.handoffs.control(this.#deps.tab.id, event)
    } catch {
      return
    }
    if (res.ok) {
      if (res.effects.includes('drop_queued_input')) this.#relay.dropQueued()
      if (res.effects.includes('release_held_input')) this.#relay.releaseHeld()
    } else if (action) {
      this.#send(viewer, { t: 'refused', action, reason: res.reason })
    }
  }

  #stateFor (viewer: Viewer): StateMessage {
    return stateMessage(this.#deps.handoffs.current(this.#deps.tab.id), viewer, this.viewers.size, this.#deps.now())
  }

  /** The popup list changed (one opened or closed): follow it (docs/spec.md section 7 "Popups"). */
  async syncPopups (): Promise<void> {
    await this.#popups.sync()
  }

  #streamerOf (tabId: string): TabStreamer {
    return this.#popups.get(tabId)?.streamer ?? this.#deps.streamer
  }

  #show (tabId: string): void {
    if (tabId === this.#shown) return
    const from = this.#streamerOf(this.#shown)
    // Anything held in the tab being left is let go, as when control moves on.
    this.#popups.get(this.#shown)?.relay.releaseHeld()
    this.#shown = tabId
    const to = this.#streamerOf(tabId)
    for (const v of this.viewers.values()) {
      from.remove(v.sink)
      to.add(v.sink)
      this.#want(v)
    }
    // The panel draws the dialog and lists of the tab it now shows (none, if that tab has none).
    const ui = this.#uiOf(tabId).state()
    for (const v of this.viewers.values()) for (const msg of ui) this.#send(v, msg)
    this.#announceTabs()
    this.#focus.reset()
  }

  #tabsMessage (): TabsMessage {
    return tabsMessage(this.#deps.tab, this.#popups.values(), this.#shown)
  }

  #announceTabs (): void {
    const msg = this.#tabsMessage()
    const key = JSON.stringify(msg)
    if (key === this.#tabsKey) return
    this.#tabsKey = key
    for (const v of this.viewers.values()) this.#send(v, msg)
  }

  #want (viewer: Viewer): void {
    if (!viewer.size) return
    const streamer = this.#streamerOf(this.#shown)
    const device = streamer.device ?? { width: 1280, height: 720 }
    const geom = { deviceWidth: device.width, deviceHeight: device.height, imageWidth: device.width, imageHeight: device.height, pageScaleFactor: 1, scrollX: 0, scrollY: 0 }
    const rect = streamer.aim.rect && !viewer.size.whole && streamer === this.#deps.streamer ? clampAim(streamer.aim.rect, geom, AIM_MARGIN) : { x: 0, y: 0, ...device }
    streamer.want(viewer.sink, screencastSizeFor({ width: viewer.size.width, height: viewer.size.height }, viewer.size.dpr, rect, device))
  }

  #watch (): void {
    this.#aim.start()
    const browser = this.#deps.tab.page.browser()
    this.#popups.watch(browser)
    void this.syncPopups()
    // The poll also catches a popup adopted later than the looks after its target appeared.
    this.#poll = setInterval(() => { void this.#focus.refresh(); void this.syncPopups() }, FOCUS_POLL_MS)
    this.#poll.unref()
    void this.#focus.refresh()
  }

  #unwatch (): void {
    this.#aim.stop()
    const browser = this.#deps.tab.page.browser()
    this.#popups.unwatch(browser)
    clearInterval(this.#poll)
    this.#focus.stop()
  }

  #send (viewer: Viewer, msg: HostMessage): void {
    sendTo(viewer, msg)
  }
}
