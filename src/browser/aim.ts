import type { Page } from 'puppeteer-core'
import { PageWatch } from '../page-ui/page-watch.js'

import type { Aim, AimRect } from '../schemas/handoff.js'

/** What the panel shows (the driver's region, a recognised challenge widget, or the whole viewport); the shapes live in src/schemas/handoff.ts. */
export type { Aim, AimRect }

const MIN_SIZE = 4

/** Viewport rect of the first visible match, or null. Runs in the page. */
export async function visibleRect (page: Page, selector: string): Promise<AimRect | null> {
  try {
    return await page.evaluate((sel: string) => {
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

export async function resolveAim (page: Page, region?: string, widgetSelector?: string): Promise<Aim> {
  // A page blocked by a JavaScript dialog cannot be measured until it is answered.
  if (PageWatch.dialogOf(page)) return { kind: 'viewport' }
  let missed = false
  if (region) {
    const rect = await visibleRect(page, region)
    if (rect && rect.width >= MIN_SIZE) return { kind: 'selector', selector: region, rect }
    missed = true
  }
  if (widgetSelector) {
    const rect = await visibleRect(page, widgetSelector)
    if (rect) return { kind: 'detected', selector: widgetSelector, rect, ...(missed ? { missed } : {}) }
  }
  return { kind: 'viewport', ...(missed ? { missed } : {}) }
}
