// Regression for issue 11: a page that calls alert() on load, fetched with timeout_ms 5000,
// answered after 35 s with navigation_timeout. Now the fetch answers within its deadline with
// warning dialog_open, the host never answers the dialog, a takeover keeps the tab (reason
// dialog), /v1/tabs and snapshots say a dialog is open, and /health stays healthy.
import t from 'tap'
import { healthWhenReady, startHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { PageWatch } from '../../src/page-ui/page-watch.js'

const COOKIES = '<!doctype html><title>Shop</title><p>Welcome to the shop, with plenty of words on the page.</p><script>alert("We use cookies")</script><p id="after">after</p>'
const LATE_CONFIRM = '<!doctype html><title>Later</title><p>This page asks a question a moment after it loads.</p><script>setTimeout(() => { window.answer = confirm("Leave the newsletter?") }, 300)</script>'
const UPLOAD = '<!doctype html><title>Upload</title><p>Upload your document here, please, to continue.</p><input id="doc" type="file" style="position:absolute;left:20px;top:80px;width:200px;height:40px">'
const ARTICLE = '<!doctype html><title>Prices</title><main><h1>Widget prices</h1><p>Forty two euros for the blue widget, shipped today.</p></main>'

t.test('a JavaScript dialog during a fetch without a person', async (t) => {
  const host = await startHost(t)
  const site = await startFixtureServer(t, { '/cookies': { body: COOKIES }, '/late': { body: LATE_CONFIRM }, '/article': { body: ARTICLE }, '/upload': { body: UPLOAD } })
  const post = async (body: unknown): Promise<{ status: number, json: Record<string, any> }> => {
    const res = await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify(body) })
    return { status: res.status, json: await res.json() as Record<string, any> }
  }

  t.test('alert on load: the fetch answers within timeout_ms with dialog_open', async (t) => {
    const { status, json } = await post({ url: `${site.url}/cookies`, timeout_ms: 5000 })
    t.equal(status, 200, 'a page loaded: a result, not navigation_timeout')
    t.equal(json.ok, false)
    t.equal(json.status, 200)
    t.ok(json.trace.timings.total_ms < 5000, `answered within the deadline (${json.trace.timings.total_ms} ms)`)
    const w = json.warnings.find((x: { code: string }) => x.code === 'dialog_open')
    t.ok(w, 'warning dialog_open')
    t.same(w.dialog, { type: 'alert', message: 'We use cookies', origin: site.url })
    t.match(w.message, /We use cookies/)
    t.ok(json.warnings.some((x: { code: string, message: string }) => x.code === 'capture_failed' && /blocked by an open alert dialog/.test(x.message)), 'captures say why they are missing')
    t.equal(json.tab_retained, false)
    t.equal(host.app.tabs.find(json.tab_id), undefined, 'the fetch still closed its own tab')
  })

  t.test('takeover: the tab is kept for a person, reason dialog; inventory, snapshot and health', async (t) => {
    const { json } = await post({ url: `${site.url}/cookies`, timeout_ms: 5000, takeover: true })
    t.equal(json.ok, false)
    t.equal(json.tab_retained, true)
    t.equal(json.actions[0].kind, 'human_takeover')
    t.equal(json.actions[0].reason, 'dialog')
    t.match(json.actions[0].takeover_url_secret, /\/takeover\//, 'a panel URL was minted although the page runs no script')
    t.notOk(json.warnings.some((x: { code: string }) => x.code === 'takeover_url_unavailable'))
    const tab = host.app.tabs.get(json.tab_id)

    const listed = await (await host.api('/v1/tabs')).json() as { tabs: Array<Record<string, any>> }
    const mine = listed.tabs.find((x) => x.tab_id === json.tab_id)!
    t.equal(mine.dialog.type, 'alert')
    t.equal(mine.dialog.message, 'We use cookies')
    t.equal(mine.dialog.origin, site.url)
    // The page cannot run script, yet the inventory still names it (from the browser, not the page).
    t.equal(mine.title, 'Shop', 'the blocked tab keeps its title')

    const snap = await (await host.api(`/v1/tabs/${json.tab_id}/snapshot`, { method: 'POST', body: '{}' })).json() as Record<string, any>
    t.equal(snap.dialog.type, 'alert')
    t.ok(snap.warnings.some((x: { code: string }) => x.code === 'dialog_open'))

    const { status, body: hbody } = await healthWhenReady(host)
    t.equal(status, 200, 'the host stays healthy while a tab waits on a dialog')
    t.equal(hbody.status.takeover_ready, true)

    // The host never answered it: the dialog is still open and the page still blocked.
    t.ok(PageWatch.dialogOf(tab.page), 'still open after the fetch, the mint and the checks')
    await host.api(`/v1/tabs/${json.tab_id}`, { method: 'DELETE' })
  })

  t.test('a dialog that opens after load stops the inspection, not the deadline', async (t) => {
    const { status, json } = await post({ url: `${site.url}/late`, wait: 'selector-stable:#never', timeout_ms: 8000 })
    t.equal(status, 200)
    const w = json.warnings.find((x: { code: string }) => x.code === 'dialog_open')
    t.equal(w?.dialog.type, 'confirm')
    t.ok(json.trace.timings.total_ms < 8000, `did not wait out the readiness timeout (${json.trace.timings.total_ms} ms)`)
  })

  t.test('a file chooser that opens during a fetch is cancelled and reported', async (t) => {
    const tab = await host.app.tabs.open(host.config.defaultProfile)
    await post({ tab_id: tab.id, url: `${site.url}/upload` })
    const fetching = post({ tab_id: tab.id, wait: 'selector:#never', timeout_ms: 3000 })
    // Something clicks the input mid-fetch (a real click: a chooser needs user activation).
    const session = await tab.page.createCDPSession()
    for (const type of ['mousePressed', 'mouseReleased'] as const) await session.send('Input.dispatchMouseEvent', { type, x: 60, y: 100, button: 'left', clickCount: 1 })
    const { json } = await fetching
    const w = json.warnings.find((x: { code: string }) => x.code === 'file_chooser_open')
    t.ok(w, 'warning file_chooser_open')
    t.match(w?.message, /cancelled/)
    t.equal(await tab.page.$eval('#doc', (el) => (el as HTMLInputElement).files?.length), 0, 'the input stays empty')
    await session.detach()
    await host.app.tabs.close(tab.id, 'api')
  })

  t.test('after all that, an ordinary fetch works', async (t) => {
    const { json } = await post({ url: `${site.url}/article` })
    t.equal(json.ok, true)
    t.same(json.warnings, [])
  })
})
