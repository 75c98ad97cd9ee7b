import type { Frame, Page } from 'puppeteer-core'
import type { Handoff } from '../core/handoff.js'
import { beforeDeadline } from '../fetch/deadline.js'
import { findFillingFrame } from '../fetch/filling-frame.js'
import { PageWatch } from '../page-ui/page-watch.js'

import type { Aim, AimRect } from '../schemas/handoff.js'

/** What the panel shows (the driver's region, a recognised challenge widget, or the whole viewport); the shapes live in src/schemas/handoff.ts. */
export type { Aim, AimRect }

const MIN_SIZE = 4

/** Viewport rect of the first visible match in `where` (a page, or a frame's own viewport), or null. Runs in the document. */
export async function visibleRect (where: Page | Frame, selector: string): Promise<AimRect | null> {
  try {
    return await where.evaluate((sel: string) => {
      for (const el of Array.from(document.querySelectorAll(sel))) {
        const r = el.getBoundingClientRect()
        const style = getComputedStyle(el)
        if (r.width >= 4 && r.height >= 4 && style.visibility !== 'hidden' && style.display !== 'none') {
          return { x: r.x, y: r.y, width: r.width, height: r.height }
        }
      }
      return null
    }, selector)
  } catch {
    return null // an invalid selector or a navigating page aims nowhere
  }
}

/**
 * How long the aim waits for the frame that fills the view and the widget in it. A vendor's check
 * can be busy or between documents; the mint and the panel's re-measuring must not wait on it.
 */
export const FRAME_AIM_BUDGET_MS = 1_000

/**
 * Viewport rect of the first visible match in the document of the frame that fills the page's view
 * (src/fetch/filling-frame.ts), or null: its rect in the frame, moved by where the frame shows it.
 */
export async function visibleRectInFillingFrame (page: Page, selector: string): Promise<AimRect | null> {
  const deadline = performance.now() + FRAME_AIM_BUDGET_MS
  const found = await findFillingFrame(page, deadline)
  if (found === undefined) return null
  const inner = await beforeDeadline(visibleRect(found.frame, selector), deadline, 'the widget in the frame').catch(() => null)
  return inner === null ? null : { ...inner, x: inner.x + found.origin.x, y: inner.y + found.origin.y }
}

/** What the aim is worked out from: a handoff's region, its widget, and the frame document the challenge was seen in, if it was in the frame that fills the view. */
export type AimSource = Pick<Handoff, 'region' | 'widgetSelector' | 'gateFrame'>

/**
 * The aim: the driver's region, else the recognised challenge widget, else the whole viewport. A
 * widget seen in the frame that fills the view (a `gateFrame`) is looked for there first.
 */
export async function resolveAim (page: Page, { region, widgetSelector, gateFrame }: AimSource): Promise<Aim> {
  // A page blocked by a JavaScript dialog cannot be measured until it is answered.
  if (PageWatch.dialogOf(page)) return { kind: 'viewport' }
  let missed = false
  if (region) {
    const rect = await visibleRect(page, region)
    if (rect && rect.width >= MIN_SIZE) return { kind: 'selector', selector: region, rect }
    missed = true
  }
  if (widgetSelector) {
    const rect = (gateFrame !== undefined ? await visibleRectInFillingFrame(page, widgetSelector) : null) ?? await visibleRect(page, widgetSelector)
    if (rect) return { kind: 'detected', selector: widgetSelector, rect, ...(missed ? { missed } : {}) }
  }
  return { kind: 'viewport', ...(missed ? { missed } : {}) }
}
