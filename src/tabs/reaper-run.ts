// One pass of the idle reaper (docs/spec.md section 8): plan with the pure rule, then close what is
// still idle and unprotected at the moment of closing. Every outcome lands in the report.
import { planReap } from '../core/reaper.js'
import type { ReapReport, TabRecord } from './types.js'

export interface ReapPass {
  now: number
  idleLimitMs: number
  tabs: readonly TabRecord[]
  idleMs: (tab: TabRecord) => number
  /** Why a tab may not be closed now (a fetch in flight, an open handoff), or undefined. */
  protectedBy: (tab: TabRecord) => string | undefined
  /** The tab as the inventory has it now (it may have closed since the plan). */
  current: (id: string) => TabRecord | undefined
  /** A tab the host did not open, in a browser it does not own: never reaped. */
  foreign: (tab: TabRecord) => boolean
  close: (id: string) => Promise<void>
}

export async function reapPass (p: ReapPass): Promise<ReapReport> {
  const plan = planReap(p.tabs.map((t) => ({ id: t.id, idleMs: p.idleMs(t), protectedBy: p.protectedBy(t) })), p.idleLimitMs)
  const report: ReapReport = {
    at: new Date(p.now).toISOString(),
    closed: [],
    failed: [],
    protected: plan.keep.map((k) => ({ tab_id: k.id, idle_ms: k.idleMs, by: k.protectedBy }))
  }
  for (const c of plan.close) {
    const tab = p.current(c.id)
    if (!tab) continue
    if (p.foreign(tab)) {
      report.failed.push({ tab_id: c.id, error: 'not reaped: a tab the host did not open in an attached (cdp) browser' })
      continue
    }
    // The plan is a moment old: a fetch or a handoff may have started since.
    const by = p.protectedBy(tab)
    if (by || p.idleMs(tab) <= p.idleLimitMs) {
      if (by) report.protected.push({ tab_id: c.id, idle_ms: p.idleMs(tab), by })
      continue
    }
    try {
      await p.close(c.id)
      report.closed.push({ tab_id: c.id, idle_ms: c.idleMs })
    } catch (err) {
      report.failed.push({ tab_id: c.id, error: (err as Error).message })
    }
  }
  return report
}
