import t from 'tap'
import puppeteer from 'puppeteer-core'
import { startHost, TEST_TOKEN } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'

t.test('raw CDP over HTTP and the WebSocket passthrough', async (t) => {
  const host = await startHost(t)
  const site = await startFixtureServer(t, { '/hello': { body: '<title>Passthrough</title><h1>Hello through CDP</h1>' } })

  t.test('POST /v1/cdp runs a browser-level command', async (t) => {
    const res = await host.api('/v1/cdp', { method: 'POST', body: JSON.stringify({ method: 'Browser.getVersion', params: {} }) })
    t.equal(res.status, 200)
    t.match((await res.json()).result, { product: /Chrome/ })
  })

  t.test('POST /v1/cdp runs a tab-level command', async (t) => {
    const tab = await host.app.tabs.open(host.config.defaultProfile)
    await tab.page.goto(`${site.url}/hello`)
    const res = await host.api('/v1/cdp', { method: 'POST', body: JSON.stringify({ tab_id: tab.id, method: 'Runtime.evaluate', params: { expression: 'document.title', returnByValue: true } }) })
    t.equal(res.status, 200)
    t.equal((await res.json()).result.result.value, 'Passthrough')
  })

  t.test('bad CDP input gets coded errors', async (t) => {
    const unknown = await host.api('/v1/cdp', { method: 'POST', body: JSON.stringify({ method: 'Nope.nothing' }) })
    t.equal(unknown.status, 400)
    t.equal((await unknown.json()).error.code, 'cdp_command_failed')
    const extra = await host.api('/v1/cdp', { method: 'POST', body: JSON.stringify({ method: 'Browser.getVersion', surprise: 1 }) })
    t.equal((await extra.json()).error.details.field, 'surprise')
    const close = await host.api('/v1/cdp', { method: 'POST', body: JSON.stringify({ method: 'Browser.close' }) })
    t.equal((await close.json()).error.code, 'invalid_request')
    t.ok(host.app.browsers.peek(host.config.defaultProfile), 'the browser is still there')
  })

  t.test('puppeteer.connect works through the authenticated passthrough', async (t) => {
    const endpoint = `${host.url.replace('http', 'ws')}/v1/profiles/${host.config.defaultProfile}/cdp`
    const remote = await puppeteer.connect({ browserWSEndpoint: endpoint, headers: { authorization: `Bearer ${TEST_TOKEN}` }, defaultViewport: null })
    const page = await remote.newPage()
    await page.goto(`${site.url}/hello`)
    t.equal(await page.$eval('h1', (h) => h.textContent), 'Hello through CDP')
    await page.close()
    await remote.disconnect()
    t.ok(host.app.browsers.peek(host.config.defaultProfile)?.connected, 'disconnecting a client leaves the host browser running')
  })

  t.test('the passthrough refuses a missing token', async (t) => {
    const endpoint = `${host.url.replace('http', 'ws')}/v1/profiles/${host.config.defaultProfile}/cdp`
    await t.rejects(puppeteer.connect({ browserWSEndpoint: endpoint }), /401|Unexpected server response/)
  })
})
