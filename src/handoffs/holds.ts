// Each handoff's hold while it lasts (docs/spec.md section 7 "Hold"): the timer that announces its
// expiry (nobody polls for it), the page watches that audit what the person loads (docs/spec.md
// section 19), and, once it ends, who ended it — what the registry's ending transitions carry.
import type { Page } from 'puppeteer-core'
import { endedBy, heldMs, isHeld, summarize, type FinishReason, type Handoff } from '../core/handoff.js'
import type { Clock } from '../core/clock.js'
import type { Lifecycle, TransitionData } from '../core/lifecycle.js'
import { watchNavigations } from './page-effects.js'

export interface HoldsDeps {
  clock: Clock
  lifecycle: Pick<Lifecycle, 'emit'>
  log: { info (obj: object, msg: string): void }
  /** The profile of a tab still in the inventory (a hold remembers its own; this is the fallback). */
  profileOf: (tabId: string) => string | undefined
}

interface Hold {
  cancel: () => void
  /** The expiry was announced (once). */
  expired: boolean
  /** Set once the ending is known. */
  by?: 'driver' | 'person' | 'host'
  /** Outlives the tab: a revoke on close still names it. */
  profile: string
  /** End the page watches. */
  stops: Array<() => void>
}

export class Holds {
  readonly #byHandoff = new WeakMap<Handoff, Hold>()
  constructor (private readonly d: HoldsDeps) {}

  /** Arms the hold of a handoff just opened in a tab of `profile`. */
  start (h: Handoff, profile: string): void {
    this.#byHandoff.set(h, { cancel: this.d.clock.at(h.expiresAt, () => { this.expire(h) }), expired: false, profile, stops: [] })
  }

  /** Where a transition of `h` happened: its tab and profile. */
  where (h: Handoff): { tab_id: string, profile?: string } {
    return { tab_id: h.tabId, profile: this.#byHandoff.get(h)?.profile ?? this.d.profileOf(h.tabId) }
  }

  /** An ended (or expired) handoff's transition payload: its summary, who ended it and how long it held. */
  endingData (h: Handoff): TransitionData<'handoff.finished'> {
    const { tab_id: _tab, ...summary } = summarize(h, this.d.clock.now())
    return { ...summary, by: this.#byHandoff.get(h)?.by ?? 'host', held_ms: heldMs(h) }
  }

  /** Announces the expiry once, unless the handoff ended first. */
  expire (h: Handoff): void {
    const hold = this.#byHandoff.get(h)
    if (!hold || hold.expired || h.ended) return
    hold.expired = true
    this.d.log.info({ tab_id: h.tabId }, 'handoff hold expired')
    this.d.lifecycle.emit('handoff.expired', this.where(h), this.endingData(h))
  }

  /** Audits the documents a page of the handoff loads while it is held (the tab, or a popup of it). */
  watchPage (h: Handoff, page: Page, popupTabId?: string): void {
    this.#byHandoff.get(h)?.stops.push(watchNavigations(page, (origin) => {
      if (isHeld(h, this.d.clock.now())) this.d.lifecycle.emit('handoff.navigated', this.where(h), { handoff_fence: h.fence, origin, ...(popupTabId ? { popup_tab_id: popupTabId } : {}) })
    }))
  }

  /** The handoff is ending for `reason`: its timer and watches stop, and who ended it is kept. */
  stop (h: Handoff, reason: FinishReason, byDriver: boolean): void {
    const hold = this.#byHandoff.get(h)
    // An expiry whose timer has not run yet is announced first: the hold ended before the handoff did.
    if (hold && this.d.clock.now() >= h.expiresAt) this.expire(h)
    hold?.cancel()
    if (hold) {
      hold.by = endedBy(reason, byDriver)
      for (const stop of hold.stops.splice(0)) stop()
    }
  }
}
