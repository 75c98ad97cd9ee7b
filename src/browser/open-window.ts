import type { Browser, Page } from 'puppeteer-core'
import { browserSession } from './window-anchor.js'
import { idOfTarget } from './target-id.js'

const GEOMETRY_WAIT_MS = 1_000
/** puppeteer's own bound for a new page's target to appear. */
const TARGET_WAIT_MS = 30_000

const goneError = (): Error => new Error('Browser closed: it disconnected while a window was opening')

/**
 * What `browser.newPage({type: 'window'})` does, but stopped the moment the browser goes away:
 * puppeteer's newPage waits for the new target under a 30 s timer it never cancels, so a browser
 * killed while a window opened kept the host's process alive for half a minute after close.
 * (newPage also waits for screenshots in flight in the context; a new window of its own does not
 * disturb another window's capture, so that wait is left out on purpose.)
 */
async function newWindow (browser: Browser, background: boolean): Promise<Page> {
  if (!browser.connected) throw new Error('Browser closed: it disconnected before a window could open')
  const abort = new AbortController()
  const onGone = (): void => abort.abort(goneError())
  // on/off, not once: puppeteer's once() registers a wrapper that off(onGone) cannot remove.
  browser.on('disconnected', onGone)
  let targetId: string | undefined
  try {
    const gone = new Promise<never>((_resolve, reject) => abort.signal.addEventListener('abort', () => reject(abort.signal.reason as Error), { once: true }))
    gone.catch(() => undefined)
    const session = await Promise.race([browserSession(browser), gone])
    targetId = (await Promise.race([session.send('Target.createTarget', { url: 'about:blank', newWindow: true, background }), gone])).targetId
    // puppeteer listens for the abort event only: a signal aborted already would wait out the timer.
    abort.signal.throwIfAborted()
    const target = await browser.waitForTarget((t) => idOfTarget(t) === targetId, { timeout: TARGET_WAIT_MS, signal: abort.signal })
    const page = await Promise.race([target.page(), gone])
    if (!page) throw new Error(`the new window ${targetId} has no page`)
    return page
  } catch (err) {
    // A window that opened but never became a page would be left on the person's screen.
    if (targetId && browser.connected) await browserSession(browser).then((s) => s.send('Target.closeTarget', { targetId: targetId! })).catch(() => undefined)
    throw err
  } finally {
    browser.off('disconnected', onGone)
  }
}

/**
 * A new window of its own for a tab: a background tab in a shared window paints no screencast
 * frames, and two people may be working two tabs at once. On a display, a brand-new window
 * answers `outerWidth === 0` until the window system has placed it; a page loaded that soon would
 * see a window no visitor's browser has, so wait (bounded) until the window has its size. Only a
 * browser this host launched is known to be headful; an attached one is left as it is.
 */
export async function openWindow (browser: Browser, headful: boolean, background = false): Promise<Page> {
  const page = await newWindow(browser, background)
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
