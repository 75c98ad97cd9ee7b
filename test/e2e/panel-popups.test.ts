// Popups join the handoff (docs/spec.md section 7 "Popups"): a page whose "Sign in" button opens a
// window with a form. The person (a second headless Chromium working the panel) sees the panel
// follow the popup, types into its form and submits; the popup closes itself, the panel comes
// back to the opener, which shows "Signed in"; Done; the driver's re-fetch sees the signed-in page.
import t from 'tap'
import type { IncomingMessage } from 'node:http'
import { startHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { clientPointOf, launchViewerBrowser, onHost, openViewer, waitForControl, waitForFrames } from '../helpers/panel-browser.js'

const signedIn = new Set<string>()
const APP = (): string => signedIn.size > 0
  ? `<!doctype html><title>App</title><h1 id="who">Signed in as ${[...signedIn][0]}</h1>`
  : `<!doctype html><title>App</title><body style="margin:0;font:16px sans-serif"><p>You are not signed in.</p>
<button id="signin" style="position:absolute;left:40px;top:60px;width:240px;height:80px"
  onclick="window.open('/popup', 'signin', 'width=520,height=560')">Sign in</button>`
const POPUP = `<!doctype html><title>Sign in</title><body style="margin:0;font:16px sans-serif">
<form action="/login" method="get"><input id="user" name="user" autocomplete="off"
  style="position:absolute;left:20px;top:20px;width:300px;height:40px;font-size:18px"></form>`
const LOGIN = (req: IncomingMessage): string => {
  const user = new URL(req.url ?? '/', 'http://x').searchParams.get('user') ?? ''
  if (user) signedIn.add(user)
  return '<!doctype html><title>Signed in</title><script>window.opener && window.opener.location.reload(); window.close()</script>'
}

t.test('a sign-in popup is worked through the panel and the opener is signed in', async (t) => {
  const host = await startHost(t)
  const site = await startFixtureServer(t, { '/app': { status: 401, body: APP }, '/popup': { body: POPUP }, '/login': { body: LOGIN } })
  const browser = await launchViewerBrowser(t)
  const fetched = await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/app`, takeover: true, instructions: 'Sign in as alice.' }) })).json() as any
  const tabId: string = fetched.tab_id
  const { page } = await openViewer(browser, host)
  await page.goto(onHost(host, fetched.actions[0].takeover_url_secret))
  await waitForFrames(page)
  await waitForControl(page)

  const signIn = await clientPointOf(page, 160, 100)
  await page.mouse.click(signIn.x, signIn.y)
  // The panel follows the new window, and the strip lists both.
  await page.waitForFunction((root: string) => { const s = (window as any).afhttpPanelStats; return s.tab_id && s.tab_id !== root }, { timeout: 10_000 }, tabId)
  const popupId: string = await page.evaluate(() => (window as any).afhttpPanelStats.tab_id)
  const strip = await page.$$eval('#afhttp-tabs button', (bs) => bs.map((b) => ({ id: (b as HTMLElement).dataset.tabId, selected: b.getAttribute('aria-selected') })))
  t.same(strip, [{ id: tabId, selected: 'false' }, { id: popupId, selected: 'true' }], 'one button per window, the popup selected')
  t.equal(await page.$eval('#afhttp-tabs', (el) => (el as HTMLElement).hidden), false)

  t.test('the popup is held and listed with its opener', async (t) => {
    const list = await (await host.api('/v1/tabs')).json() as any
    const row = list.tabs.find((r: any) => r.tab_id === popupId)
    t.equal(row?.opener_tab_id, tabId)
    const res = await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ tab_id: popupId, url: `${site.url}/app` }) })
    t.equal(res.status, 409)
    t.equal((await res.json() as any).error.code, 'tab_under_human_control')
  })

  // A frame of the popup, then type into its form and submit.
  const popupTab = host.app.tabs.get(popupId)
  const popupSize = await popupTab.page.evaluate(() => ({ width: innerWidth, height: innerHeight }))
  await page.waitForFunction((w: number, h: number) => { const d = (window as any).afhttpPanelStats.device; return d?.width === w && d?.height === h }, { timeout: 10_000 }, popupSize.width, popupSize.height)
  const field = await clientPointOf(page, 170, 40)
  await page.mouse.click(field.x, field.y)
  await popupTab.page.waitForFunction(() => document.activeElement?.id === 'user', { timeout: 20_000 })
  await page.keyboard.type('alice')
  await popupTab.page.waitForFunction(() => (document.getElementById('user') as HTMLInputElement).value === 'alice', { timeout: 20_000 })
  await page.keyboard.press('Enter')

  // The popup closes itself; the panel comes back to the opener, which shows "Signed in".
  await page.waitForFunction((root: string) => (window as any).afhttpPanelStats.tab_id === root, { timeout: 10_000 }, tabId)
  t.equal(await page.$eval('#afhttp-tabs', (el) => (el as HTMLElement).hidden), true, 'one window left: no strip')
  const opener = host.app.tabs.get(tabId)
  await opener.page.waitForFunction(() => document.body.innerText.includes('Signed in'), { timeout: 10_000 })

  await page.click('#afhttp-done')
  await page.waitForFunction(() => (window as any).afhttpPanelStats.finish_reason === 'human_done', { timeout: 20_000 })
  const s = await (await host.api(`/v1/tabs/${tabId}/handoff`)).json() as any
  t.equal(s.outcome.navigated, true, 'the opener navigated during the handoff')
  const again = await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ tab_id: tabId, url: `${site.url}/app`, takeover: true }) })).json() as any
  t.match(again.text ?? again.content?.text ?? JSON.stringify(again), /Signed in as alice/, 'the re-fetch sees the signed-in page')
})
