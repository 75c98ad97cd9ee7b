// A page whose whole view is one frame (docs/spec.md section 6; src/core/frame-view.ts): the top
// document shows nothing, a frame fills the view, and what a person sees there is what the fetch
// reports. The gate in the frame is a real capture (a 2025 Cloudflare "Just a moment…", served at
// its real status); the outer pages are the shape of Naver Blog's (a full-size iframe in an
// otherwise empty body, test/fixtures/real/naver-blog-frameset-shell-cp949-2020.html).
import t from 'tap'
import { readFile } from 'node:fs/promises'
import { startHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { clientPointOf, DESKTOP, launchViewerBrowser, onHost, openViewer, waitForControl, waitForFrames } from '../helpers/panel-browser.js'

const GATE_FILE = 'cloudflare-just-a-moment-2025-kxz-1.html'
const framing = (src: string, style: string): string =>
  `<!doctype html><html><head><title>A blog</title><style>html,body{width:100%;height:100%;margin:0}</style></head><body><iframe id="mainFrame" src="${src}" style="${style};border:0"></iframe></body></html>`
const FILLS = 'width:100%;height:99.8%'
const ARTICLE = '<!doctype html><title>Field notes</title><main><h1>Field notes</h1><p>Seven herons fished the weir this morning, two more than last week.</p></main>'

t.test('a top document that shows nothing over a frame that fills the view is judged by the frame', async (t) => {
  const gate = await readFile(new URL(`../fixtures/real/${GATE_FILE}`, import.meta.url), 'utf8')
  const host = await startHost(t)
  const site = await startFixtureServer(t, {
    '/blog': { body: framing('/posts', FILLS) },
    '/posts': { body: ARTICLE },
    '/gated': { body: framing('/check', FILLS) },
    '/check': { status: 403, body: gate },
    '/badge': { body: framing('/posts', 'width:120px;height:60px') }
  })
  const fetchOf = async (path: string, extra: object = {}): Promise<Record<string, any>> => {
    const res = await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}${path}`, ...extra }) })
    t.equal(res.status, 200, `${path} answers`)
    return await res.json() as Record<string, any>
  }

  const blog = await fetchOf('/blog')
  t.equal(blog.page_kind, 'content', 'the post in the frame is the content')
  t.equal(blog.ok, true, 'and it is ok: the person would see it')
  t.ok(blog.warnings.some((w: { code: string, message: string }) => w.code === 'page_in_frame' && w.message.includes(`${site.url}/posts`)), 'a warning names the frame, whose URL has the captures')
  t.match(blog.artifacts.text, /Seven herons fished the weir/, 'the text is what the person reads, in the frame')
  t.match(blog.artifacts.html, /<iframe id="mainFrame"/, 'the HTML stays the document the address served')

  const gated = await fetchOf('/gated', { takeover: true })
  t.equal(gated.page_kind, 'challenge', 'a gate in the frame is a gate')
  t.equal(gated.challenge?.provider, 'cloudflare', `named by its own markers (${(gated.challenge?.evidence ?? []).join('; ')})`)
  t.equal(gated.ok, false)
  t.ok(gated.actions.some((a: { type?: string, takeover_url_secret?: string }) => typeof a.takeover_url_secret === 'string'), 'and a person is asked for it')

  const badge = await fetchOf('/badge')
  t.equal(badge.page_kind, 'empty', 'a small frame is not the page: the page shows nothing')
  t.notOk(badge.warnings.some((w: { code: string }) => w.code === 'page_in_frame'), 'no frame stood for it')
})

// The road out of such a handoff: a person works the check in the frame through the panel, the
// frame moves on, and the handoff finishes by itself though the top document never moved. The
// check is a page of this test's own (it has to let a person through); its words and its one
// button are the shape of a site's own check, which is how the fetch knows it.
const OWN_CHECK = '<!doctype html><html><head><title>Security check</title></head><body style="margin:0;font:16px sans-serif"><h1>Verify you are human</h1><p>Press the button to continue to the site.</p><button id="continue" style="position:absolute;left:60px;top:160px;width:200px;height:60px" onclick="location.href=\'/posts\'">Continue</button></body></html>'
// The outer page over its frame, the check in the frame, and the post the check lets through to.
const CHECK_IN_FRAME = {
  '/gated': { body: framing('/check', FILLS) },
  '/check': { status: 403, body: OWN_CHECK },
  '/posts': { body: ARTICLE }
}

t.test('a person passes a check in a frame that fills the view, through the panel, and the handoff finishes by itself', async (t) => {
  const host = await startHost(t)
  const site = await startFixtureServer(t, CHECK_IN_FRAME)
  const fetched = await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/gated`, takeover: true }) })).json() as Record<string, any>
  t.equal(fetched.page_kind, 'challenge', `the check in the frame is a gate (${(fetched.challenge?.evidence ?? []).join('; ')})`)
  const secret = fetched.actions.find((a: { takeover_url_secret?: string }) => typeof a.takeover_url_secret === 'string')?.takeover_url_secret as string | undefined
  t.ok(secret, 'a person is asked for it')
  if (secret === undefined) return
  const tab = host.app.tabs.get(fetched.tab_id)
  const startUrl = tab.page.url()

  const browser = await launchViewerBrowser(t)
  const { page: panel } = await openViewer(browser, host, DESKTOP)
  t.equal((await panel.goto(onHost(host, secret)))?.status(), 200)
  await waitForFrames(panel)
  await waitForControl(panel)
  // The frame sits at the top left with no border, so the button's place in it is its place in the view.
  const frame = tab.page.mainFrame().childFrames()[0]
  const button = await frame.$eval('#continue', (el) => { const r = el.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 } })
  const p = await clientPointOf(panel, button.x, button.y)
  await panel.mouse.click(p.x, p.y)
  const moved = await frame.waitForFunction(() => location.pathname === '/posts', { timeout: 45_000, polling: 100 }).then(() => true, () => false)
  t.ok(moved, 'the press reached the button in the frame')
  if (!moved) return
  const finished = await panel.waitForFunction(() => (window as any).afhttpPanelStats.state === 'finished', { timeout: 45_000 }).then(() => true, () => false)
  t.ok(finished, 'the handoff finished by itself', finished ? {} : { handoff: await (await host.api(`/v1/tabs/${fetched.tab_id}/handoff`)).json() })
  t.equal(tab.page.url(), startUrl, 'while the top document stayed where it was')
  const summary = await (await host.api(`/v1/tabs/${fetched.tab_id}/handoff`)).json() as Record<string, any>
  t.match(summary, { state: 'finished', finish_reason: 'auto_detected', auto_done: true })
  // Its outcome tells the driver the person got somewhere, though the top's address is the same.
  t.match(summary.outcome, { final_url: startUrl, navigated: true }, 'the outcome says the page moved on')

  const refetch = await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ tab_id: fetched.tab_id }) })).json() as Record<string, any>
  t.equal(refetch.ok, true, 'the driver\'s re-fetch of the tab gets the post')
  t.match(refetch.artifacts.text, /Seven herons fished the weir/)
})

// Done pressed before any completion check looked: nobody works the panel, so no check runs, and
// the frame moves on by its own script (a check that lets the browser through by itself). The
// ending looks at the frame once more; a twin handoff whose frame stayed is the control.
t.test('a handoff ended before any check saw the frame move on still says the page moved on', async (t) => {
  const host = await startHost(t)
  const site = await startFixtureServer(t, CHECK_IN_FRAME)
  const handOff = async (): Promise<{ tabId: string, fence: string }> => {
    const fetched = await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/gated`, takeover: true }) })).json() as Record<string, any>
    t.equal(fetched.page_kind, 'challenge', 'the check in the frame is a gate')
    const summary = await (await host.api(`/v1/tabs/${fetched.tab_id}/handoff`)).json() as Record<string, any>
    return { tabId: fetched.tab_id, fence: summary.handoff_fence }
  }
  const finish = async ({ tabId, fence }: { tabId: string, fence: string }): Promise<Record<string, any>> =>
    await (await host.api(`/v1/tabs/${tabId}/handoff/finish`, { method: 'POST', body: JSON.stringify({ handoff_fence: fence }) })).json() as Record<string, any>

  const moving = await handOff()
  const staying = await handOff()
  const tab = host.app.tabs.get(moving.tabId)
  const startUrl = tab.page.url()
  const frame = tab.page.mainFrame().childFrames()[0]
  await frame.evaluate(() => { location.href = '/posts' })
  const moved = await frame.waitForFunction(() => location.pathname === '/posts' && document.readyState === 'complete', { timeout: 15_000, polling: 100 }).then(() => true, () => false)
  t.ok(moved, 'the frame moved on to the post')
  if (!moved) return
  const ended = await finish(moving)
  t.equal(ended.state, 'finished')
  t.match(ended.outcome, { final_url: startUrl, navigated: true }, 'the outcome says the page moved on, though no check had looked')
  const control = await finish(staying)
  t.match(control.outcome, { navigated: false }, 'a handoff whose frame still shows its check did not move on')
})

// The aim over such a page: a real 2026 DataDome CAPTCHA page (its whole view is DataDome's own
// frame, which the CSP here keeps from loading) shown in the outer page's frame. The fetch sees
// the widget in the frame, and the panel aims at it there rather than at the whole view.
t.test("a challenge widget in a frame that fills the view is what a person's panel aims at", async (t) => {
  const gate = await readFile(new URL('../fixtures/real/datadome-captcha-2026-tripadvisor.html', import.meta.url), 'utf8')
  const host = await startHost(t)
  const site = await startFixtureServer(t, {
    '/gated': { body: framing('/reviews', FILLS) },
    '/reviews': { status: 403, body: gate }
  })
  const fetched = await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/gated`, takeover: true }) })).json() as Record<string, any>
  t.equal(fetched.challenge?.provider, 'datadome', `the check in the frame is DataDome's (${(fetched.challenge?.evidence ?? []).join('; ')})`)
  const secret = fetched.actions.find((a: { takeover_url_secret?: string }) => typeof a.takeover_url_secret === 'string')?.takeover_url_secret as string | undefined
  t.ok(secret, 'a person is asked for it')
  if (secret === undefined) return
  const browser = await launchViewerBrowser(t)
  const { page: panel } = await openViewer(browser, host, DESKTOP)
  t.equal((await panel.goto(onHost(host, secret)))?.status(), 200)
  await waitForFrames(panel)
  const aimed = await panel.waitForFunction(() => (window as any).afhttpPanelStats.aim === 'detected', { timeout: 30_000 }).then(() => true, () => false)
  t.ok(aimed, `the panel aims at the widget in the frame (aim: ${await panel.evaluate(() => (window as any).afhttpPanelStats.aim)})`)
})
