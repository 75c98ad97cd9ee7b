// A phone whose browser predates OffscreenCanvas and AbortSignal.timeout (Safari before 16.4 and
// 16, still on some older iPhones): the panel keeps its recent frames in detached <canvas>
// elements, and its status poll times out with its own timer. The viewer is a mobile-emulated
// headless Chromium with both removed before the panel's scripts run; the person pinches in,
// gets a sharp still, and taps a target on the page, and the status poll is answered.
import t from 'tap'
import { startHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { clientPointOf, launchViewerBrowser, onHost, openViewer, PHONE, waitForControl, waitForFrames } from '../helpers/panel-browser.js'

const PAGE = `<!doctype html><title>Confirm</title><body style="margin:0;font:16px sans-serif">
<p>Please confirm.</p>
<button id="ok" style="position:absolute;left:600px;top:300px;width:40px;height:24px">OK</button>
<script>window.clicks = []; addEventListener('click', (e) => clicks.push(e.target.id))</script>`

t.test('the panel works on a phone without OffscreenCanvas or AbortSignal.timeout', async (t) => {
  const host = await startHost(t)
  const site = await startFixtureServer(t, { '/confirm': { status: 403, body: PAGE } })
  const browser = await launchViewerBrowser(t)
  const fetched = await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/confirm`, takeover: true }) })).json() as any
  const tab = host.app.tabs.get(fetched.tab_id)
  const { page } = await openViewer(browser, host, PHONE)
  const errors: string[] = []
  page.on('pageerror', (err) => errors.push(String(err)))
  await page.evaluateOnNewDocument(() => { delete (window as any).OffscreenCanvas; delete (AbortSignal as any).timeout })
  await page.goto(onHost(host, fetched.actions[0].takeover_url_secret))
  t.same(await page.evaluate(() => [typeof (window as any).OffscreenCanvas, typeof (AbortSignal as any).timeout]), ['undefined', 'undefined'], 'the viewer has neither')
  await waitForFrames(page)
  await waitForControl(page)
  await page.waitForFunction(() => (window as any).afhttpPanelStats.status_answers >= 1, { timeout: 10_000, polling: 50 })
  t.pass('the status poll was answered')

  const cdp = await page.createCDPSession()
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', points: Array<{ x: number, y: number }>): Promise<unknown> =>
    cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map((p, id) => ({ ...p, id })) })
  const at = await clientPointOf(page, 620, 312)
  await touch('touchStart', [{ x: at.x - 15, y: at.y }, { x: at.x + 15, y: at.y }])
  for (let half = 15; half <= 95; half += 10) await touch('touchMove', [{ x: at.x - half, y: at.y }, { x: at.x + half, y: at.y }])
  await touch('touchEnd', [])
  t.ok(await page.evaluate(() => (window as any).afhttpPanelStats.zoom) >= 4, 'the pinch zoomed the view')
  await page.waitForFunction(() => (window as any).afhttpPanelStats.stills_drawn >= 1, { timeout: 10_000, polling: 50 })
  t.pass('a sharp still of what is shown was drawn')

  const button = await clientPointOf(page, 620, 312)
  await page.touchscreen.tap(button.x, button.y)
  await tab.page.waitForFunction(() => (window as any).clicks.includes('ok'), { timeout: 10_000, polling: 50 })
  t.pass('a tap on the zoomed page reached its button')
  t.same(errors, [], 'the panel page threw nothing')
})
