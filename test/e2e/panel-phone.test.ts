// The panel on a phone (SPEC section 10 "Phones"): a mobile-emulated headless Chromium
// (390×844, device scale 3, touch) pinches with two touch points through CDP, taps a 12 px
// target and lands within 1 CSS px, double-taps back out, taps a field (the soft keyboard
// rises by itself) and types non-ASCII text.
import t from 'tap'
import { startHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { clientPointOf, launchViewerBrowser, onHost, openViewer, PHONE, waitForControl, waitForFrames } from '../helpers/panel-browser.js'

const PAGE = `<!doctype html><title>Tiny targets</title><body style="margin:0;font:16px sans-serif">
<p>Please confirm.</p>
<div id="dot" style="position:absolute;left:600px;top:300px;width:12px;height:12px;background:#c00"></div>
<input id="name" style="position:absolute;left:100px;top:500px;width:400px;height:40px;font-size:20px">
<script>window.clicks = []; addEventListener('mousedown', (e) => clicks.push({ x: e.clientX, y: e.clientY }))</script>`

t.test('pinch, tap a 12 px target, double tap, type on a phone', async (t) => {
  const host = await startHost(t)
  const site = await startFixtureServer(t, { '/confirm': { status: 403, body: PAGE } })
  const browser = await launchViewerBrowser(t)
  const fetched = await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/confirm`, takeover: true }) })).json() as any
  const tab = host.app.tabs.get(fetched.tab_id)
  const { page } = await openViewer(browser, host, PHONE)
  await page.goto(onHost(host, fetched.actions[0].takeover_url_secret))
  await waitForFrames(page)
  await waitForControl(page)
  const cdp = await page.createCDPSession()
  const touch = async (type: 'touchStart' | 'touchMove' | 'touchEnd', points: Array<{ x: number, y: number }>): Promise<void> => {
    await cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map((p, id) => ({ ...p, id })) })
  }

  // Pinch open around the dot: fingers 30 px apart spread to 190 px.
  const dot = { x: 606, y: 306 }
  const at = await clientPointOf(page, dot.x, dot.y)
  await touch('touchStart', [{ x: at.x - 15, y: at.y }, { x: at.x + 15, y: at.y }])
  for (let half = 15; half <= 95; half += 10) await touch('touchMove', [{ x: at.x - half, y: at.y }, { x: at.x + half, y: at.y }])
  await touch('touchEnd', [])
  const zoom: number = await page.evaluate(() => (window as any).afhttpPanelStats.zoom)
  t.ok(zoom >= 4, `the view zoomed to ${zoom}×`)
  t.same(await tab.page.evaluate(() => (window as any).clicks), [], 'the pinch never reached the page')
  t.same(await tab.page.evaluate(() => ({ w: innerWidth, h: innerHeight })), { w: 1280, h: 720 }, 'the zoom never changes the page')

  t.test('a tap on the 12 px target lands within 1 CSS px at that zoom', async (t) => {
    const p = await clientPointOf(page, dot.x, dot.y)
    const box = await page.$eval('#afhttp-view', (el) => el.getBoundingClientRect().toJSON())
    t.ok(p.x > box.left && p.x < box.right && p.y > box.top && p.y < box.bottom, 'the target is on screen, around the fingers')
    await page.touchscreen.tap(p.x, p.y)
    await tab.page.waitForFunction(() => (window as any).clicks.length === 1, { timeout: 5_000, polling: 50 })
    const [click] = await tab.page.evaluate(() => (window as any).clicks)
    t.ok(Math.abs(click.x - dot.x) <= 1 && Math.abs(click.y - dot.y) <= 1, `landed at ${click.x},${click.y}`)
  })

  t.test('a double tap zooms back out', async (t) => {
    const p = await clientPointOf(page, 625, 325)
    await page.touchscreen.tap(p.x, p.y)
    await page.touchscreen.tap(p.x, p.y)
    await page.waitForFunction(() => (window as any).afhttpPanelStats.zoom === 1, { timeout: 5_000, polling: 50 })
    t.pass('zoom is 1 again')
  })

  t.test('tapping a field raises the keyboard; non-ASCII text arrives as typed', async (t) => {
    const p = await clientPointOf(page, 300, 520)
    await page.touchscreen.tap(p.x, p.y)
    await tab.page.waitForFunction(() => document.activeElement?.id === 'name', { timeout: 5_000, polling: 50 })
    await page.waitForFunction(() => document.activeElement?.id === 'afhttp-keys', { timeout: 5_000, polling: 50 })
    t.pass('the panel focused its keyboard field without another tap')
    await page.keyboard.type('ışık é ✓')
    await tab.page.waitForFunction(() => (document.getElementById('name') as HTMLInputElement).value === 'ışık é ✓', { timeout: 5_000, polling: 50 })
    t.pass('the text arrived as typed')
  })
})
