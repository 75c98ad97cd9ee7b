import t, { type Test } from 'tap'
import puppeteer from 'puppeteer-core'
import { chromium } from 'playwright-core'
import { healthWhenReady, startHost, TEST_TOKEN, type TestHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { findAnchorPage } from '../../src/browser/window-anchor.js'
import { until } from '../helpers/until.js'

// Real CDP clients through the authenticated passthrough (issue 8): Playwright sends
// messages larger than the panel's WebSocket limit early in a session.
const PAGE = '<title>Client page</title><h1 id="greet">Hello, real client</h1><p>Second line</p>'

async function assertHostUnharmed (t: Test, host: TestHost, opts: { oversizeRefused?: boolean } = {}): Promise<void> {
  const browser = host.app.browsers.peek(host.config.defaultProfile)
  t.ok(browser?.connected, 'the host browser is still connected')
  t.ok(await findAnchorPage(browser!), 'the window anchor is still there')
  const { body } = await healthWhenReady(host)
  t.equal(body.status.backend_connected, true, '/health still sees the backend')
  t.equal(body.status.takeover_ready, true, '/health is still ready')
  if (!opts.oversizeRefused) t.notOk(host.logs.text().includes('Max payload size exceeded'), 'no message was refused for its size')
}

t.test('real CDP clients work through the passthrough', async (t) => {
  const host = await startHost(t)
  const site = await startFixtureServer(t, { '/client': { body: PAGE } })
  const endpoint = `${host.url.replace('http', 'ws')}/v1/profiles/${host.config.defaultProfile}/cdp`
  const authorization = `Bearer ${TEST_TOKEN}`

  t.test('Playwright connectOverCDP: page, goto, text, evaluate, screenshot, close, disconnect', async (t) => {
    const browser = await chromium.connectOverCDP(endpoint, { headers: { authorization }, timeout: 30_000 })
    const context = browser.contexts()[0] ?? await browser.newContext()
    const page = await context.newPage()
    await page.goto(`${site.url}/client`)
    t.equal(await page.textContent('#greet'), 'Hello, real client')
    t.equal(await page.evaluate(() => document.querySelectorAll('p').length), 1)
    // A large evaluate: more than the panel's 256 KiB in one client message.
    const big = 'x'.repeat(600 * 1024)
    t.equal(await page.evaluate((s) => s.length, big), big.length)
    const shot = await page.screenshot({ type: 'png' })
    t.same([...shot.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], 'a PNG came back')
    await page.close()
    await browser.close() // for a connectOverCDP browser this disconnects; the host's browser stays
    await assertHostUnharmed(t, host)
  })

  t.test('puppeteer.connect: page, goto, text, evaluate, screenshot, close, disconnect', async (t) => {
    const remote = await puppeteer.connect({ browserWSEndpoint: endpoint, headers: { authorization }, defaultViewport: null })
    const page = await remote.newPage()
    await page.goto(`${site.url}/client`)
    t.equal(await page.$eval('#greet', (h) => h.textContent), 'Hello, real client')
    const big = 'y'.repeat(600 * 1024)
    t.equal(await page.evaluate((s: string) => s.length, big), big.length)
    const shot = await page.screenshot({ type: 'png' })
    t.same([...shot.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], 'a PNG came back')
    await page.close()
    await remote.disconnect()
    await assertHostUnharmed(t, host)
  })

  t.test('a client that takes a waiting pool window keeps it: no fetch lands in it, and it is listed', async (t) => {
    const profile = host.config.defaultProfile
    await until(() => host.app.tabs.poolAvailable(profile) > 0, 'a window waiting in the pool')
    const remote = await puppeteer.connect({ browserWSEndpoint: endpoint, headers: { authorization }, defaultViewport: null })
    t.teardown(() => remote.disconnect())
    // What a script written for a plain browser does: take the first blank page there is.
    const blank = (await remote.pages()).find((p) => p.url() === 'about:blank')
    t.ok(blank, 'the client sees a blank window (a pool window)')
    await blank!.goto(`${site.url}/client?mine`)
    await until(() => host.app.tabs.list().some((x) => x.page.url() === `${site.url}/client?mine`), 'the window listed as a tab')
    for (let i = 0; i < 3; i++) {
      const res = await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/client?fetch=${i}` }) })).json() as { ok: boolean }
      t.equal(res.ok, true, `fetch ${i} answered`)
    }
    t.notOk(blank!.isClosed(), 'the client\'s page is still open')
    t.equal(blank!.url(), `${site.url}/client?mine`, 'and no fetch navigated it')
    t.equal(await blank!.$eval('#greet', (h) => h.textContent), 'Hello, real client')
    const listed = (await (await host.api('/v1/tabs')).json() as { tabs: Array<{ tab_id: string, url: string }> }).tabs.find((x) => x.url === `${site.url}/client?mine`)
    t.ok(listed, 'GET /v1/tabs lists it like any page a client opened')
    await blank!.close()
    await assertHostUnharmed(t, host)
  })

  t.test('a message over the passthrough limit closes that client only', async (t) => {
    const { default: WebSocket } = await import('ws')
    const { CDP_PASSTHROUGH_MAX_MESSAGE_BYTES } = await import('../../src/routes/cdp.js')
    const ws = new WebSocket(endpoint, { headers: { authorization } })
    await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject) })
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)))
    ws.send(Buffer.alloc(CDP_PASSTHROUGH_MAX_MESSAGE_BYTES + 1, 0x20))
    t.equal(await closed, 1009, 'closed with "message too big"')
    await assertHostUnharmed(t, host, { oversizeRefused: true })
  })
})
