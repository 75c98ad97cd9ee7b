// A tab's handoffs over its life (docs/spec.md section 7): the current one, how many have ended
// (a tab keeps at most MAX_FINISHED_PER_TAB finished records, `handoff_capacity`), and the
// control generation the next one begins after, so input from an old panel never matches it.
import { AfhttpError } from '../errors.js'
import { MAX_FINISHED_PER_TAB, type Handoff } from '../core/handoff.js'

export interface TabHandoffs {
  current?: Handoff
  finishedCount: number
  lastGeneration: number
}

/** A tab that has used up its handoffs gets no new one (a second mint of an open one is fine). */
export function assertCapacity (rec: TabHandoffs): void {
  if (rec.finishedCount >= MAX_FINISHED_PER_TAB) {
    throw new AfhttpError('handoff_capacity', `This tab already has ${MAX_FINISHED_PER_TAB} finished handoffs; close it and fetch again in a new tab.`, { limit: MAX_FINISHED_PER_TAB })
  }
}

/** `h`, a handoff of the tab, ended: one more finished record, and its last generation. */
export function countEnding (rec: TabHandoffs, h: Handoff): void {
  rec.finishedCount += 1
  rec.lastGeneration = h.control.generation
}
