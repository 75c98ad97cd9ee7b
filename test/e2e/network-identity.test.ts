// docs/spec.md section 21: a profile's egress proxy, timezone and locale. A real forward proxy on
// 127.0.0.1 that requires authentication carries everything the profile's browser loads —
// the agent's fetch, a page the person opens through the panel, loopback included — and the
// password appears in no answer, log line or event.
import t from 'tap'
import { createServer, type Server as HttpServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Server as ProxyServer } from 'proxy-chain'
import type { Page } from 'puppeteer-core'
import { startHost, type TestHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { clientPointOf, DESKTOP, launchViewerBrowser, onHost, openViewer, waitForControl, waitForFrames } from '../helpers/panel-browser.js'
import { until } from '../helpers/until.js'

const PASSWORD = 'pw-Zq81-never-shown'
const USER = 'agent'

interface TestProxy { port: number, requests: string[], refused: number, close: () => Promise<void> }

/** A forward proxy that answers 407 unless it gets USER:PASSWORD, and records what it carried. */
async function startProxy (t: { teardown: (fn: () => Promise<void>) => void }): Promise<TestProxy> {
  const requests: string[] = []
  const state = { refused: 0 }
  const server = new ProxyServer({
    port: 0,
    host: '127.0.0.1',
    prepareRequestFunction: ({ username, password, hostname, port, isHttp, request }) => {
      if (username !== USER || password !== PASSWORD) {
        state.refused++
        return { requestAuthentication: true }
      }
      requests.push(isHttp ? String(request.url) : `CONNECT ${hostname}:${port}`)
      return {}
    }
  })
  await server.listen()
  const close = async (): Promise<void> => { await server.close(true).catch(() => undefined) }
  t.teardown(close)
  return { port: server.port, requests, get refused () { return state.refused }, close }
}

/** A port nothing listens on (bound, then released). */
async function closedPort (): Promise<number> {
  const s = createServer()
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))
  const { port } = s.address() as AddressInfo
  await new Promise((resolve) => s.close(resolve))
  return port
}

const IDENTITY_PAGE = `<!doctype html><title>Who am I</title><body><p id="who"></p><script>
const o = Intl.DateTimeFormat().resolvedOptions()
document.getElementById('who').textContent = 'zone=' + o.timeZone + ' intl=' + o.locale + ' lang=' + navigator.language + ' langs=' + navigator.languages.join('|')
</script></body>`

const CHALLENGE = `<!doctype html><html><head><title>Just a moment...</title></head><body style="margin:0;font:16px sans-serif">
<div class="cf-browser-verification">Checking your browser before you continue.</div>
<div id="widgets" style="position:absolute;left:40px;top:80px;width:400px;height:200px">
<a id="go" href="/welcome" style="display:block;width:300px;height:80px;background:#ccd;font-size:24px">Continue</a></div>
</body></html>`
const WELCOME = '<!doctype html><title>Welcome</title><h1>Welcome back</h1><p>The article, with enough words in it to be content.</p>'

async function json (res: Response): Promise<any> {
  const text = await res.text()
  answers.push(text)
  return JSON.parse(text)
}
/** Every answer body the host gave, to look for the password in. */
const answers: string[] = []

async function eventsText (host: TestHost): Promise<string> {
  const ac = new AbortController()
  const res = await host.api('/v1/events?last_event_id=0', { signal: ac.signal })
  const reader = res.body!.getReader()
  let text = ''
  const stop = setTimeout(() => ac.abort(), 1_500)
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      text += Buffer.from(value).toString()
    }
  } catch { /* aborted: we have what the journal replayed */ }
  clearTimeout(stop)
  return text
}

t.test('a profile with a proxy, a timezone and a locale', async (t) => {
  const proxyA = await startProxy(t)
  const proxyB = await startProxy(t)
  const acceptLanguage: string[] = []
  const site = await startFixtureServer(t, {
    '/who': { body: (req) => { acceptLanguage.push(String(req.headers['accept-language'])); return IDENTITY_PAGE } },
    '/challenge': { body: CHALLENGE },
    '/welcome': { body: WELCOME },
    '/plain': { body: WELCOME }
  })
  const host = await startHost(t, { startBrowser: false })
  const proxyUrl = (port: number, pw = PASSWORD): string => `http://${USER}:${pw}@127.0.0.1:${port}`

  const created = await json(await host.api('/v1/profiles', { method: 'POST', body: JSON.stringify({ name: 'tokyo', proxy: proxyUrl(proxyA.port), timezone: 'Asia/Tokyo', locale: 'fr-fr' }) }))
  t.equal(created.profile.proxy, `http://${USER}:redacted@127.0.0.1:${proxyA.port}`, 'the create answer redacts the password')
  t.equal(created.profile.locale, 'fr-FR', 'the locale is kept in its canonical spelling')
  t.equal(created.profile.timezone, 'Asia/Tokyo')

  t.test('GET /v1/profiles and the description redact the password', async (t) => {
    const list = await json(await host.api('/v1/profiles'))
    const tokyo = list.profiles.find((p: any) => p.name === 'tokyo')
    t.equal(tokyo.proxy, `http://${USER}:redacted@127.0.0.1:${proxyA.port}`)
    const described = await json(await host.api('/v1/profiles/tokyo'))
    t.equal(described.profile.proxy, tokyo.proxy)
  })

  t.test("the agent's fetch goes through the proxy, loopback included, with the host answering its authentication", async (t) => {
    const before = site.hits('/who')
    const res = await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/who`, profile: 'tokyo' }) })
    const body = await json(res)
    t.equal(res.status, 200)
    t.equal(body.ok, true, 'the page loaded through the proxy')
    t.ok(proxyA.requests.includes(`${site.url}/who`), 'the proxy carried the fetch of a loopback page')
    t.equal(site.hits('/who'), before + 1)
    t.match(body.artifacts.text, /zone=Asia\/Tokyo intl=fr-FR lang=fr-FR langs=fr-FR\|fr/, 'the page sees the profile\'s timezone and locale')
    t.equal(acceptLanguage.at(-1), 'fr-FR,fr;q=0.9', 'and so does the site')
  })

  t.test('a popup of the profile has the same timezone and locale', async (t) => {
    const browser = host.app.browsers.peek('tokyo')!
    const opener = await browser.newPage()
    t.teardown(() => opener.close().catch(() => undefined))
    await opener.goto(`${site.url}/plain`)
    const popupP = new Promise<Page>((resolve) => opener.once('popup', (p) => resolve(p!)))
    await opener.evaluate((url: string) => { window.open(url, '_blank', 'popup') }, `${site.url}/who`)
    const popup = await popupP
    t.teardown(() => popup.close().catch(() => undefined))
    await popup.waitForFunction(() => document.getElementById('who')?.textContent !== '', { timeout: 15_000 })
    // The popup's own first script ran before the host could reach it: read the values now, and the page's.
    const now = await popup.evaluate(() => {
      const o = Intl.DateTimeFormat().resolvedOptions()
      return { zone: o.timeZone, intl: o.locale, lang: navigator.language, text: document.getElementById('who')!.textContent }
    })
    t.equal(now.zone, 'Asia/Tokyo')
    t.equal(now.intl, 'fr-FR')
    t.equal(now.lang, 'fr-FR')
    t.match(now.text, /zone=Asia\/Tokyo .*lang=fr-FR/)
    t.ok(proxyA.requests.includes(`${site.url}/who`), 'the popup loaded through the proxy too')
  })

  t.test('a page the person opens in the panel goes through the proxy', async (t) => {
    const fetched = await json(await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/challenge`, profile: 'tokyo', takeover: true, region: '#widgets' }) }))
    const action = fetched.actions[0]
    t.ok(action?.takeover_url_secret, 'a panel URL')
    const viewer = await launchViewerBrowser(t)
    const { page: panel } = await openViewer(viewer, host, DESKTOP)
    await panel.goto(onHost(host, action.takeover_url_secret))
    await waitForFrames(panel)
    await waitForControl(panel)
    const p = await clientPointOf(panel, 120, 120)
    await panel.mouse.click(p.x, p.y)
    await until(() => proxyA.requests.includes(`${site.url}/welcome`), 'the proxy carries the page the person opened')
    await until(() => site.hits('/welcome') === 1, 'the site answers it, once')
    t.pass('the page the person opened went through the proxy')
  })

  t.test('a changed proxy takes effect when the browser next starts, and the answer says so', async (t) => {
    const patched = await json(await host.api('/v1/profiles/tokyo', { method: 'PATCH', body: JSON.stringify({ proxy: proxyUrl(proxyB.port) }) }))
    t.same(patched.applies_at_next_start, ['proxy'])
    t.match(patched.warnings, [{ code: 'browser_restart_needed' }], 'the running browser keeps the old proxy, and the answer says so')
    t.equal(patched.profile.proxy, `http://${USER}:redacted@127.0.0.1:${proxyB.port}`)
    const labels = await json(await host.api('/v1/profiles/tokyo', { method: 'PATCH', body: JSON.stringify({ labels: { team: 'a' } }) }))
    t.equal(labels.applies_at_next_start, undefined, 'a label change waits for nothing')

    // Counted by URL: the tab the person worked in the test before may still load through proxy A
    // (it lives in the old browser until that closes), and a loaded machine lets it land here.
    const plainVia = (proxy: typeof proxyA): number => proxy.requests.filter((u) => u === `${site.url}/plain`).length
    const aBefore = plainVia(proxyA)
    t.equal((await json(await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/plain`, profile: 'tokyo' }) }))).ok, true)
    t.equal(plainVia(proxyA), aBefore + 1, 'still the old proxy while this browser runs')
    t.equal(proxyB.requests.length, 0)

    const browser = host.app.browsers.peek('tokyo')!
    await browser.close()
    await until(() => host.app.browsers.peek('tokyo') === undefined, 'the browser is gone')
    t.equal((await json(await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/plain`, profile: 'tokyo' }) }))).ok, true)
    t.ok(proxyB.requests.includes(`${site.url}/plain`), 'the next start uses the new proxy')
    t.equal(plainVia(proxyA), aBefore + 1, 'and the old one carries nothing more')
  })

  t.test('a proxy that is down or refuses the credentials fails the fetch with proxy_unreachable, not at its deadline', async (t) => {
    const down = await closedPort()
    await json(await host.api('/v1/profiles', { method: 'POST', body: JSON.stringify({ name: 'down', proxy: proxyUrl(down) }) }))
    await json(await host.api('/v1/profiles', { method: 'POST', body: JSON.stringify({ name: 'wrongpw', proxy: proxyUrl(proxyA.port, 'not-the-password') }) }))
    const hits = site.hits('/plain')
    for (const profile of ['down', 'wrongpw']) {
      // A deadline far beyond the test's patience: a fetch that waited for it would be navigation_timeout.
      const res = await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/plain`, profile, timeout_ms: 120_000 }) })
      const body = await json(res)
      t.equal(res.status, 502, profile)
      t.equal(body.error.code, 'proxy_unreachable', profile)
      t.equal(body.error.retryable, true)
    }
    t.equal(site.hits('/plain'), hits, 'nothing reached the site')
    t.ok(proxyA.refused > 0, 'the proxy was asked with the wrong password, and refused it')
  })

  t.test('bad input is invalid_request naming the field', async (t) => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ proxy: 'ftp://127.0.0.1:21' }, 'proxy'],
      [{ proxy: `socks4://${USER}:${PASSWORD}@127.0.0.1:1080` }, 'proxy'],
      [{ proxy: `http://${USER}:${PASSWORD}@127.0.0.1:3128/path` }, 'proxy'],
      [{ proxy: 'http://127.0.0.1:3128/?x=1' }, 'proxy'],
      [{ proxy: 'not a url' }, 'proxy'],
      [{ timezone: 'Mars/Olympus_Mons' }, 'timezone'],
      [{ timezone: '+05:00' }, 'timezone'],
      [{ locale: 'not a locale' }, 'locale'],
      [{ locale: 'fr_FR' }, 'locale']
    ]
    for (const [patch, field] of cases) {
      for (const [method, path, body] of [['POST', '/v1/profiles', { name: 'bad', ...patch }], ['PATCH', '/v1/profiles/tokyo', patch]] as const) {
        const res = await host.api(path, { method, body: JSON.stringify(body) })
        const answer = await json(res)
        t.equal(res.status, 400, `${method} ${JSON.stringify(patch)}`)
        t.equal(answer.error.code, 'invalid_request')
        t.equal(answer.error.details.field, field)
      }
    }
    const cdp = await host.api('/v1/profiles', { method: 'POST', body: JSON.stringify({ name: 'remote', backend: 'cdp', cdp_url: 'http://127.0.0.1:9', proxy: proxyUrl(proxyA.port) }) })
    t.equal((await json(cdp)).error.details.field, 'proxy', 'a cdp profile cannot have a proxy: the host does not launch its browser')
  })

  t.test('the password is in no answer, log line or event', async (t) => {
    answers.push(await eventsText(host))
    t.ok(host.logs.raw.length > 0)
    t.notMatch(host.logs.text(), PASSWORD, 'no log line')
    t.notMatch(host.logs.text(), 'not-the-password')
    t.match(host.logs.text(), /egress forwarder started/, 'the forwarder is logged, redacted')
    for (const a of answers) {
      t.notOk(a.includes(PASSWORD), 'no answer or event')
      t.notOk(a.includes('not-the-password'))
    }
  })
})

interface Counting { url: string, connections: number, close: () => Promise<void> }

/** A server that counts every TCP connection made to it: a denied address must see none. */
async function countingServer (t: { teardown: (fn: () => Promise<void>) => void }, host: string, port = 0): Promise<Counting> {
  const server: HttpServer = createServer((_req, res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<!doctype html><title>inside</title><p>internal data</p>') })
  const state = { connections: 0 }
  server.on('connection', () => { state.connections++ })
  await new Promise<void>((resolve) => server.listen(port, host, resolve))
  const close = (): Promise<void> => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()) })
  t.teardown(close)
  return { url: `http://${host}:${(server.address() as AddressInfo).port}`, get connections () { return state.connections }, close }
}

t.test('AFHTTP_URL_DENY refuses by the address connected to: first URL, redirect, subframe, subresource', async (t) => {
  // 127.0.0.1 and 127.0.0.2 are denied; allowed pages are served from 127.0.0.3.
  const denied = await countingServer(t, '127.0.0.2')
  const deniedByName = await countingServer(t, '127.0.0.1')
  const port = deniedByName.url.split(':')[2]
  const pages = createServer((req, res) => {
    if (req.url === '/redirect') { res.writeHead(302, { location: `${denied.url}/secret` }); res.end(); return }
    res.writeHead(200, { 'content-type': 'text/html' })
    res.end(`<!doctype html><title>Embeds</title><body><h1>A page with enough text to be content</h1>
<iframe src="${denied.url}/frame"></iframe><img src="${denied.url}/pixel.png"><img src="http://localhost:${port}/pixel.png"></body>`)
  })
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.3', resolve))
  t.teardown(() => new Promise<void>((resolve) => { pages.closeAllConnections(); pages.close(() => resolve()) }))
  const allowed = `http://127.0.0.3:${(pages.address() as AddressInfo).port}`

  const host = await startHost(t, { startBrowser: false, env: { AFHTTP_URL_DENY: '127.0.0.2/32, 127.0.0.1/32' } })
  const fetch = async (url: string): Promise<{ status: number, body: any }> => {
    const res = await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url, timeout_ms: 60_000 }) })
    return { status: res.status, body: await res.json() }
  }

  await t.test('the first URL', async (t) => {
    const { status, body } = await fetch(`${denied.url}/secret`)
    t.equal(status, 400)
    t.equal(body.error.code, 'url_not_allowed')
    t.match(body.error.message, /AFHTTP_URL_DENY/)
  })

  await t.test('a name that resolves to a denied address', async (t) => {
    const { body } = await fetch(`http://localhost:${port}/`)
    t.equal(body.error.code, 'url_not_allowed', 'localhost resolves to 127.0.0.1: refused')
  })

  await t.test('a redirect to a denied address', async (t) => {
    const { body } = await fetch(`${allowed}/redirect`)
    t.equal(body.error.code, 'url_not_allowed')
  })

  await t.test('a subframe and images on a denied address are refused; the page still loads and says so', async (t) => {
    const { status, body } = await fetch(`${allowed}/embeds`)
    t.equal(status, 200)
    t.equal(body.status, 200)
    t.match(body.artifacts.text, /enough text to be content/)
    t.match(body.warnings, [{ code: 'url_not_allowed' }])
  })

  t.equal(denied.connections, 0, 'the denied address was never contacted')
  t.equal(deniedByName.connections, 0, 'nor the one the name resolved to')
  t.match(host.logs.text(), /refused a request to an address AFHTTP_URL_DENY names/)
})
