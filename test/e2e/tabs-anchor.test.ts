import t from 'tap'
import { startHost } from '../helpers/host.js'
import { ANCHOR_URL, browserSession } from '../../src/browser/window-anchor.js'

async function pageTargets (browser: import('puppeteer-core').Browser): Promise<Array<{ targetId: string, url: string }>> {
  // The host's shared browser session: a second one made and detached beside it can make
  // puppeteer forget the browser target (see browserSession).
  const { targetInfos } = await (await browserSession(browser)).send('Target.getTargets')
  return targetInfos.filter((i) => i.type === 'page').map((i) => ({ targetId: i.targetId, url: i.url }))
}

t.test('tabs, the window anchor and DELETE against real Chromium', async (t) => {
  // No pool: these checks count every window, and the last-window guarantee is starkest without spares.
  const host = await startHost(t, { env: { AFHTTP_TAB_POOL: '0' } })
  const profile = host.config.defaultProfile
  const browser = await host.app.browsers.get(profile)

  t.test('the browser starts with only the anchor, which is never listed', async (t) => {
    const pages = await pageTargets(browser)
    t.same(pages.map((p) => p.url), [ANCHOR_URL])
    const res = await host.api('/v1/tabs')
    t.same((await res.json()).tabs, [])
  })

  t.test('inventory lists an opened tab with the SPEC fields; DELETE closes it', async (t) => {
    const tab = await host.app.tabs.open(profile)
    await tab.page.setContent('<title>Hello tab</title><p>hi</p>')
    const list = await (await host.api('/v1/tabs')).json()
    t.equal(list.tabs.length, 1)
    const view = list.tabs[0]
    t.equal(view.tab_id, tab.id)
    t.equal(view.profile, profile)
    t.equal(view.title, 'Hello tab')
    t.equal(view.controller, 'agent')
    t.equal(view.retained, false)
    t.type(view.idle_ms, 'number')
    t.ok('handoff' in view)
    const one = await (await host.api(`/v1/tabs/${tab.id}`)).json()
    t.equal(one.tab.tab_id, tab.id)
    const del = await host.api(`/v1/tabs/${tab.id}`, { method: 'DELETE' })
    t.equal(del.status, 200)
    t.ok(tab.page.isClosed())
    const missing = await host.api(`/v1/tabs/${tab.id}`)
    t.equal(missing.status, 404)
    t.equal((await missing.json()).error.code, 'tab_not_found')
  })

  t.test('20 concurrent closes of the last tabs never close the last window', async (t) => {
    const tabs = await Promise.all(Array.from({ length: 20 }, () => host.app.tabs.open(profile)))
    // A user closed the anchor too: the guard must recreate it before any close.
    const anchor = (await pageTargets(browser)).find((p) => p.url === ANCHOR_URL)
    t.ok(anchor)
    await (await browserSession(browser)).send('Target.closeTarget', { targetId: anchor!.targetId })
    const results = await Promise.all(tabs.map((tab) => host.api(`/v1/tabs/${tab.id}`, { method: 'DELETE' })))
    t.same(results.map((r) => r.status), Array(20).fill(200))
    t.ok(browser.connected, 'the browser is still running')
    const pages = await pageTargets(browser)
    t.same(pages.map((p) => p.url), [ANCHOR_URL], 'exactly one page is left: the anchor')
    t.same((await (await host.api('/v1/tabs')).json()).tabs, [])
  })

  t.test('a guard that cannot be shown leaves the page open and says anchor_guard_failed', async (t) => {
    const tab = await host.app.tabs.open(profile)
    const pid = host.app.browsers.status(profile).pid
    t.ok(pid, 'a launched browser has a pid')
    process.kill(pid!, 'SIGSTOP')
    let res: Response
    try {
      res = await host.api(`/v1/tabs/${tab.id}`, { method: 'DELETE' })
    } finally {
      process.kill(pid!, 'SIGCONT')
    }
    t.equal(res.status, 500)
    const body = await res.json()
    t.equal(body.error.code, 'anchor_guard_failed')
    t.equal(body.error.retryable, true)
    t.notOk(tab.page.isClosed(), 'the page stays open')
    t.equal(await tab.page.evaluate('1 + 1'), 2, 'and still answers')
    const again = await host.api(`/v1/tabs/${tab.id}`, { method: 'DELETE' })
    t.equal(again.status, 200, 'the close works once the browser answers again')
  })

  t.test('a page closed inside the browser leaves the inventory', async (t) => {
    const tab = await host.app.tabs.open(profile)
    await tab.page.close()
    t.equal(host.app.tabs.find(tab.id), undefined)
  })

  t.test('a popup opened by a page is adopted and listed', async (t) => {
    const tab = await host.app.tabs.open(profile)
    const popup = new Promise((resolve) => browser.once('targetcreated', resolve))
    await tab.page.evaluate(() => { window.open('about:blank#popup') })
    await popup
    // Adoption follows targetcreated asynchronously: wait for it (bounded), then judge.
    const listed = (): boolean => host.app.tabs.list().some((x) => x.page.url() === 'about:blank#popup')
    const deadline = Date.now() + 10_000
    while (!listed() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
    t.ok(listed(), 'the popup is a tab')
    for (const x of host.app.tabs.list()) await host.app.tabs.close(x.id, 'api')
  })
})
