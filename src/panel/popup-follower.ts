// Follows the windows a handed-off page opens and closes (docs/spec.md section 7 "Popups"): each new
// one gets the panel's side (its own session, relay and page-UI relay, popups.ts), each gone
// one is let go. The panel tab decides what is shown; this only keeps the list true.
import type { Browser } from 'puppeteer-core'
import type { TabRecord } from '../tabs/types.js'
import { openPopup, releasePopup, type Popup, type PopupDeps } from './popups.js'
import type { TabStreamer } from './streamer.js'

/** Popups are adopted a moment after the browser reports them: look again shortly after. */
const POPUP_LOOKS_MS = [60, 250, 800]

export interface PopupFollowerDeps {
  /** Open popups of the handed-off tab, oldest first. */
  popups: () => TabRecord[]
  streamerFor: (tab: TabRecord) => TabStreamer
  /** The panel's side of a popup needs these (its relay's hooks, its page-UI broadcast). */
  popupDeps: (tab: TabRecord) => PopupDeps
  opened: (popup: Popup) => void
  /** Called before the popup is let go, so the panel can stop showing it. */
  closed: (popup: Popup) => void
  /** After a look that may have changed the list. */
  synced: () => void
  disposed: () => boolean
}

export class PopupFollower {
  readonly #open = new Map<string, Popup>()
  readonly #deps: PopupFollowerDeps
  #syncing = false
  readonly #onTarget = (): void => { for (const ms of POPUP_LOOKS_MS) setTimeout(() => { void this.sync() }, ms).unref() }

  constructor (deps: PopupFollowerDeps) {
    this.#deps = deps
  }

  get (tabId: string): Popup | undefined { return this.#open.get(tabId) }
  has (tabId: string): boolean { return this.#open.has(tabId) }
  values (): IterableIterator<Popup> { return this.#open.values() }

  watch (browser: Browser): void {
    browser.on('targetcreated', this.#onTarget)
    browser.on('targetdestroyed', this.#onTarget)
  }

  unwatch (browser: Browser): void {
    browser.off('targetcreated', this.#onTarget)
    browser.off('targetdestroyed', this.#onTarget)
  }

  /** Lets go of every popup (their windows stay open for the driver). */
  releaseAll (): void {
    for (const p of this.#open.values()) releasePopup(p)
    this.#open.clear()
  }

  async sync (): Promise<void> {
    if (this.#deps.disposed() || this.#syncing) return
    this.#syncing = true
    try {
      const now = this.#deps.popups().filter((t) => !t.page.isClosed())
      const ids = new Set(now.map((t) => t.id))
      for (const [id, p] of this.#open) {
        if (ids.has(id)) continue
        this.#deps.closed(p)
        this.#open.delete(id)
        releasePopup(p)
      }
      for (const tab of now) {
        if (this.#open.has(tab.id)) continue
        const popup = await openPopup(tab, this.#deps.streamerFor(tab), this.#deps.popupDeps(tab))
        if (!popup) continue
        if (this.#deps.disposed()) { releasePopup(popup); continue }
        this.#open.set(tab.id, popup)
        this.#deps.opened(popup)
      }
    } finally {
      this.#syncing = false
    }
    this.#deps.synced()
  }
}
