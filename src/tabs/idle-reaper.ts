// The idle reaper (docs/spec.md section 8): on its own timer, one pass at a time, it closes the
// tabs unused for longer than AFHTTP_TAB_IDLE_MS that nothing protects, keeps the last report
// (GET /v1/tabs shows it) and tells its listeners. The pass itself is src/tabs/reaper-run.ts.
import { Listeners } from '../core/listeners.js'
import type { Clock } from '../core/clock.js'
import { reapPass } from './reaper-run.js'
import type { ReapReport, TabRecord } from './types.js'
import type { TabLogger } from './ports.js'

/** How often the reaper looks: a quarter of the idle limit, at least 250 ms and at most 30 s. */
export function reapIntervalMs (idleLimitMs: number): number {
  return Math.max(250, Math.min(30_000, Math.floor(idleLimitMs / 4)))
}

export interface IdleReaperDeps {
  clock: Clock
  log: Pick<TabLogger, 'info' | 'warn' | 'error'>
  /** AFHTTP_TAB_IDLE_MS, read at each pass. */
  idleLimitMs: () => number
  /** The open tabs, and each one as the inventory has it now. */
  tabs: () => readonly TabRecord[]
  current: (id: string) => TabRecord | undefined
  idleMs: (tab: TabRecord) => number
  /** Why a tab may not be closed now (a fetch in flight, an open handoff), or undefined. */
  protectedBy: (tab: TabRecord) => string | undefined
  /** A tab the host did not open, in a browser it does not own. */
  foreign: (tab: TabRecord) => boolean
  close: (id: string) => Promise<void>
}

export class IdleReaper {
  readonly #d: IdleReaperDeps
  readonly #reaped: Listeners<[ReapReport]>
  #last: ReapReport | undefined
  #running: Promise<ReapReport> | undefined
  #timer: NodeJS.Timeout | undefined

  constructor (deps: IdleReaperDeps) {
    this.#d = deps
    this.#reaped = new Listeners<[ReapReport]>((err) => deps.log.error({ err }, 'reaper listener failed'))
  }

  /** One pass now, or the one already running: two overlapping passes would race to close the same tabs. */
  reap (): Promise<ReapReport> {
    this.#running ??= this.#pass().finally(() => { this.#running = undefined })
    return this.#running
  }

  last (): ReapReport | undefined { return this.#last }
  onReaped (fn: (report: ReapReport) => void): void { this.#reaped.add(fn) }

  /** Passes on a timer whose period follows the idle limit at this moment (reapIntervalMs). */
  start (): void {
    const every = reapIntervalMs(this.#d.idleLimitMs())
    this.#timer = setInterval(() => { this.reap().catch((err: unknown) => this.#d.log.error({ err }, 'idle reaper failed')) }, every)
    this.#timer.unref()
  }

  stop (): void { clearInterval(this.#timer) }

  async #pass (): Promise<ReapReport> {
    const d = this.#d
    const report = await reapPass({
      now: d.clock.now(),
      idleLimitMs: d.idleLimitMs(),
      tabs: d.tabs(),
      idleMs: d.idleMs,
      protectedBy: d.protectedBy,
      current: d.current,
      foreign: d.foreign,
      close: d.close
    })
    if (report.closed.length || report.failed.length) {
      d.log[report.failed.length ? 'warn' : 'info']({ reaper: report }, 'idle reaper ran')
    }
    this.#last = report
    this.#reaped.emit(report)
    return report
  }
}
