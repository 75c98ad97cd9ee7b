// How a handoff ends (docs/spec.md section 7 "Finish" and "Outcome"): the hold comes off at once,
// its links die, and the ending is told — the summary and the lifecycle's finished/revoked — once
// the outcome's cookie names are read and a frame that fills the view was looked at again (bounded
// by OUTCOME_JAR_MS and OUTCOME_FRAME_MS), or at once when nothing is left to read.
import { applyControl } from '../core/control.js'
import type { FinishReason, Handoff } from '../core/handoff.js'
import type { Clock } from '../core/clock.js'
import type { Lifecycle } from '../core/lifecycle.js'
import type { TabRegistry } from '../tabs/types.js'
import type { Holds } from './holds.js'
import type { OutcomeWatch } from './outcome-watch.js'
import type { PanelLinks } from './panel-links.js'

export interface EndingsDeps {
  clock: Clock
  tabs: Pick<TabRegistry, 'find'>
  lifecycle: Pick<Lifecycle, 'emit'>
  log: { info (obj: object, msg: string): void }
  holds: Holds
  outcomes: OutcomeWatch
  links: PanelLinks
  /** The handoff's record changed for good: its tab counts one more finished handoff. */
  ended: (h: Handoff) => void
  /** Tells the summary's listeners (every panel) of the handoff as it is now. */
  changed: (h: Handoff) => void
}

export class HandoffEndings {
  // Endings still reading their outcome, by tab; the summary is told once each settles.
  readonly #reading = new Map<string, Promise<void>>()
  constructor (private readonly d: EndingsDeps) {}

  /** Ends `h` (once). `byDriver`: the driver closed its tab, so the revoke is the driver's. */
  end (h: Handoff, state: 'finished' | 'revoked', reason: FinishReason, note?: string, byDriver = false): void {
    if (h.ended) return
    const { clock, holds, outcomes } = this.d
    holds.stop(h, reason, byDriver)
    const tab = this.d.tabs.find(h.tabId)
    // Read before the record changes: the outcome compares with how the handoff began.
    const navigated = tab ? outcomes.movedOn(h, tab) : false
    h.ended = { state, reason, at: clock.now() }
    if (note !== undefined && note !== '') h.humanNote = note
    h.outcome = { final_url: tab && !tab.page.isClosed() ? tab.page.url() : h.startUrl, navigated, cookies_set: [] }
    h.control = applyControl(h.control, { type: 'finish' }).state
    this.d.links.revoke(h)
    this.d.ended(h)
    this.d.log.info({ tab_id: h.tabId, state, reason }, 'handoff ended')
    // The hold is already off; the summary (and every panel) hears of the ending once the jar
    // answered, or after OUTCOME_JAR_MS without cookie names.
    const told = (): void => {
      this.d.changed(h)
      this.d.lifecycle.emit(state === 'finished' ? 'handoff.finished' : 'handoff.revoked', holds.where(h), holds.endingData(h))
    }
    if (!tab || tab.page.isClosed() || !tab.page.browser().connected || reason === 'shutdown') {
      // Nothing left to read (or no time to): the ending is told at once, in order with the close.
      this.#reading.delete(h.tabId)
      told()
      return
    }
    this.#reading.set(h.tabId, Promise.all([outcomes.cookiesSet(h, tab), outcomes.frameMoved(h, tab)]).then(() => undefined).finally(told))
  }

  /** Resolves once the last ending of `tabId` was told. */
  async settled (tabId: string): Promise<void> { await this.#reading.get(tabId) }

  /** Resolves once every ending in flight was told. */
  async allSettled (): Promise<void> { await Promise.all([...this.#reading.values()]) }

  /** The tab is gone and its ending told: nothing of it is kept. */
  forget (tabId: string): void { this.#reading.delete(tabId) }
}
