import t from 'tap'
import type { Browser, Page, Target } from 'puppeteer-core'
import { launchViewerBrowser } from '../helpers/panel-browser.js'
import { openPageSession } from '../../src/browser/page-session.js'

// Two DevTools sessions opened on one page at once, one of them detached: does puppeteer still
// know the page, and does a popup it opens still name it as its opener? (src/browser/page-session.ts)
async function popupOpener (browser: Browser, page: Page): Promise<boolean | 'no popup'> {
  const opened = new Promise<Target | undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), 5_000)
    browser.once('targetcreated', (target: Target) => { clearTimeout(timer); resolve(target) })
  })
  await page.evaluate(() => { window.open('about:blank#popup', '_blank') })
  const target = await opened
  return target === undefined ? 'no popup' : target.opener() === page.target()
}

t.test('sessions opened on a page at the same moment leave puppeteer knowing the page', async (t) => {
  const browser = await launchViewerBrowser(t)

  t.test('through openPageSession', async (t) => {
    const page = await browser.newPage()
    const [first, second] = await Promise.all([openPageSession(page), openPageSession(page)])
    await second.detach()
    await first.detach()
    t.ok(browser.targets().includes(page.target()), 'the page is still one of the browser\'s targets')
    t.equal(await popupOpener(browser, page), true, 'a popup names the page as its opener')
    await page.close()
  })

  // The control: without the helper, the same two sessions make puppeteer lose the page. If this
  // ever passes, puppeteer no longer races and the helper may go.
  t.test('through page.createCDPSession() directly (the race the helper avoids)', async (t) => {
    const page = await browser.newPage()
    const [first, second] = await Promise.all([page.createCDPSession(), page.createCDPSession()])
    await second.detach()
    await first.detach()
    t.notOk(browser.targets().includes(page.target()), 'puppeteer forgot the page')
    await page.close().catch(() => undefined)
  })
})
