import t from 'tap'
import puppeteer, { type Page } from 'puppeteer-core'
import { chromium } from 'playwright-core'
import WebSocket from 'ws'
import { startHost, TEST_TOKEN } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { until } from '../helpers/until.js'

// docs/spec.md section 12: holds apply to raw CDP. Page effects on a held tab are refused with
// tab_under_human_control; observations still work; after finish everything works again.
const HELD_PAGE = '<title>Held page</title><h1>Someone is working here</h1><button id="b" onclick="document.title=\'clicked\'">Press</button>'

t.test('holds on raw CDP', async (t) => {
  const host = await startHost(t)
  const site = await startFixtureServer(t, { '/held': { body: HELD_PAGE }, '/elsewhere': { body: '<title>Elsewhere</title><p>moved</p>' } })
  const json = async (path: string, body: unknown): Promise<{ status: number, body: Record<string, any> }> => {
    const res = await host.api(path, { method: 'POST', body: JSON.stringify(body) })
    return { status: res.status, body: await res.json() as Record<string, any> }
  }
  const tab = await host.app.tabs.open(host.config.defaultProfile)
  await tab.page.goto(`${site.url}/held`)
  let mint = await json(`/v1/tabs/${tab.id}/handoff`, {})
  // A loaded machine can fail a live check for a moment (503, retryable): a driver mints again.
  for (let i = 0; i < 5 && mint.status === 503; i++) {
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    mint = await json(`/v1/tabs/${tab.id}/handoff`, {})
  }
  t.equal(mint.status, 200, 'the tab is handed to a person')
  const fence = mint.body.handoff_fence as string

  const endpoint = `${host.url.replace('http', 'ws')}/v1/profiles/${host.config.defaultProfile}/cdp`
  const remote = await puppeteer.connect({ browserWSEndpoint: endpoint, headers: { authorization: `Bearer ${TEST_TOKEN}` }, defaultViewport: null })
  t.teardown(() => remote.disconnect())
  const pages = await remote.pages()
  const held = pages.find((p) => p.url() === `${site.url}/held`) as Page
  t.ok(held, 'the client sees the held tab')
  const sizeBefore = await tab.page.evaluate(() => `${innerWidth}x${innerHeight}`)
  // docs/spec.md section 17: a driver connected with its default options (puppeteer's 800×600 viewport,
  // set on every page it attaches to) works while a tab is held.
  const plain = await puppeteer.connect({ browserWSEndpoint: endpoint, headers: { authorization: `Bearer ${TEST_TOKEN}` } })
  t.teardown(() => plain.disconnect())

  t.test('POST /v1/cdp refuses page effects and allows observations', async (t) => {
    const click = await json('/v1/cdp', { tab_id: tab.id, method: 'Input.dispatchMouseEvent', params: { type: 'mousePressed', x: 10, y: 10, button: 'left', clickCount: 1 } })
    t.equal(click.status, 409)
    t.equal(click.body.error.code, 'tab_under_human_control')
    const nav = await json('/v1/cdp', { tab_id: tab.id, method: 'Page.navigate', params: { url: `${site.url}/elsewhere` } })
    t.equal(nav.body.error.code, 'tab_under_human_control')
    const emu = await json('/v1/cdp', { tab_id: tab.id, method: 'Emulation.setDeviceMetricsOverride', params: { width: 400, height: 400, deviceScaleFactor: 1, mobile: false } })
    t.equal(emu.body.error.code, 'tab_under_human_control')
    const targetId = (held.target() as unknown as { _targetId: string })._targetId
    const closeTarget = await json('/v1/cdp', { method: 'Target.closeTarget', params: { targetId } })
    t.equal(closeTarget.body.error.code, 'tab_under_human_control', 'a browser-level close of the held target is refused')
    const title = await json('/v1/cdp', { tab_id: tab.id, method: 'Runtime.evaluate', params: { expression: 'document.title', returnByValue: true } })
    t.equal(title.status, 200)
    t.equal(title.body.result.result.value, 'Held page')
    const shot = await json('/v1/cdp', { tab_id: tab.id, method: 'Page.captureScreenshot', params: { format: 'png' } })
    t.equal(shot.status, 200)
    t.ok(shot.body.result.data.length > 100, 'a screenshot of the held tab')
    t.equal(tab.page.url(), `${site.url}/held`, 'the held page did not move')
  })

  t.test('the passthrough refuses page effects on the held tab with a CDP error', async (t) => {
    await t.rejects(held.click('#b'), /tab_under_human_control/, 'page.click')
    await t.rejects(held.goto(`${site.url}/elsewhere`), /tab_under_human_control/, 'page.goto')
    await t.rejects(held.close(), /tab_under_human_control/, 'page.close')
    t.equal(await held.evaluate(() => document.title), 'Held page', 'page.evaluate works; the click never landed')
    const shot = await held.screenshot({ type: 'png' })
    t.ok(shot.length > 100, 'page.screenshot works')
    t.notOk(tab.page.isClosed(), 'the held tab is still open')
    t.equal(tab.page.url(), `${site.url}/held`, 'and still on its page')
  })

  t.test('a command nested in Target.sendMessageToTarget is refused too', async (t) => {
    const targetId = (held.target() as unknown as { _targetId: string })._targetId
    const message = JSON.stringify({ id: 1, method: 'Input.insertText', params: { text: 'sneaky' } })
    const viaHttp = await json('/v1/cdp', { method: 'Target.sendMessageToTarget', params: { targetId, message } })
    t.equal(viaHttp.body.error?.code, 'tab_under_human_control', 'on POST /v1/cdp')
    const ws = new WebSocket(endpoint, { headers: { authorization: `Bearer ${TEST_TOKEN}` } })
    t.teardown(() => ws.close())
    await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject) })
    const answer = new Promise<Record<string, any>>((resolve) => ws.on('message', (d) => { const m = JSON.parse(String(d)); if (m.id === 77) resolve(m) }))
    ws.send(JSON.stringify({ id: 77, method: 'Target.sendMessageToTarget', params: { targetId, message } }))
    t.match((await answer).error, { code: -32000, message: /^tab_under_human_control: Input\.insertText was refused/ }, 'on the passthrough')
  })

  t.test('Playwright connects while the tab is held: it observes the held page and cannot act on it', async (t) => {
    const pw = await chromium.connectOverCDP(endpoint, { headers: { authorization: `Bearer ${TEST_TOKEN}` }, timeout: 30_000 })
    t.teardown(() => pw.close())
    // Playwright learns each attached page's URL from its frame events, a moment after connecting.
    const listedHeld = (): ReturnType<ReturnType<typeof pw.contexts>[number]['pages']>[number] | undefined => pw.contexts().flatMap((c) => c.pages()).find((p) => p.url() === `${site.url}/held`)
    await until(() => listedHeld() !== undefined, 'Playwright to list the held page').catch(() => undefined)
    const page = listedHeld()
    t.ok(page, 'Playwright lists the held page')
    t.equal(await page!.title(), 'Held page', 'and reads it')
    // Playwright retries a refused input until its timeout: the click never lands.
    await t.rejects(page!.click('#b', { timeout: 2_000 }), /Timeout 2000ms exceeded/)
    t.equal(await held.evaluate(() => document.title), 'Held page', 'the click did not land')
    const other = await pw.contexts()[0].newPage()
    await other.goto(`${site.url}/elsewhere`)
    t.equal(await other.textContent('p'), 'moved', 'its own new page works')
    await other.close()
  })

  t.test('puppeteer.connect with default options lists and observes the held tab; its emulation waits', async (t) => {
    const listed = await plain.pages()
    const page = listed.find((p) => p.url() === `${site.url}/held`)
    t.ok(page, `browser.pages() lists the held tab (${listed.length} pages)`)
    t.equal(await page!.title(), 'Held page', 'and reads it')
    t.equal(await tab.page.evaluate(() => `${innerWidth}x${innerHeight}`), sizeBefore, 'the held page keeps its size while the person works it')
    await t.rejects(page!.click('#b'), /tab_under_human_control/, 'a page effect is refused when used')
    await page!.setViewport({ width: 640, height: 480 })
    t.equal(await tab.page.evaluate(() => `${innerWidth}x${innerHeight}`), sizeBefore, 'a viewport asked for during the hold is acknowledged, not applied')
  })

  t.test('another tab is not affected by the hold', async (t) => {
    const other = await remote.newPage()
    await other.goto(`${site.url}/elsewhere`)
    await other.click('p')
    t.equal(await other.title(), 'Elsewhere')
    await other.close()
  })

  t.test('after finish the same commands work again', async (t) => {
    const done = await json(`/v1/tabs/${tab.id}/handoff/finish`, { handoff_fence: fence })
    t.equal(done.status, 200)
    let size = ''
    for (const end = Date.now() + 20_000; Date.now() < end && size !== '640x480';) {
      size = await tab.page.evaluate(() => `${innerWidth}x${innerHeight}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    t.equal(size, '640x480', 'the emulation asked for during the hold is applied once it ends (the latest one)')
    await held.click('#b')
    t.equal(await held.title(), 'clicked', 'page.click landed')
    await held.goto(`${site.url}/elsewhere`)
    t.equal(await held.title(), 'Elsewhere', 'page.goto navigated')
    const nav = await json('/v1/cdp', { tab_id: tab.id, method: 'Page.navigate', params: { url: `${site.url}/held` } })
    t.equal(nav.status, 200, 'POST /v1/cdp navigates again')
    await held.close()
    t.ok(host.app.browsers.peek(host.config.defaultProfile)?.connected, 'the host browser is still running')
  })
})
