// The first frame (docs/panel.md "The first frame", issue 22): the panel document's first script
// opens the socket while the bundle still loads, so the host's live checks, the join and the first
// frame overlap the viewer's own loading. Shown without a clock: the viewer's browser holds the
// bundle back until the host has joined the viewer and the early socket has received (and acked)
// a frame; then the bundle takes that socket — one connection, no second one — draws what was
// held, and the person works the page through it.
import t, { type Test } from 'tap'
import type { Page } from 'puppeteer-core'
import type { TestHost } from '../helpers/host.js'
import type { TabRecord } from '../../src/tabs/types.js'
import { retainedTabShowing } from '../helpers/retained-tab.js'
import { mintPanelLink } from '../helpers/mint.js'
import { until } from '../helpers/until.js'
import { clientPointOf, onHost, openViewer, waitForControl, waitForFrames } from '../helpers/panel-browser.js'

const PAGE = `<!doctype html><title>Continue</title><body style="margin:0;font:20px sans-serif">
<button id="go" style="position:fixed;left:400px;top:200px;width:300px;height:120px">Continue</button>
<script>window.clicks = 0; document.getElementById('go').addEventListener('click', () => clicks++)</script>`

interface Held { host: TestHost, tab: TabRecord, page: Page, release: () => void, loading: Promise<unknown> }

/**
 * A retained tab showing PAGE, and a person opening its panel link whose browser holds the
 * panel's bundle back until `release()`: the document and its first script run, the bundle waits.
 */
async function openWithBundleHeld (t: Test): Promise<Held> {
  const { host, tab, browser } = await retainedTabShowing(t, PAGE)

  const { page } = await openViewer(browser, host)
  let release!: () => void
  const bundleHeld = new Promise<void>((resolve) => { release = resolve })
  let bundleAsked = false
  await page.setRequestInterception(true)
  page.on('request', (req) => {
    if (!new URL(req.url()).pathname.endsWith('/panel/lib/panel.js')) { void req.continue(); return }
    bundleAsked = true
    void bundleHeld.then(() => req.continue())
  })
  const url = onHost(host, (await mintPanelLink(host, tab.id)).takeover_url_secret)
  // Not awaited: the document's load waits for the bundle, which is held.
  const loading = page.goto(url, { waitUntil: 'domcontentloaded' }).catch(() => undefined)
  await until(() => bundleAsked, 'the viewer asking for the bundle', 30_000)
  return { host, tab, page, release, loading }
}

/** The person clicks Continue where the panel draws it; resolves once the page counted the click. */
async function clickContinue (tab: TabRecord, page: Page): Promise<number> {
  const box = await tab.page.$eval('#go', (el) => { const r = el.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 } })
  const at = await clientPointOf(page, box.x, box.y)
  await page.mouse.click(at.x, at.y)
  await tab.page.waitForFunction(() => (window as any).clicks >= 1, { timeout: 15_000 })
  return await tab.page.evaluate(() => (window as any).clicks as number)
}

t.test('the socket opened by the first script carries the first frame before the bundle runs, and the bundle takes it', async (t) => {
  const { host, tab, page, release, loading } = await openWithBundleHeld(t)

  // While the bundle waits: the host has admitted and joined the viewer and sent it a frame,
  // which the first script acked.
  const viewerOf = (): { sink: { sent: number, inFlight: { frames: number } } } | undefined => [...(host.app.panel.find(tab.id)?.viewers.values() ?? [])][0] as any
  await until(() => (viewerOf()?.sink.sent ?? 0) >= 1, 'the host sending the early socket a frame', 30_000)
  await page.waitForFunction(() => (window as any).afhttpEarlySocket?.received >= 1, { polling: 50, timeout: 30_000 })
  const early = await page.evaluate(() => ({ received: (window as any).afhttpEarlySocket?.received as number, stats: (window as any).afhttpPanelStats !== undefined }))
  t.equal(early.stats, false, 'the bundle has not run')
  t.ok(early.received >= 1, `the early socket holds ${early.received} frame(s)`)
  await until(() => viewerOf()?.sink.inFlight.frames === 0, 'the early socket acking what it received', 30_000)
  t.pass('every frame sent so far is acked: the host never queues more than the link carries, bundle or not')

  release()
  await loading
  await waitForFrames(page)
  await waitForControl(page)
  const stats = await page.evaluate(() => ({ ...(window as any).afhttpPanelStats, early: (window as any).afhttpEarlySocket }))
  t.equal(stats.ws_connects, 1, 'one connection: the bundle took the early socket')
  t.equal(stats.early, undefined, 'and the page no longer holds it aside')
  t.ok(stats.ws_open_at < stats.script_at, 'the socket was open before the bundle ran')
  t.ok(stats.frames >= early.received, `the held frames were handed over (${stats.frames} received in all)`)
  t.equal(host.app.panel.find(tab.id)?.viewers.size, 1, 'the host has one viewer')

  // The person works the page through that socket.
  t.equal(await clickContinue(tab, page), 1, 'the click reached the page once')
})

t.test('an early socket lost before the bundle runs is replaced by the bundle, as any lost connection is', async (t) => {
  const { host, tab, page, release, loading } = await openWithBundleHeld(t)

  // The connection drops (as a network would) while nobody in the page listens yet.
  const viewers = (): Array<{ ws: { terminate: () => void } }> => [...(host.app.panel.find(tab.id)?.viewers.values() ?? [])] as any
  await until(() => viewers().length === 1, 'the host joining the early socket', 30_000)
  viewers()[0].ws.terminate()
  await page.waitForFunction(() => (window as any).afhttpEarlySocket?.ws.readyState === WebSocket.CLOSED, { timeout: 15_000 })

  release()
  await loading
  // What the early socket held is drawn first; then the panel, told the connection was lost,
  // opens another after its usual backoff.
  await page.waitForFunction(() => (window as any).afhttpPanelStats?.ws_connects === 2, { timeout: 30_000 })
  t.pass('the lost early socket was handed over, then the panel opened its own')
  await until(() => host.app.panel.find(tab.id)?.viewers.size === 1, 'the host joining the new socket', 30_000)
  await waitForFrames(page)
  // A panel back after a lost connection finds the tab human_disconnected and offers "Take control"
  // (docs/spec.md section 7); the person takes it.
  await page.waitForFunction(() => (window as any).afhttpPanelStats.controller === 'human_disconnected', { timeout: 30_000 })
  await page.click('#afhttp-control')
  await waitForControl(page)
  t.equal(await clickContinue(tab, page), 1, 'and the person works the page through the new one')
})
