// How the last handoff of a tab that has since closed ended, so a driver that was waiting still
// learns it after a crash or a page that closed itself (GET /v1/tabs/:id/handoff, tab_closed).
import type { HandoffSummary } from '../core/handoff.js'

/** Final summaries kept for tabs that closed (bounded: oldest forgotten first). */
export const MAX_CLOSED_TAB_SUMMARIES = 256

export type ClosedSummary = HandoffSummary & { tab_closed: true }

export class ClosedSummaries {
  readonly #byTab = new Map<string, ClosedSummary>()
  constructor (private readonly max = MAX_CLOSED_TAB_SUMMARIES) {}

  keep (tabId: string, summary: HandoffSummary): void {
    this.#byTab.delete(tabId)
    this.#byTab.set(tabId, { ...summary, tab_closed: true })
    while (this.#byTab.size > this.max) this.#byTab.delete(this.#byTab.keys().next().value as string)
  }

  get (tabId: string): ClosedSummary | undefined {
    return this.#byTab.get(tabId)
  }
}
