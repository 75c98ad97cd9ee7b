import type { Page } from 'puppeteer-core'
import { beforeDeadline } from './deadline.js'
import { formatWaitStrategy, StabilityTracker, type StabilitySample, type WaitStrategy } from '../core/wait-strategy.js'

import type { Readiness } from '../schemas/fetch.js'
// The public shape lives once, in src/schemas/fetch.ts.
export type { Readiness }

const SAMPLE_EVERY_MS = 100
/** selector-stable: unchanged text for at least this long, over at least this many samples. */
export const SETTLE_MS = 500
const STABLE_SAMPLES = 3

/** The judge of `selector-stable` (docs/spec.md section 6), for a fetch's wait and a handoff's completion alike. */
export function selectorStableTracker (): StabilityTracker {
  return new StabilityTracker(SETTLE_MS, STABLE_SAMPLES)
}

/** One look at a selector's target: present, visible, and its text. Never throws. */
export async function sampleTarget (page: Page, selector: string, deadline: number): Promise<Omit<StabilitySample, 'at'>> {
  try {
    return await beforeDeadline(page.evaluate((sel: string) => {
      const el = document.querySelector(sel) as HTMLElement | null
      if (!el) return { present: false, visible: false, text: '' }
      const r = el.getBoundingClientRect()
      const style = getComputedStyle(el)
      const visible = r.width > 0 && r.height > 0 && style.visibility !== 'hidden' && style.display !== 'none' && style.opacity !== '0'
      return { present: true, visible, text: (el.innerText ?? el.textContent ?? '').trim() }
    }, selector), deadline, 'readiness sample')
  } catch {
    // A navigation in progress destroys the context (the next sample sees the new page);
    // a hung page answers nothing before the deadline.
    return { present: false, visible: false, text: '' }
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Waits for scoped readiness until `deadline` (performance.now() time). A timeout is a result
 * (`satisfied: false`), not an error. Lifecycle strategies were awaited by navigation already.
 */
export async function awaitReadiness (page: Page, wait: WaitStrategy, deadline: number): Promise<Readiness> {
  const start = performance.now()
  const strategy = formatWaitStrategy(wait)
  if (!('selector' in wait)) {
    return { strategy, measured: false, satisfied: true, elapsed_ms: 0, target_ready: false, samples: 0 }
  }
  const tracker = selectorStableTracker()
  let samples = 0
  let targetReady = false
  for (;;) {
    const s = await sampleTarget(page, wait.selector, deadline)
    samples++
    const at = performance.now()
    if (wait.kind === 'selector') {
      targetReady = s.present && s.visible
      if (targetReady) return { strategy, measured: true, satisfied: true, elapsed_ms: Math.round(at - start), target_ready: true, samples }
    } else {
      const state = tracker.observe({ ...s, at })
      targetReady = state.targetReady
      if (state.stable) return { strategy, measured: true, satisfied: true, elapsed_ms: Math.round(at - start), target_ready: true, samples }
    }
    if (at + SAMPLE_EVERY_MS > deadline) {
      return { strategy, measured: true, satisfied: false, elapsed_ms: Math.round(at - start), target_ready: targetReady, samples }
    }
    await sleep(SAMPLE_EVERY_MS)
  }
}
