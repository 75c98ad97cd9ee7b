// Keeps the stream's aim current (docs/spec.md section 10 "Aim"): the region selector, else the
// recognised challenge widget (in the frame that fills the view when the challenge was seen
// there), else the whole viewport. Rects are viewport pixels, so
// they move with scrolling and layout; they are re-measured a few times a second while
// someone watches, and the panel moves its picture by CSS alone.
import type { Page } from 'puppeteer-core'
import { resolveAim, type Aim, type AimSource } from '../browser/aim.js'
import type { FrameAim } from './frame-codec.js'

const MEASURE_EVERY_MS = 400

export class AimTracker {
  readonly #page: Page
  readonly #source: () => AimSource | undefined
  readonly #apply: (aim: FrameAim, resolved: Aim) => void
  #timer: NodeJS.Timeout | undefined
  #busy = false

  constructor (page: Page, source: () => AimSource | undefined, apply: (aim: FrameAim, resolved: Aim) => void) {
    this.#page = page
    this.#source = source
    this.#apply = apply
  }

  start (): void {
    if (this.#timer) return
    void this.measure()
    this.#timer = setInterval(() => { void this.measure() }, MEASURE_EVERY_MS)
    this.#timer.unref()
  }

  stop (): void {
    clearInterval(this.#timer)
    this.#timer = undefined
  }

  async measure (): Promise<void> {
    const source = this.#source()
    if (this.#busy || !source) return
    this.#busy = true
    try {
      const resolved = await resolveAim(this.#page, source)
      this.#apply(toFrameAim(resolved), resolved)
    } finally {
      this.#busy = false
    }
  }
}

/** Half-pixel rounding keeps sub-pixel layout jitter from re-aiming every frame. */
export function toFrameAim (aim: Aim): FrameAim {
  if (aim.kind === 'viewport' || !aim.rect) return { kind: 'viewport' }
  const r = (v: number): number => Math.round(v * 2) / 2
  return { kind: aim.kind, rect: { x: r(aim.rect.x), y: r(aim.rect.y), width: r(aim.rect.width), height: r(aim.rect.height) } }
}
