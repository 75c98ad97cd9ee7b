// The live checks a tab passes before a person is sent to it (docs/spec.md section 9), run through
// the panel's shared stream when the panel set a frame prover, and counted by the metrics.
import type { LiveCheck, LiveCheckTarget } from '../browser/live-checks.js'
import type { TabRecord } from '../tabs/types.js'
import type { FrameProver, LiveCheckOptions } from './service.js'

export class TabLiveChecks {
  #frameProver: FrameProver | undefined
  constructor (
    private readonly run: (target: LiveCheckTarget) => Promise<LiveCheck[]>,
    private readonly onResults?: (checks: LiveCheck[]) => void
  ) {}

  /** The panel proves frames through its shared streams (set once, at start). */
  setFrameProver (fn: FrameProver): void { this.#frameProver = fn }

  async of (tab: TabRecord, opts?: LiveCheckOptions): Promise<LiveCheck[]> {
    const prover = this.#frameProver
    const checks = await this.run({
      browser: tab.page.browser(),
      page: tab.page,
      screencast: opts?.screencast,
      proveFrame: prover && ((timeoutMs) => prover(tab, { keepStreaming: opts?.keepStreaming === true, timeoutMs }))
    })
    this.onResults?.(checks)
    return checks
  }
}
