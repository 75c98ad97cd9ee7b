import type { Page } from 'puppeteer-core'
import { browserSession } from './window-anchor.js'
import { targetIdOf } from './target-id.js'

/** A hung renderer never answers; the inventory must. */
export const TITLE_TIMEOUT_MS = 1_000

/**
 * The page's title, or null when it cannot be read within `ms`. A page blocked by a dialog
 * cannot run script, so its title comes from the browser's own record of the target, which
 * answers at once (a renderer round trip would wait out the whole bound).
 */
export async function boundedTitle (page: Page, opts: { blocked?: boolean, ms?: number } = {}): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<null>((resolve) => { timer = setTimeout(() => resolve(null), opts.ms ?? TITLE_TIMEOUT_MS) })
  const read = opts.blocked ? titleFromBrowser(page) : page.title().catch(() => null)
  try {
    return await Promise.race([read, late])
  } finally {
    clearTimeout(timer)
  }
}

async function titleFromBrowser (page: Page): Promise<string | null> {
  const targetId = targetIdOf(page)
  if (!targetId) return null
  try {
    const { targetInfo } = await (await browserSession(page.browser())).send('Target.getTargetInfo', { targetId })
    // Chromium names an untitled page by its URL; document.title is then empty.
    return targetInfo.title === targetInfo.url ? '' : targetInfo.title
  } catch {
    return null
  }
}
