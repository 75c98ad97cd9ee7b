// Issue 10 (docs/spec.md sections 7 and 10): instructions shown as text, view links the host keeps
// from acting, "I can't do this", the outcome of a finished handoff, and an ending that
// reaches every open panel. A second headless Chromium works the panel like a person; raw
// WebSocket clients stand for viewers that skip the panel's own buttons.
import t, { type Test } from 'tap'
import WebSocket from 'ws'
import { startHost, type TestHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { mintPanelLink } from '../helpers/mint.js'
import { launchViewerBrowser, onHost, openViewer, PHONE, waitForControl, waitForFrames } from '../helpers/panel-browser.js'
import { ManualClock } from '../../src/core/clock.js'
import { leaseCookieOf, openLink } from '../helpers/open-link.js'
import { openSocketRetrying } from '../helpers/retry-503.js'

const WALL = `<!doctype html><title>Sign in required</title><body style="margin:0;font:16px sans-serif">
<p>Please sign in to keep reading.</p>
<button id="set" style="position:absolute;left:100px;top:100px;width:300px;height:150px"
  onclick="document.cookie='session_id=s3cr3t-value; path=/'; this.textContent='Set'">Set cookie</button>
<script>window.log = []; for (const type of ['mousedown', 'keydown']) addEventListener(type, (e) => log.push(type))</script>`

const HOSTILE = '<img src=x onerror="window.pwned=1"> Sign in as the test user, then press Done.'

interface Sock { ws: WebSocket, messages: any[], closed: Promise<number>, endedAt?: number }

/**
 * The panel socket, opened as the panel does: a 503 (a live check missed its bound for a moment
 * on a loaded machine) is tried again after a pause, like the panel's reconnect with backoff.
 */
async function openSocket (host: TestHost, tabId: string, cookie: string): Promise<Sock> {
  let sock: Sock | undefined
  await openSocketRetrying(`${host.url.replace('http', 'ws')}/panel/ws?tab=${tabId}`, { cookie, origin: host.url }, (ws) => {
    const messages: any[] = []
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)))
    sock = { ws, messages, closed }
    const mine = sock
    ws.on('message', (data, isBinary) => {
      if (isBinary) return
      const m = JSON.parse(data.toString())
      messages.push(m)
      if (m.t === 'ended') mine.endedAt ??= Date.now()
    })
  })
  return sock!
}

async function exchange (url: string): Promise<string> {
  return leaseCookieOf(await openLink(url))
}

async function mint (host: TestHost, tabId: string, body: object): Promise<any> {
  return await mintPanelLink(host, tabId, body as Record<string, unknown>)
}

const until = async (what: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> => {
  const end = Date.now() + ms
  while (!(await what())) {
    if (Date.now() > end) throw new Error('condition not reached in time')
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

t.test('instructions, view links, decline and outcome', async (t) => {
  const host = await startHost(t)
  const site = await startFixtureServer(t, { '/wall': { status: 403, body: WALL } })
  const browser = await launchViewerBrowser(t)
  const fetched = await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/wall`, takeover: true, instructions: HOSTILE }) })).json() as any
  const tabId: string = fetched.tab_id
  const tab = host.app.tabs.get(tabId)
  t.ok(fetched.actions[0].takeover_url_secret, 'the fetch minted a panel link')

  t.test('the handoff.opened event and the summary carry the instructions', async (t) => {
    const opened = host.app.events.journal.recent().find((e) => e.type === 'handoff.opened' && e.tab_id === tabId)
    t.equal(opened?.data.instructions, HOSTILE)
    const s = await (await host.api(`/v1/tabs/${tabId}/handoff`)).json() as any
    t.equal(s.instructions, HOSTILE)
  })

  t.test('instructions over 500 characters are refused', async (t) => {
    const res = await host.api(`/v1/tabs/${tabId}/handoff`, { method: 'POST', body: JSON.stringify({ instructions: 'x'.repeat(501) }) })
    t.equal(res.status, 400)
  })

  const { page } = await openViewer(browser, host, PHONE)
  await page.goto(onHost(host, fetched.actions[0].takeover_url_secret))
  await waitForFrames(page)
  await waitForControl(page)

  t.test('the panel shows the instructions as text, never as HTML', async (t) => {
    const shown = await page.$eval('#afhttp-instructions', (el) => ({ text: el.textContent, children: el.children.length, hidden: (el as HTMLElement).hidden }))
    t.same(shown, { text: HOSTILE, children: 0, hidden: false })
    t.equal(await page.evaluate(() => (window as any).pwned), undefined, 'the onerror handler never ran')
  })

  t.test('Done, decline and the instructions fit a 390 px phone', async (t) => {
    const boxes = await page.evaluate(() => ['#afhttp-done', '#afhttp-decline', '#afhttp-control', '#afhttp-instructions'].map((s) => {
      const r = document.querySelector(s)!.getBoundingClientRect()
      return { s, left: r.left, right: r.right, height: r.height }
    }))
    for (const b of boxes) {
      t.ok(b.left >= 0 && b.right <= 390, `${b.s} is inside the phone's width`)
      t.ok(b.height >= 24, `${b.s} is tall enough to read and press`)
    }
  })

  // A view link for the same handoff: a raw socket that tries everything the panel hides.
  const viewMint = await mint(host, tabId, { mode: 'view' })
  t.equal(viewMint.handoff_fence, fetched.actions[0].handoff_fence, 'a view link belongs to the same handoff')
  const viewCookie = await exchange(onHost(host, viewMint.takeover_url_secret))
  const view = await openSocket(host, tabId, viewCookie)

  t.test('a view link watches but the host refuses it control, Done, decline and input', async (t) => {
    await until(() => view.messages.some((m) => m.t === 'state'))
    const st = view.messages.find((m) => m.t === 'state')
    t.equal(st.mode, 'view')
    t.equal(st.you_control, false)
    const gen: number = st.generation
    const before = await tab.page.evaluate(() => (window as any).log.length)
    for (const msg of [
      { t: 'take' },
      { t: 'mouse', g: gen, type: 'down', x: 200, y: 170, button: 'left', clicks: 1, mods: 0 },
      { t: 'mouse', g: gen, type: 'up', x: 200, y: 170, button: 'left', clicks: 1, mods: 0 },
      { t: 'key', g: gen, type: 'down', key: 'Enter', mods: 0 },
      { t: 'done' },
      { t: 'decline', reason: 'not me' }
    ]) view.ws.send(JSON.stringify(msg))
    await until(() => view.messages.some((m) => m.t === 'refused' && m.reason === 'view_only'))
    // Ask the page something after the messages: they would have landed by now.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)))
    t.equal(await tab.page.evaluate(() => (window as any).log.length), before, 'no input reached the page')
    const s = await (await host.api(`/v1/tabs/${tabId}/handoff`)).json() as any
    t.equal(s.state, 'human', 'the handoff is still open with the person in control')
    const done = await fetch(`${host.url}/panel/api/done?tab=${tabId}`, { method: 'POST', headers: { cookie: viewCookie, origin: host.url } })
    t.equal(done.status, 403)
    t.equal((await done.json() as any).error.code, 'panel_view_only')
    const decline = await fetch(`${host.url}/panel/api/decline?tab=${tabId}`, { method: 'POST', headers: { cookie: viewCookie, origin: host.url, 'content-type': 'application/json' }, body: '{}' })
    t.equal(decline.status, 403)
  })

  t.test('the person sets a cookie, then declines with a reason; both viewers hear it', async (t) => {
    // Tap the button that sets a cookie.
    const box = await page.$eval('#afhttp-view canvas', (c) => { const r = c.getBoundingClientRect(); return { x: r.left, y: r.top, w: r.width } })
    const scale = box.w / 1280
    await page.touchscreen.tap(box.x + 250 * scale, box.y + 175 * scale)
    await until(async () => (await tab.page.evaluate(() => document.cookie)).includes('session_id'))
    await page.click('#afhttp-decline')
    await page.type('#afhttp-decline-reason', 'Wrong account: I have no access to this site.')
    // Within a second of the ending (docs/spec.md section 7): timed from the host's own ending event,
    // not from the test's click, whose way through two browsers is not the host's.
    let endedAt: number | undefined
    const unsubscribe = host.app.events.subscribe((e) => { if (e.tab_id === tabId && e.type === 'handoff.finished') endedAt ??= Date.now() })
    await page.click('#afhttp-decline-send')
    await page.waitForFunction(() => (window as any).afhttpPanelStats.finish_reason === 'human_declined', { timeout: 20_000 })
    const code = await view.closed
    unsubscribe()
    const late = (view.endedAt ?? Infinity) - (endedAt ?? -Infinity)
    t.ok(late < 1_000, `the other viewer was ended within a second (${late} ms)`)
    t.equal(code, 1000, 'the view socket was closed')
    const ended = view.messages.find((m) => m.t === 'ended')
    t.equal(ended?.finish_reason, 'human_declined', 'the view viewer was told why')
    t.match(await page.$eval('#afhttp-overlay', (el) => el.textContent), /without finishing/)

    const s = await (await host.api(`/v1/tabs/${tabId}/handoff`)).json() as any
    t.equal(s.state, 'finished')
    t.equal(s.finish_reason, 'human_declined')
    t.equal(s.human_note, 'Wrong account: I have no access to this site.')
    t.same(s.outcome, { final_url: `${site.url}/wall`, navigated: false, cookies_set: ['session_id'] })
    t.notMatch(JSON.stringify(s), /s3cr3t-value/, 'cookie values never appear')
    t.ok(host.app.tabs.find(tabId)?.retained, 'the tab stays retained for the driver')
    const finished = host.app.events.journal.recent().find((e) => e.type === 'handoff.finished' && e.tab_id === tabId)
    t.equal(finished?.data.human_note, 'Wrong account: I have no access to this site.')
  })
})

t.test('expiry, driver finish and tab close end every open panel, each saying why', async (t) => {
  const clock = new ManualClock()
  const host = await startHost(t, { clock })
  const site = await startFixtureServer(t, { '/wall': { status: 403, body: WALL } })
  const open = async (): Promise<{ tabId: string, fence: string, socks: Sock[] }> => {
    const fetched = await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/wall`, takeover: true }) })).json() as any
    const tabId: string = fetched.tab_id
    const control = await exchange(onHost(host, fetched.actions[0].takeover_url_secret))
    const viewOnly = await exchange(onHost(host, (await mint(host, tabId, { mode: 'view' })).takeover_url_secret))
    const socks = [await openSocket(host, tabId, control), await openSocket(host, tabId, viewOnly)]
    await until(() => socks.every((s) => s.messages.some((m) => m.t === 'state')))
    return { tabId, fence: fetched.actions[0].handoff_fence, socks }
  }
  // When the host ended each tab's handoff (its own event): the second is counted from there, not
  // from the test's request, whose way in (a page close in Chromium first, on a tab close) is not
  // the ending's.
  const endings = new Map<string, number>()
  host.app.events.subscribe((e) => { if (/^handoff\.(finished|expired|revoked)$/.test(e.type) && e.tab_id && !endings.has(e.tab_id)) endings.set(e.tab_id, Date.now()) })
  const endedWithin = async (t: Test, socks: Sock[], since: number, want: Record<string, unknown>, tabId?: string): Promise<void> => {
    const codes = await Promise.all(socks.map((s) => s.closed))
    // What must reach the viewer within a second is the ending (docs/spec.md section 7); the close
    // handshake that follows it is the socket's own business.
    const from = (tabId && endings.get(tabId)) || since
    const late = socks.map((s) => (s.endedAt ?? Infinity) - from)
    t.ok(late.every((ms) => ms < 1_000), `every viewer was told of the ending within a second (${late.join(', ')} ms)`)
    t.same(codes, [1000, 1000], 'both sockets closed')
    for (const s of socks) t.match(s.messages.find((m) => m.t === 'ended'), want)
  }

  t.test('driver finish', async (t) => {
    const { tabId, fence, socks } = await open()
    const since = Date.now()
    const res = await host.api(`/v1/tabs/${tabId}/handoff/finish`, { method: 'POST', body: JSON.stringify({ handoff_fence: fence }) })
    t.equal((await res.json() as any).outcome.navigated, false)
    await endedWithin(t, socks, since, { state: 'finished', finish_reason: 'driver' }, tabId)
  })

  t.test('expiry', async (t) => {
    const { tabId, socks } = await open()
    clock.advance(host.config.handoffHoldMs + 1)
    const since = Date.now()
    await endedWithin(t, socks, since, { state: 'expired' }, tabId)
  })

  t.test('a view mint leaves the unused control link working, and a second view mint revokes the first view link', async (t) => {
    const fetched = await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/wall`, takeover: true }) })).json() as any
    const tabId: string = fetched.tab_id
    const firstView = onHost(host, (await mint(host, tabId, { mode: 'view' })).takeover_url_secret)
    const secondView = onHost(host, (await mint(host, tabId, { mode: 'view' })).takeover_url_secret)
    t.equal((await fetch(firstView, { redirect: 'manual' })).status, 410, 'the earlier view link is revoked')
    t.equal((await openLink(secondView)).status, 303, 'the newer view link works')
    t.equal((await openLink(onHost(host, fetched.actions[0].takeover_url_secret))).status, 303, 'the control link still works')
    await host.api(`/v1/tabs/${tabId}`, { method: 'DELETE' })
  })

  t.test('tab close', async (t) => {
    const { tabId, socks } = await open()
    const since = Date.now()
    await host.api(`/v1/tabs/${tabId}`, { method: 'DELETE' })
    await endedWithin(t, socks, since, { state: 'revoked', finish_reason: 'tab_closed' }, tabId)
  })
  t.test('host shutdown', async (t) => {
    const { socks } = await open()
    const since = Date.now()
    await host.close()
    await endedWithin(t, socks, since, { state: 'revoked', finish_reason: 'shutdown' })
  })

})
