import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core'
import type { TestHost } from './host.js'
import './guard.js'
import type { Teardown } from './teardown.js'

export const DESKTOP = { width: 1280, height: 720, deviceScaleFactor: 1 }
export const PHONE = { width: 390, height: 844, deviceScaleFactor: 3, isMobile: true, hasTouch: true }

/** A second, independent headless Chromium that plays the person at the panel. */
export async function launchViewerBrowser (t: Teardown): Promise<Browser> {
  const root = typeof process.getuid === 'function' && process.getuid() === 0
  const browser = await puppeteer.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu', ...(root ? ['--no-sandbox'] : [])],
    defaultViewport: null,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false
  })
  t.teardown(() => browser.close())
  return browser
}

/** The path of a minted URL on the test host (minted URLs name the configured port, 0 in tests). */
export function onHost (host: TestHost, mintedUrl: string): string {
  const u = new URL(mintedUrl)
  return host.url + u.pathname
}

export interface Viewer { context: BrowserContext, page: Page }

/** A person in their own browser profile (own cookies), with the clipboard granted to the panel. */
export async function openViewer (browser: Browser, host: TestHost, viewport: typeof DESKTOP | typeof PHONE = DESKTOP): Promise<Viewer> {
  const context = await browser.createBrowserContext()
  await context.overridePermissions(host.url, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write'])
  const page = await context.newPage()
  await page.setViewport(viewport)
  return { context, page }
}

export async function waitForFrames (page: Page, at = 1): Promise<void> {
  // Hang detectors, not budgets: a 503 page reloads itself after 5 s, then the exchange, the
  // socket's own live checks and the first frame follow, all slower on a loaded machine.
  await page.waitForFunction((n: number) => (window as any).afhttpPanelStats?.frames_drawn >= n, { timeout: 30_000 }, at)
}

export async function waitForControl (page: Page, you = true): Promise<void> {
  await page.waitForFunction((v: boolean) => (window as any).afhttpPanelStats?.you_control === v, { timeout: 30_000 }, you)
}

/**
 * Where a page viewport point (CSS px) is drawn in the panel, in the panel's client
 * pixels — read from the DOM as rendered, not from the mapping under test.
 */
export async function clientPointOf (page: Page, vx: number, vy: number): Promise<{ x: number, y: number }> {
  return page.evaluate((x: number, y: number) => {
    const canvas = document.querySelector('#afhttp-view canvas') as HTMLCanvasElement
    const r = canvas.getBoundingClientRect()
    const device = (window as any).afhttpPanelStats.device
    return { x: r.left + x * r.width / device.width, y: r.top + y * r.height / device.height }
  }, vx, vy)
}
