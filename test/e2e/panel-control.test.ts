// Exchange, lease and control rules of the panel (docs/spec.md sections 7, 9, 12), with real
// Chromium on both sides: secrets work once, leases are HttpOnly/Strict cookies, the
// WebSocket wants the lease and its own origin, a viewer's disconnect keeps human control
// and lets go of what it held, a second viewer cannot take over, Done finishes.
import t from 'tap'
import WebSocket from 'ws'
import type { HTTPRequest } from 'puppeteer-core'
import { startHost, type TestHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { mintPanelLink } from '../helpers/mint.js'
import { launchViewerBrowser, onHost, openViewer, waitForControl, waitForFrames } from '../helpers/panel-browser.js'
import { decodeFrame } from '../../src/panel/frame-codec.js'
import { ManualClock } from '../../src/core/clock.js'
import { WS_MESSAGE_BYTES_MAX } from '../../src/limits.js'
import { openLink } from '../helpers/open-link.js'
import { retry503 } from '../helpers/retry-503.js'

const WALL = `<!doctype html><title>Sign in required</title><body style="margin:0;font:16px sans-serif">
<p style="height:3000px">Please sign in to keep reading this article.</p>
<button id="big" style="position:absolute;left:100px;top:100px;width:400px;height:200px">Press here</button>
<script>window.log = []; for (const type of ['mousedown', 'mouseup', 'keydown', 'keyup']) addEventListener(type, (e) => log.push({ type, key: e.key, buttons: e.buttons }))</script>`

interface Exchanged { cookie: string, location: string, setCookie: string, token: string }

async function exchanged (url: string): Promise<Exchanged> {
  const res = await openLink(url)
  // A refusal is an HTML page that says why: show it, not just an empty cookie.
  if (res.status !== 303) throw new Error(`exchange answered ${res.status}: ${(await res.text()).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim()}`)
  const setCookie = res.headers.getSetCookie()[0] ?? ''
  const pair = setCookie.split(';')[0]
  return { cookie: pair, location: res.headers.get('location') ?? '', setCookie, token: pair.split('=')[1] ?? '' }
}

async function mint (host: TestHost, tabId: string): Promise<string> {
  return onHost(host, (await mintPanelLink(host, tabId)).takeover_url_secret)
}

type Opened = { ws: WebSocket, messages: any[], frames: Buffer[] } | { status: number }

/**
 * Opens the panel socket as the panel does: a 503 (a live check failed for a moment on a loaded
 * machine) is tried again after a pause, as the panel's own reconnect with backoff would.
 */
async function openSocket (host: TestHost, tabId: string, headers: Record<string, string>): Promise<Opened> {
  for (let attempt = 1; ; attempt++) {
    const opened = await openSocketOnce(host, tabId, headers)
    if (!('status' in opened) || opened.status !== 503 || attempt === 5) return opened
    await new Promise((resolve) => setTimeout(resolve, 500 * attempt))
  }
}

function openSocketOnce (host: TestHost, tabId: string, headers: Record<string, string>): Promise<Opened> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${host.url.replace('http', 'ws')}/panel/ws?tab=${tabId}`, { headers })
    const messages: any[] = []
    const frames: Buffer[] = []
    ws.on('message', (data, isBinary) => { if (isBinary) frames.push(data as Buffer); else messages.push(JSON.parse(data.toString())) })
    ws.on('open', () => resolve({ ws, messages, frames }))
    ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0 }))
  })
}

const until = async (what: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> => {
  const end = Date.now() + ms
  while (!(await what())) {
    if (Date.now() > end) throw new Error('condition not reached in time')
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

t.test('panel exchange, lease and control', async (t) => {
  const host = await startHost(t)
  const site = await startFixtureServer(t, { '/wall': { status: 403, body: WALL } })
  const browser = await launchViewerBrowser(t)
  const secrets: string[] = []
  const tokens: string[] = []
  const fetched = await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/wall`, takeover: true }) })).json() as any
  const tabId: string = fetched.tab_id
  const tab = host.app.tabs.get(tabId)
  const summary = async (): Promise<any> => (await host.api(`/v1/tabs/${tabId}/handoff`)).json()
  const pageLog = async (): Promise<Array<{ type: string, key?: string, buttons: number }>> => tab.page.evaluate(() => (window as any).log)
  const first = onHost(host, fetched.actions[0].takeover_url_secret)
  secrets.push(first)
  let raw: Exchanged

  t.test('a secret is exchanged once for an HttpOnly, SameSite=Strict lease scoped to /panel', async (t) => {
    raw = await exchanged(first)
    tokens.push(raw.token)
    t.equal(raw.location, `/panel/?tab=${tabId}`, 'redirects to /panel/ without the secret')
    t.match(raw.setCookie, new RegExp(`^afhttp_lease_${tabId}=[A-Za-z0-9_-]{40,};`))
    t.match(raw.setCookie, /; Path=\/panel(;|$)/)
    t.match(raw.setCookie, /; HttpOnly/)
    t.match(raw.setCookie, /; SameSite=Strict/)
    t.notMatch(raw.setCookie, /Secure/, 'no Secure flag on a plain-http public URL')

    const again = await openLink(first)
    t.equal(again.status, 410, 'a reused secret is gone')
    t.match(await again.text(), /already used/)
    const unknown = await openLink(`${host.url}/takeover/${'A'.repeat(43)}`)
    t.equal(unknown.status, 410)
    t.match(await unknown.text(), /does not work/)
    t.equal((await openLink(`${host.url}/takeover/<script>`)).status, 410, 'a malformed secret is just unknown')

    const bare = await fetch(`${host.url}/panel/?tab=${tabId}`)
    t.equal(bare.status, 401, 'the panel document needs the lease')
    const doc = await retry503(() => fetch(`${host.url}/panel/?tab=${tabId}`, { headers: { cookie: raw.cookie } }))
    t.equal(doc.status, 200)
    t.match(await doc.text(), /id="afhttp-view"/)
    t.match(doc.headers.get('content-security-policy') ?? '', /default-src 'self'/)
    t.equal((await fetch(`${host.url}/panel/index.html`)).status, 404, 'the document is not served around the lease')

    const status = await fetch(`${host.url}/panel/api/status?tab=${tabId}`, { headers: { cookie: raw.cookie } })
    t.match(await status.json(), { handoff: { tab_id: tabId, state: 'open' } })
    t.equal((await (await fetch(`${host.url}/panel/api/status?tab=${tabId}`)).json() as any).error.code, 'panel_lease_invalid')
    const renew = await retry503(() => fetch(`${host.url}/panel/api/lease?tab=${tabId}`, { method: 'POST', headers: { cookie: raw.cookie, origin: host.url } }))
    t.equal(renew.status, 200)
    const cross = await fetch(`${host.url}/panel/api/lease?tab=${tabId}`, { method: 'POST', headers: { cookie: raw.cookie, origin: 'http://evil.example' } })
    t.equal((await cross.json() as any).error.code, 'panel_origin_refused')
  })

  t.test('the WebSocket wants its own origin and the lease; frames are binary; stale input is dropped', async (t) => {
    t.match(await openSocket(host, tabId, { origin: 'http://evil.example', cookie: raw.cookie }), { status: 403 }, 'a foreign origin is refused')
    t.match(await openSocket(host, tabId, { origin: host.url }), { status: 401 }, 'no lease, no socket')
    const conn = await openSocket(host, tabId, { origin: host.url, cookie: raw.cookie })
    if (!('ws' in conn)) throw new Error(`socket refused: ${conn.status}`)
    const { ws, messages, frames } = conn
    await until(() => frames.length > 0 && messages.some((m) => m.t === 'state'))
    const frame = decodeFrame(frames[0])
    t.match(frame.header, { deviceWidth: 1280, deviceHeight: 720, aim: { kind: 'viewport' } }, 'a primed first frame with its metadata')
    t.same([...frame.jpeg.subarray(0, 2)], [0xff, 0xd8], 'the JPEG travels as raw bytes')
    const state = messages.findLast((m) => m.t === 'state')
    t.match(state, { you_control: true, controller: 'human' }, 'the first connection of a lease takes an untouched tab')
    ws.send(JSON.stringify({ t: 'size', width: 800, height: 450, dpr: 1 }))

    const click = (g: number): void => {
      ws.send(JSON.stringify({ t: 'mouse', type: 'down', g, x: 300, y: 200, button: 'left', clicks: 1 }))
      ws.send(JSON.stringify({ t: 'mouse', type: 'up', g, x: 300, y: 200, button: 'left', clicks: 1 }))
    }
    click(state.generation - 1)
    // Dropped, but not silently (docs/spec.md section 17): the viewer is told why.
    await until(() => messages.some((m) => m.t === 'refused' && m.action === 'input' && m.reason === 'stale' && /control/i.test(m.message)))
    t.pass('input under an old generation is answered with a refusal the panel shows')
    const real = await (await host.api(`/v1/tabs/${tabId}/snapshot`, { method: 'POST', body: '{}' })).json() as any
    t.equal(real.handoff.state, 'human', 'observations keep working while a person drives')
    t.equal((await pageLog()).length, 0, 'input under an old generation never reaches the page')
    click(state.generation)
    await until(async () => (await pageLog()).filter((e) => e.type === 'mouseup').length === 1)
    t.pass('input under the current generation does')
    const refused = await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ tab_id: tabId }) })).json() as any
    t.equal(refused.error.code, 'tab_under_human_control')

    const second = await openSocket(host, tabId, { origin: host.url, cookie: raw.cookie })
    if (!('ws' in second)) throw new Error('second socket refused')
    await until(() => second.messages.some((m) => m.t === 'state'))
    t.match(second.messages.find((m) => m.t === 'state'), { you_control: false }, 'a second connection only watches')
    second.ws.send(JSON.stringify({ t: 'mouse', type: 'down', g: state.generation, x: 300, y: 200, button: 'left', clicks: 1 }))
    second.ws.send(JSON.stringify({ t: 'take' }))
    await until(() => second.messages.some((m) => m.t === 'refused'))
    t.equal((await pageLog()).filter((e) => e.type === 'mousedown').length, 1, 'a watcher\'s input is dropped by the host')
    second.ws.close()

    ws.send(JSON.stringify({ t: 'paste', g: state.generation, text: 'x'.repeat(20_000) }))
    await until(() => messages.some((m) => m.t === 'error' && /limit/.test(m.message)))
    t.pass('an oversized paste is refused, not cut')
    ws.send(JSON.stringify({ t: 'release' }))
    await until(async () => (await summary()).controller === 'agent')
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)))
    ws.send('x'.repeat(WS_MESSAGE_BYTES_MAX + 1))
    t.equal(await closed, 1009, 'an oversized message closes the socket')
  })

  t.test('a viewer that disconnects keeps human control, and what it held is released', async (t) => {
    const url = await mint(host, tabId)
    secrets.push(url)
    const a = await openViewer(browser, host)
    await a.page.goto(url)
    await waitForFrames(a.page)
    await waitForControl(a.page)
    await a.page.evaluate(() => { (window as any).log = [] }).catch(() => undefined)
    await tab.page.evaluate(() => { (window as any).log = [] })
    const box = await a.page.$eval('#afhttp-view', (el) => { const r = el.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 } })
    await a.page.mouse.move(box.x, box.y)
    await a.page.mouse.down()
    await a.page.keyboard.down('ArrowRight')
    await until(async () => (await pageLog()).some((e) => e.type === 'keydown' && e.key === 'ArrowRight'))
    t.ok((await pageLog()).some((e) => e.type === 'mousedown' && e.buttons === 1), 'the button is down in the page')
    // The network drops (the host loses the socket; the viewer's page never blurs or unloads).
    for (const v of host.app.panel.find(tabId)!.viewers.values()) v.ws.terminate()
    await until(async () => (await summary()).state === 'human_disconnected')
    t.equal((await summary()).controller, 'human_disconnected', 'control does not go back to the agent')
    await until(async () => (await pageLog()).some((e) => e.type === 'mouseup'))
    t.ok((await pageLog()).some((e) => e.type === 'keyup' && e.key === 'ArrowRight'), 'the held key is released in the page')

    // The panel reconnects by itself and shows "Take control".
    const back = a.page
    await back.waitForFunction(() => (window as any).afhttpPanelStats.ws_connects >= 2)
    await back.waitForFunction(() => (window as any).afhttpPanelStats.state === 'human_disconnected')
    await back.mouse.up()
    await back.keyboard.up('ArrowRight')
    t.equal(await back.$eval('#afhttp-control', (el) => el.textContent), 'Take control')
    await back.click('#afhttp-control')
    await waitForControl(back)
    t.equal((await summary()).state, 'human')
    t.equal(await back.$eval('#afhttp-focus', (el) => (el as HTMLElement).dataset.state), 'none', 'the panel says typing would go nowhere')
    const hold = await back.waitForFunction(() => /^\d+:\d\d left$/.test(document.querySelector('#afhttp-hold')?.textContent ?? ''), { timeout: 20_000 })
      .then(() => true, async () => JSON.stringify({ text: await back.$eval('#afhttp-hold', (el) => el.textContent), stats: await back.evaluate(() => (window as any).afhttpPanelStats) }))
    t.equal(hold, true, 'the remaining hold time is shown')

    t.test('the wheel scrolls the page', async (t) => {
      const view = await back.$eval('#afhttp-view', (el) => { const r = el.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 } })
      await back.mouse.move(view.x, view.y)
      await back.mouse.wheel({ deltaY: 400 })
      await tab.page.waitForFunction(() => window.scrollY > 0, { timeout: 20_000, polling: 50 })
      t.pass('scrolled')
      await tab.page.evaluate(() => window.scrollTo(0, 0))
    })

    t.test('three failed status polls show the connection banner; it clears by itself', async (t) => {
      // Polls run one after another, so the banner's state when poll n+1 goes out is its
      // state after n answers: hidden after 2 failures, shown after 3, hidden after a success.
      const hiddenWhenSent: boolean[] = []
      let polls = 0
      let seen!: () => void
      const fourth = new Promise<void>((resolve) => { seen = resolve })
      await back.setRequestInterception(true)
      const route = async (req: HTTPRequest): Promise<void> => {
        if (!req.url().includes('/panel/api/status') || polls >= 5) { void req.continue().catch(() => undefined); return }
        const n = ++polls
        hiddenWhenSent[n] = await back.$eval('#afhttp-banner', (el) => (el as HTMLElement).hidden).catch(() => true)
        if (n <= 3) void req.abort().catch(() => undefined)
        else void req.continue().catch(() => undefined)
        if (n === 4) seen()
      }
      const onRequest = (req: HTTPRequest): void => { void route(req) }
      back.on('request', onRequest)
      await fourth
      t.same(hiddenWhenSent.slice(1, 4), [true, true, true], 'no banner after one or two failed polls')
      t.equal(hiddenWhenSent[4], false, 'the banner is up after exactly three')
      t.match(await back.$eval('#afhttp-banner', (el) => el.textContent), /Connection to the host lost/)
      await back.waitForSelector('#afhttp-banner[hidden]', { timeout: 10_000 })
      t.pass('the banner went away when the host answered again')
      back.off('request', onRequest)
      await back.setRequestInterception(false)
    })

    t.test('a second viewer cannot take, release or disconnect that control', async (t) => {
      const before = await summary()
      const url2 = await mint(host, tabId)
      secrets.push(url2)
      const b = await openViewer(browser, host)
      await b.page.goto(url2)
      await waitForFrames(b.page)
      await b.page.waitForFunction(() => (window as any).afhttpPanelStats.controller === 'human')
      t.equal(await b.page.$eval('#afhttp-control', (el) => el.textContent), 'Take control')
      await b.page.click('#afhttp-control')
      await b.page.waitForFunction(() => /Another viewer has control/.test(document.querySelector('#afhttp-note')?.textContent ?? ''))
      t.match(await summary(), { state: 'human', generation: before.generation }, 'the failed take left the reservation intact')
      await tab.page.evaluate(() => { (window as any).log = [] })
      const view = await b.page.$eval('#afhttp-view', (el) => { const r = el.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 } })
      await b.page.mouse.click(view.x, view.y)
      await b.page.click('#afhttp-done')
      // The host's refusal of Done comes back on the watcher's socket after everything it sent before.
      await b.page.waitForFunction(() => /Another viewer is driving/.test(document.querySelector('#afhttp-note')?.textContent ?? ''), { timeout: 20_000 })
      t.equal((await pageLog()).length, 0, 'a watcher\'s clicks never reach the page')
      t.equal((await summary()).state, 'human', 'a watcher cannot press Done over the driver')
      const viewers = host.app.panel.find(tabId)!.viewers.size
      await b.page.close()
      await until(() => host.app.panel.find(tabId)!.viewers.size === viewers - 1)
      t.match(await summary(), { state: 'human', generation: before.generation }, 'a watcher leaving changes nothing')
    })

    t.test('Done in the panel finishes the handoff', async (t) => {
      await back.click('#afhttp-done')
      // On a miss, say what the panel and the host saw (a flake in one clean-clone run, cause unknown).
      await back.waitForFunction(() => (window as any).afhttpPanelStats.state === 'finished', { timeout: 15_000 }).catch(async (err: Error) => {
        const seen = await back.evaluate(() => ({ stats: (window as any).afhttpPanelStats, note: document.querySelector('#afhttp-note')?.textContent })).catch(() => 'unreadable')
        throw new Error(`${err.message}; panel: ${JSON.stringify(seen)}; host: ${JSON.stringify(await summary())}`)
      })
      t.match(await summary(), { state: 'finished', finish_reason: 'human_done' })
      t.match(await back.$eval('#afhttp-overlay', (el) => el.textContent), /handed back/)
      t.equal((await openLink(secrets[secrets.length - 1])).status, 410)
      await until(() => host.app.panel.streamer(tab).running === undefined)
      t.pass('the screencast stops when no viewer is left')
      await back.close()
    })
  })

  t.test('a failing live check is a 503 page naming it, and leaves the link usable', async (t) => {
    const minted = await mintPanelLink(host, tabId, { region: '#nowhere' }) as any
    t.match(minted.warnings, [{ code: 'takeover_selector_missed' }], 'a region that matches nothing is a warning for the driver')
    t.equal(minted.surface.aim.kind, 'viewport')
    t.match((await summary()).warnings, [{ code: 'takeover_selector_missed' }], 'and stays in the summary')
    const url = onHost(host, minted.takeover_url_secret)
    secrets.push(url)
    // A person opens the link in their own browser while the host's browser hangs.
    const v = await openViewer(browser, host)
    const pid = host.app.browsers.status(host.config.defaultProfile).pid!
    process.kill(pid, 'SIGSTOP')
    try {
      const res = await v.page.goto(url)
      t.equal(res?.status(), 503)
      t.match(await v.page.$eval('main', (el) => el.textContent), /cdp_roundtrip/, 'the page names the failed check')
      t.match(await v.page.$eval('main', (el) => el.textContent), /tries again by itself/)
    } finally {
      process.kill(pid, 'SIGCONT')
    }
    // Nobody reloads: the 503 page asks again by itself (more than once if the resumed browser is
    // still catching up), and the unconsumed link works now.
    await v.page.waitForFunction(() => location.pathname === '/panel/', { timeout: 25_000, polling: 100 })
    t.equal(new URL(v.page.url()).pathname + new URL(v.page.url()).search, `/panel/?tab=${tabId}`, 'the person lands on the panel')
    await waitForControl(v.page)
    const lease = (await v.page.cookies()).find((c) => c.name === `afhttp_lease_${tabId}`)
    t.ok(lease, 'with a lease for the tab')
    tokens.push(lease!.value)
    await v.context.close()
  })

  t.test('Done over HTTP (no socket yet) works for the person driving, not for a watcher', async (t) => {
    const driver = tokens[tokens.length - 1] // the lease the 503 page's own retry was exchanged for
    const cookieOf = (token: string): string => `afhttp_lease_${tabId}=${token}`
    const conn = await openSocket(host, tabId, { origin: host.url, cookie: cookieOf(driver) })
    if (!('ws' in conn)) throw new Error(`socket refused: ${conn.status}`)
    // The lease's panel was open before (the 503 test): back again, it takes control as a person would.
    await until(() => conn.messages.some((m) => m.t === 'state' && m.controller === 'human_disconnected'))
    conn.ws.send(JSON.stringify({ t: 'take' }))
    await until(() => conn.messages.some((m) => m.t === 'state' && m.you_control))
    const other = await exchanged(await mint(host, tabId))
    tokens.push(other.token)
    const done = (cookie: string): Promise<Response> => fetch(`${host.url}/panel/api/done?tab=${tabId}`, { method: 'POST', headers: { cookie, origin: host.url } })
    const refused = await done(other.cookie)
    t.equal((await refused.json() as any).error.code, 'panel_control_held', 'a watcher cannot finish over the driver')
    const ok = await done(cookieOf(driver))
    t.match(await ok.json(), { state: 'finished', finish_reason: 'human_done' }, 'the driver\'s own browser can')
    conn.ws.close()
  })

  t.test('a status answer older than the socket\'s state does not make the next click stale', async (t) => {
    // The race behind lost first clicks: a status poll that leaves before a control change
    // (the one fired at page load leaves before the socket's take) can be answered after the
    // socket's state, carrying the older generation. Here the viewer's network holds a poll's
    // answer back while the person releases and takes control again through the panel.
    const own = await host.app.tabs.open(host.config.defaultProfile)
    own.retained = true
    t.teardown(() => host.api(`/v1/tabs/${own.id}`, { method: 'DELETE' }).then(() => undefined))
    await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ tab_id: own.id, url: `${site.url}/wall`, timeout_ms: 20000 }) })
    const url = await mint(host, own.id)
    secrets.push(url)
    const v = await openViewer(browser, host)
    const stats = async (): Promise<any> => v.page.evaluate(() => (window as any).afhttpPanelStats)
    const generation = async (): Promise<number> => ((await (await host.api(`/v1/tabs/${own.id}/handoff`)).json()) as { generation: number }).generation
    await v.page.goto(url)
    await waitForControl(v.page)
    await waitForFrames(v.page)

    // The panel gives up on a poll after 2.5 s; on a loaded machine releasing and taking control
    // takes longer than that, and the held request would be gone. Its give-up waits while the
    // answer is held (only the stale check is under test here), and is put back after.
    await v.page.evaluate(() => {
      (window as any).afhttpTestAbort = AbortController.prototype.abort
      AbortController.prototype.abort = function () {}
    })
    const net = await v.page.createCDPSession()
    let held = ''
    let heldBody = ''
    const paused = new Promise<void>((resolve) => {
      net.on('Fetch.requestPaused', (ev: { requestId: string }) => {
        if (held) { void net.send('Fetch.continueRequest', { requestId: ev.requestId }).catch(() => undefined); return }
        held = ev.requestId
        net.send('Fetch.getResponseBody', { requestId: ev.requestId }).then((b) => { heldBody = b.base64Encoded ? Buffer.from(b.body, 'base64').toString() : b.body }, () => undefined).finally(resolve)
      })
    })
    await net.send('Fetch.enable', { patterns: [{ urlPattern: '*/panel/api/status*', requestStage: 'Response' }] })
    await paused
    const before = await generation()
    t.equal(JSON.parse(heldBody).handoff.generation, before, 'a poll was answered, and its answer is held back')
    await v.page.click('#afhttp-control')
    await waitForControl(v.page, false)
    await v.page.click('#afhttp-control')
    await waitForControl(v.page)
    const current = await generation()
    t.ok(current > before, 'control moved on while the answer was held')
    // Polls run one after another, so none is answered while this one is held back.
    const { status_answers: answered, status_stale: staleBefore } = await stats()
    await net.send('Fetch.continueRequest', { requestId: held })
    await v.page.evaluate(() => { AbortController.prototype.abort = (window as any).afhttpTestAbort })
    await v.page.waitForFunction((n: number) => (window as any).afhttpPanelStats.status_answers > n, { timeout: 20_000 }, answered)
    const after = await stats()
    // (The load-time poll may have met the same race by itself before: counted apart.)
    t.equal(after.status_stale - staleBefore, 1, 'the late answer was known as older than the socket\'s state')
    t.equal(after.generation, current, 'input is still stamped with the current generation')

    await own.page.evaluate(() => { (window as any).log = [] })
    const box = await v.page.$eval('#afhttp-view canvas', (el) => { const r = el.getBoundingClientRect(); return { x: r.x + r.width * 0.2, y: r.y + r.height * 0.25 } })
    await v.page.mouse.click(box.x, box.y)
    const landed = await own.page.waitForFunction(() => (window as any).log.some((e: { type: string }) => e.type === 'mousedown'), { timeout: 20_000, polling: 50 }).then(() => true, () => false)
    t.ok(landed, 'the next click reached the page')
    await net.detach()
    await v.context.close()
  })

  t.test('no secret and no lease token reaches the logs', async (t) => {
    const text = host.logs.text()
    for (const s of secrets) t.notOk(text.includes(new URL(s).pathname.split('/').pop()!), 'secret absent')
    for (const tok of tokens) t.notOk(text.includes(tok), 'lease token absent')
    t.ok(text.includes('/takeover/[redacted]'), 'the exchange is logged with the secret redacted')
  })
})

t.test('behind https: a Secure cookie, the public origin, expiry ends the panel, /takeover is rate limited', async (t) => {
  const clock = new ManualClock()
  const host = await startHost(t, { clock, env: { AFHTTP_PUBLIC_URL: 'https://panel.example.test' } })
  const site = await startFixtureServer(t, { '/wall': { status: 403, body: WALL } })
  const fetched = await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/wall`, takeover: true }) })).json() as any
  const { setCookie, cookie } = await exchanged(onHost(host, fetched.actions[0].takeover_url_secret))
  t.match(setCookie, /; Secure/)
  const conn = await openSocket(host, fetched.tab_id, { origin: 'https://panel.example.test', cookie })
  if (!('ws' in conn)) throw new Error(`socket refused: ${conn.status}`)
  await until(() => conn.messages.some((m) => m.t === 'state'))
  const closed = new Promise<number>((resolve) => conn.ws.on('close', (code) => resolve(code)))
  clock.advance(600_000)
  t.equal(await closed, 1000, 'the panel is closed when the hold runs out')
  t.match(conn.messages.find((m) => m.t === 'ended'), { state: 'expired' })
  const late = await fetch(`${host.url}/panel/api/status?tab=${fetched.tab_id}`, { headers: { cookie } })
  t.equal(late.status, 401, 'the lease died with the hold')
  let limited: Response | undefined
  for (let i = 0; i < 40 && !limited; i++) {
    const res = await fetch(`${host.url}/takeover/${'B'.repeat(43)}`)
    if (res.status === 429) limited = res
  }
  t.ok(limited, 'too many tries get 429')
  t.match(await limited!.text(), /Too many tries/)
})
