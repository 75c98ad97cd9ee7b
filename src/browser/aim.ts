import type { ElementHandle, Frame, Page } from 'puppeteer-core'
import { fillsView } from '../core/frame-view.js'
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
 * Viewport rect of the first visible match in the document of the frame that fills the page's view
 * (src/core/frame-view.ts), or null. The frame's own viewport starts inside its border and padding.
 */
export async function visibleRectInFillingFrame (page: Page, selector: string): Promise<AimRect | null> {
  let elements: Array<ElementHandle<Element>> = []
  try {
    elements = await page.$$('iframe, frame')
    const view = await page.evaluate(() => ({ width: innerWidth, height: innerHeight }))
    for (const element of elements) {
      const box = await element.evaluate((el) => {
        const r = el.getBoundingClientRect()
        const s = getComputedStyle(el)
        return { width: r.width, height: r.height, x: r.x + el.clientLeft + parseFloat(s.paddingLeft), y: r.y + el.clientTop + parseFloat(s.paddingTop) }
      })
      if (!fillsView(box, view)) continue
      const frame = await element.contentFrame()
      const inner = frame === null || frame.detached ? null : await visibleRect(frame, selector)
      return inner === null ? null : { ...inner, x: inner.x + box.x, y: inner.y + box.y }
    }
    return null
  } catch {
    return null // a frame that went away while it was measured aims nowhere
  } finally {
    // Let go without waiting: a page stuck in a script would hold the aim up.
    for (const element of elements) element.dispose().catch(() => undefined)
  }
}

/**
 * The aim: the driver's region, else the recognised challenge widget, else the whole viewport. A
 * widget seen in the frame that fills the view (`widgetInFrame`, a handoff with a `gateFrame`) is
 * looked for there first.
 */
export async function resolveAim (page: Page, region?: string, widgetSelector?: string, widgetInFrame = false): Promise<Aim> {
  // A page blocked by a JavaScript dialog cannot be measured until it is answered.
  if (PageWatch.dialogOf(page)) return { kind: 'viewport' }
  let missed = false
  if (region) {
    const rect = await visibleRect(page, region)
    if (rect && rect.width >= MIN_SIZE) return { kind: 'selector', selector: region, rect }
    missed = true
  }
  if (widgetSelector) {
    const rect = (widgetInFrame ? await visibleRectInFillingFrame(page, widgetSelector) : null) ?? await visibleRect(page, widgetSelector)
    if (rect) return { kind: 'detected', selector: widgetSelector, rect, ...(missed ? { missed } : {}) }
  }
  return { kind: 'viewport', ...(missed ? { missed } : {}) }
}
