import type { Browser, Page } from 'puppeteer-core'

const GEOMETRY_WAIT_MS = 1_000

/** Rejects as soon as the browser goes away (puppeteer's newPage would wait out its 30 s timeout). */
function whileConnected<T> (browser: Browser, work: Promise<T>): Promise<T> {
  if (!browser.connected) {
    work.catch(() => undefined)
    return Promise.reject(new Error('Browser closed: it disconnected before a window could open'))
  }
  let onGone: (() => void) | undefined
  const gone = new Promise<never>((_resolve, reject) => {
    onGone = () => reject(new Error('Browser closed: it disconnected while a window was opening'))
    browser.once('disconnected', onGone)
  })
  return Promise.race([work, gone]).finally(() => {
    if (onGone) browser.off('disconnected', onGone)
    work.catch(() => undefined)
  })
}

/**
 * A new window of its own for a tab: a background tab in a shared window paints no screencast
 * frames, and two people may be working two tabs at once. On a display, a brand-new window
 * answers `outerWidth === 0` until the window system has placed it; a page loaded that soon would
 * see a window no visitor's browser has, so wait (bounded) until the window has its size. Only a
 * browser this host launched is known to be headful; an attached one is left as it is.
 */
export async function openWindow (browser: Browser, headful: boolean, background = false): Promise<Page> {
  const page = await whileConnected(browser, browser.newPage({ type: 'window', background }))
  if (headful && browser.process()) {
    try {
      await page.waitForFunction('window.outerWidth > 0 && window.outerHeight > window.innerHeight', { timeout: GEOMETRY_WAIT_MS, polling: 10 })
    } catch {
      // A slow window system only costs the check, never the tab; a browser that went away
      // meanwhile is reported by the next step that needs it.
    }
  }
  return page
}
