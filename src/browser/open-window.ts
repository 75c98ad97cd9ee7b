import type { Browser, Page } from 'puppeteer-core'

const GEOMETRY_WAIT_MS = 1_000

/**
 * A new window of its own for a tab: a background tab in a shared window paints no screencast
 * frames, and two people may be working two tabs at once. On a display, a brand-new window
 * answers `outerWidth === 0` until the window system has placed it; a page loaded that soon would
 * see a window no visitor's browser has, so wait (bounded) until the window has its size.
 */
export async function openWindow (browser: Browser, headful: boolean, background = false): Promise<Page> {
  const page = await browser.newPage({ type: 'window', background })
  if (headful) {
    try {
      await page.waitForFunction('window.outerWidth > 0 && window.outerHeight > window.innerHeight', { timeout: GEOMETRY_WAIT_MS, polling: 10 })
    } catch {
      // A slow window system only costs the check, never the tab; a browser that went away
      // meanwhile is reported by the next step that needs it.
    }
  }
  return page
}
