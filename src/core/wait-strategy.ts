// Wait strategies of a fetch (SPEC §6): parsing, and the pure sampling logic of
// `selector-stable`. The browser side only takes samples; what counts as
// "stable" is decided here so it can be tested with a fake clock.

export type WaitStrategy =
  | { kind: 'load' | 'domcontentloaded' | 'networkidle' }
  | { kind: 'selector' | 'selector-stable'; selector: string }

/** The strategy names as `/capabilities` lists them. */
export const WAIT_STRATEGIES = ['load', 'domcontentloaded', 'networkidle', 'selector:<css>', 'selector-stable:<css>'] as const

export const MAX_SELECTOR_LENGTH = 1024

const LIFECYCLE_KINDS = new Set(['load', 'domcontentloaded', 'networkidle'])
const SELECTOR_KINDS = new Set(['selector', 'selector-stable'])

/** Throws a plain Error whose message the route can put in `invalid_request`. */
export function parseWaitStrategy (s: string): WaitStrategy {
  const input = s.trim()
  const colon = input.indexOf(':')
  const kind = colon === -1 ? input : input.slice(0, colon)
  if (LIFECYCLE_KINDS.has(kind)) {
    if (colon !== -1) throw new Error(`wait strategy "${kind}" takes no argument (got "${clip(input)}")`)
    return { kind: kind as 'load' | 'domcontentloaded' | 'networkidle' }
  }
  if (SELECTOR_KINDS.has(kind)) {
    // Only the first colon separates: CSS selectors contain colons (a:hover, [href^="https:"]).
    const selector = colon === -1 ? '' : input.slice(colon + 1).trim()
    if (selector === '') throw new Error(`wait strategy "${kind}" needs a CSS selector, e.g. "${kind}:#price"`)
    if (selector.length > MAX_SELECTOR_LENGTH) throw new Error(`wait strategy "${kind}" selector is ${selector.length} characters; the limit is ${MAX_SELECTOR_LENGTH}`)
    return { kind: kind as 'selector' | 'selector-stable', selector }
  }
  throw new Error(`unknown wait strategy "${clip(input)}"; expected one of ${WAIT_STRATEGIES.join(', ')}`)
}

/** The canonical string form, as echoed in `readiness.strategy`. */
export function formatWaitStrategy (w: WaitStrategy): string {
  return 'selector' in w ? `${w.kind}:${w.selector}` : w.kind
}

/** Selector strategies measure "scoped readiness"; lifecycle ones do not. */
export function isScopedReadiness (w: WaitStrategy): w is Extract<WaitStrategy, { selector: string }> {
  return w.kind === 'selector' || w.kind === 'selector-stable'
}

// Error messages echo the input, so keep a hostile 1 MB strategy out of them.
function clip (s: string): string {
  return s.length > 80 ? `${s.slice(0, 80)}…` : s
}

export interface StabilitySample {
  present: boolean
  visible: boolean
  text: string
  /** Milliseconds on any monotonic clock. */
  at: number
}

export interface StabilityState {
  /** Ready and unchanged for at least minSamples samples spanning at least settleMs. */
  stable: boolean
  /** This sample alone: present, visible and with non-empty text. */
  targetReady: boolean
  /** Samples observed so far (readiness.samples). */
  samples: number
  /** Consecutive ready samples with the same text, ending with this one. */
  streak: number
}

/**
 * Decides `selector-stable`: the target must be present, visible, carry
 * non-empty text, and keep the same text across at least `minSamples`
 * consecutive samples spanning at least `settleMs`. Any change starts over.
 */
export class StabilityTracker {
  private samples = 0
  private streak = 0
  private streakText = ''
  private streakStartedAt = 0
  private lastAt = -Infinity

  constructor (private readonly settleMs: number, private readonly minSamples = 3) {
    if (!Number.isFinite(settleMs) || settleMs < 0) throw new RangeError(`settleMs must be a finite number ≥ 0 (got ${settleMs})`)
    if (!Number.isInteger(minSamples) || minSamples < 1) throw new RangeError(`minSamples must be an integer ≥ 1 (got ${minSamples})`)
  }

  observe (sample: StabilitySample): StabilityState {
    this.samples++
    // Whitespace reflows (innerText of the same nodes) are not content changes.
    const text = sample.text.replace(/\s+/g, ' ').trim()
    const targetReady = sample.present && sample.visible && text !== ''
    // A sample older than the previous one cannot prove the span: start over.
    const inOrder = sample.at >= this.lastAt
    this.lastAt = Math.max(this.lastAt, sample.at)
    if (!targetReady) {
      this.streak = 0
    } else if (this.streak > 0 && inOrder && text === this.streakText) {
      this.streak++
    } else {
      this.streak = 1
      this.streakText = text
      this.streakStartedAt = sample.at
    }
    const stable = this.streak >= this.minSamples && sample.at - this.streakStartedAt >= this.settleMs
    return { stable, targetReady, samples: this.samples, streak: this.streak }
  }
}
