import t from 'tap'
import type { Browser, Target } from 'puppeteer-core'
import { startHost, type TestHost } from '../helpers/host.js'
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js'
import { poolStats } from '../../src/browser/window-pool.js'
import { browserSession } from '../../src/browser/window-anchor.js'

// A window a fetch used is reset and handed to the next fetch only when it is proven clean
// (docs/spec.md section 14: nothing carries from one fetch to the next but the profile's own state).
// Two origins on 127.0.0.1 (two ports, one site) and a third, cross-site, through `localhost`.
// Each "leaver" page leaves something behind in its window; the probe page fetched next, on
// either origin, reports everything a site could read about its window, and must read what it
// reads in a window no fetch used. Leavers whose traces the reset removes must have their window
// reused (else the test would pass with reuse switched off); the others must have it closed.

// Frames of the other origins are allowed; nothing leaves 127.0.0.0/8.
const CSP = "default-src 'self' 'unsafe-inline' http://127.0.0.1:* http://localhost:*"
const html = (body: string): { body: string, headers: Record<string, string> } => ({ body: `<!doctype html><meta charset=utf-8>${body}`, headers: { 'content-security-policy': CSP } })

const PROBE = html(`<title>probe</title><pre id="out"></pre><script>
  const report = {
    history: history.length,
    entries: window.navigation ? navigation.entries().length : -1,
    name: window.name,
    opener: window.opener !== null,
    session: sessionStorage.length,
    sessionKeys: Object.keys(sessionStorage).join(','),
    scrollY: window.scrollY,
    focused: document.hasFocus(),
    visibility: document.visibilityState,
    scale: window.visualViewport.scale,
    dpr: window.devicePixelRatio,
    // Not screenX/screenY: Chromium cascades each new window from the last one, so fresh windows
    // differ among themselves; the reset checks a reused window against its own first position.
    inner: [innerWidth, innerHeight],
    outer: [outerWidth, outerHeight],
    frames: window.length,
    controlled: !!(navigator.serviceWorker && navigator.serviceWorker.controller),
    navigation: performance.getEntriesByType('navigation')[0].type,
    referrer: document.referrer
  }
  document.getElementById('out').textContent = JSON.stringify(report)
</script>`)

type Leaver = (a: FixtureServer, bSameSite: string, bCrossSite: string) => { body: string, headers: Record<string, string> }

// What each leaver page leaves, and whether the reset can remove it (window reused) or not (closed).
const LEAVERS: Array<{ name: string, reused: boolean, page: Leaver, wait?: string }> = [
  { name: 'history entries (pushState)', reused: true, page: () => html(`<p>ok</p><script>for (let i = 0; i < 4; i++) history.pushState({ i }, '', '#step' + i)</script>`) },
  { name: 'window.name', reused: true, page: () => html(`<p>ok</p><script>window.name = 'left-behind'</script>`) },
  { name: 'a scroll position', reused: true, page: () => html(`<div style="height:8000px">tall</div><script>scrollTo(0, 4000)</script>`) },
  // Seen in the host (not in a bare browser): the reset's navigation away from such a page does
  // not complete, so the window is closed; what matters here is that nothing of it is seen next.
  { name: 'a beforeunload handler', reused: false, page: () => html(`<p>ok</p><script>addEventListener('beforeunload', (e) => { e.preventDefault(); e.returnValue = 'stay' })</script>`) },
  { name: 'focus and zoom asked for', reused: true, page: () => html(`<p>ok</p><script>window.focus(); document.body.style.zoom = '3'; try { window.resizeTo(300, 300); window.moveTo(400, 400) } catch {}</script>`) },
  { name: 'a service worker that controls the page (and a back/forward cache entry)', reused: true, wait: 'selector:#controlled', page: () => html(`<p id="state">registering</p><script>
    navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready).then(() => {
      const done = () => { const p = document.createElement('p'); p.id = 'controlled'; p.textContent = 'controlled'; document.body.append(p) }
      if (navigator.serviceWorker.controller) done(); else navigator.serviceWorker.addEventListener('controllerchange', done)
    })
    addEventListener('pageshow', (e) => { if (e.persisted) document.title = 'restored' })
  </script>`) },
  { name: 'sessionStorage of its own origin', reused: false, page: () => html(`<p>ok</p><script>sessionStorage.setItem('left', 'a')</script>`) },
  { name: 'sessionStorage of a same-site frame on another port', reused: false, page: (_a, b) => html(`<p>ok</p><iframe src="${b}/writer"></iframe>`), wait: 'selector:iframe' },
  { name: 'sessionStorage of a cross-site frame (out of process)', reused: false, page: (_a, _b, c) => html(`<p>ok</p><iframe src="${c}/writer"></iframe>`) },
  { name: 'sessionStorage written while the page unloads', reused: false, page: () => html(`<p>ok</p><script>addEventListener('pagehide', () => sessionStorage.setItem('left', 'pagehide'))</script>`) },
  { name: 'sessionStorage of a page it redirected from', reused: false, wait: 'selector:#landed', page: (_a, b) => html(`<p>leaving</p><script>sessionStorage.setItem('left', 'before-redirect'); location.replace('${b}/landing')</script>`) },
  { name: 'a popup that keeps it as its opener', reused: false, page: (_a, b) => html(`<p>ok</p><script>window.open('${b}/landing', '_blank')</script>`) },
  { name: 'a dialog', reused: false, page: () => html(`<p>ok</p><script>setTimeout(() => alert('left behind'), 0)</script>`) }
]

async function targetIds (browser: Browser): Promise<Map<string, string>> {
  // The host's shared browser session: a second one made and detached beside it can make
  // puppeteer forget the browser target (see browserSession).
  const { targetInfos } = await (await browserSession(browser)).send('Target.getTargets')
  return new Map(targetInfos.filter((i) => i.type === 'page').map((i) => [i.targetId, i.url]))
}

async function until (what: string, check: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

const targetId = (target: Target): string => (target as unknown as { _targetId: string })._targetId

t.test('a reused window is indistinguishable from a fresh one; a window that cannot be proven clean is closed', async (t) => {
  // One window in the pool: a reused window is the one the next fetch takes.
  const host: TestHost = await startHost(t, { startBrowser: false, env: { AFHTTP_TAB_POOL: '1', AFHTTP_TAB_IDLE_MS: '600000' } })
  const b = await startFixtureServer(t)
  const a = await startFixtureServer(t)
  const bSameSite = b.url
  const bCrossSite = b.url.replace('127.0.0.1', 'localhost')
  for (const site of [a, b]) {
    site.route('/probe', PROBE)
    site.route('/writer', html(`<p>frame</p><script>sessionStorage.setItem('left', 'frame')</script>`))
    site.route('/landing', html(`<p id="landed">landed</p>`))
    site.route('/sw.js', { body: "self.addEventListener('install', () => self.skipWaiting()); self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim())); self.addEventListener('fetch', () => {})", headers: { 'content-type': 'text/javascript' } })
  }
  for (const [i, l] of LEAVERS.entries()) a.route(`/leave${i}`, l.page(a, bSameSite, bCrossSite))

  const profile = host.config.defaultProfile
  const browser = await host.app.browsers.get(profile)
  // Which window each URL was loaded in, seen from the browser itself.
  const windowOf = new Map<string, string>()
  const note = (target: Target): void => { if (target.type() === 'page' && target.url().startsWith('http')) windowOf.set(target.url().replace(/#.*$/, ''), targetId(target)) }
  browser.on('targetchanged', note)
  browser.on('targetcreated', note)
  const ready = (): Promise<void> => until('the pool to hold its window', () => host.app.tabs.poolAvailable(profile) === 1)

  let n = 0
  const fetchUrl = async (url: string, wait?: string): Promise<{ body: Record<string, any>, window: string | undefined }> => {
    await ready()
    const marked = `${url}${url.includes('?') ? '&' : '?'}n=${n++}`
    const res = await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: marked, ...(wait ? { wait } : {}), timeout_ms: 20_000 }) })
    const body = await res.json() as Record<string, any>
    return { body, window: windowOf.get(marked) }
  }
  const probe = async (site: string): Promise<{ report: Record<string, unknown>, window: string | undefined }> => {
    const { body, window } = await fetchUrl(`${site}/probe`)
    t.equal(body.ok, true, `the probe on ${site} answered`)
    return { report: JSON.parse(String(body.artifacts.text).trim()) as Record<string, unknown>, window }
  }

  // What a site reads in a window no fetch used: the first fetch of each origin in a new window.
  const fresh = await probe(a.url)
  t.equal(fresh.report.history, 2, 'a fresh window: its blank page and the probe')
  t.equal(fresh.report.session, 0)
  t.equal(fresh.report.name, '')
  // The probe itself leaves nothing: its window is reset and kept, but for its own site only. Its
  // renderer is that site's: another site in it would get a new one that learns the window's
  // size only after its first scripts ran (outerWidth 0 while parsing, a headless tell).
  const otherSite = poolStats(browser).otherSite
  const freshB = await probe(bCrossSite)
  t.not(freshB.window, fresh.window, 'a window reset after one site is not handed to another')
  t.equal(poolStats(browser).otherSite, otherSite + 1, 'it was closed to make room for a fresh one')
  t.same(freshB.report, fresh.report, 'the other site reads what a fresh window shows')
  const freshAgain = await probe(bCrossSite)
  t.equal(freshAgain.window, freshB.window, 'a window that a clean page used is reused for the same site')
  t.same(freshAgain.report, fresh.report, 'and shows it exactly what a fresh window shows')
  t.ok((poolStats(browser).reused) >= 2, 'the pool counted the resets')

  // A service worker belongs to the profile, like its cookies: once registered it controls
  // that origin's pages in any window, fresh or reused.
  let workerOn: string | undefined
  for (const [i, leaver] of LEAVERS.entries()) {
    t.test(leaver.name, async (t) => {
      const notReused = { ...poolStats(browser).notReused }
      const left = await fetchUrl(`${a.url}/leave${i}`, leaver.wait)
      if (leaver.name.startsWith('a service worker')) workerOn = a.url
      t.ok(left.window, 'the leaver was seen in a window')
      if (leaver.name !== 'a dialog') t.equal(left.body.status, 200, 'the leaver page loaded')
      await ready()
      const blankWindows = async (): Promise<string[]> => [...(await targetIds(browser))].filter(([, url]) => url === 'about:blank').map(([id]) => id)
      // The window that served the other site last was given up for this fetch (see take): the pool
      // closes it in the next quiet moment, within a second, so it may still be closing now.
      if (leaver.reused) await until('the given-up window to close', async () => (await blankWindows()).length === 1, 5_000).catch(() => undefined)
      const waiting = await blankWindows()
      if (leaver.reused) {
        t.same(waiting, [left.window], 'its window was reset and is waiting for the next fetch')
        t.same(poolStats(browser).notReused, notReused, 'no window was refused')
        // The window's own history, read from the browser: only the blank page, so no earlier
        // page is reachable, from the back/forward cache or otherwise.
        const page = (await browser.pages()).find((p) => targetId(p.target()) === left.window)!
        const session = await page.createCDPSession()
        const history = await session.send('Page.getNavigationHistory')
        await session.detach()
        t.same(history.entries.map((e) => e.url), ['about:blank'], 'its history holds the blank page alone')
      } else {
        t.notOk(waiting.includes(left.window!), 'its window was not kept for another fetch')
        await until('the window to close', async () => !(await targetIds(browser)).has(left.window!))
      }
      for (const site of [a.url, bCrossSite]) {
        const seen = await probe(site)
        if (leaver.reused && site === a.url) t.equal(seen.window, left.window, 'the next fetch ran in the reset window')
        const expected = site === workerOn ? { ...fresh.report, controlled: true } : fresh.report
        t.same(seen.report, expected, `${site} reads what a fresh window shows`)
      }
      // Popups the leaver opened are tabs of their own; close them so later leavers start alike.
      for (const tab of host.app.tabs.list()) await host.app.tabs.close(tab.id, 'api')
    })
  }
})
