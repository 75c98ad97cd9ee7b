// The tab inventory on fakes (test/tabs/fakes.ts): how tabs enter it (opened from a pool,
// adopted from the browser), how they leave it and what each way tells, the work guard, the
// window pools per browser and the idle reaper (docs/spec.md sections 8 and 14). No Chromium.
import t from 'tap'
import { afhttpErrorOf } from '../handoffs/fakes.js'
import { reapIntervalMs } from '../../src/tabs/idle-reaper.js'
import type { TabRecord } from '../../src/tabs/types.js'
import { fakeInventory, FakePage, FakeTabBrowser, FakeTarget, IDLE_MS, nextTurn } from './fakes.js'

function withBrowser (pid: number | undefined = 100) {
  const fakes = fakeInventory()
  const browser = new FakeTabBrowser(pid)
  fakes.browsers.start('work', browser)
  return { ...fakes, browser }
}

t.test('open takes a window from the profile\'s pool and tells tab.opened and the pool listeners', async (t) => {
  const { inventory, lifecycle, pools, clock } = withBrowser()
  const takes: Array<[string, boolean]> = []
  inventory.onPoolTake((profile, hit) => takes.push([profile, hit]))
  const tab = await inventory.open('work')
  const second = await inventory.open('work')
  t.equal(pools.length, 1, 'one pool for the browser, made when it started')
  t.same(takes, [['work', true], ['work', false]], 'a hit while the pool held a window, then a miss')
  t.match(tab, { profile: 'work', origin: 'host', retained: false, busy: 0, openedAt: clock.now(), lastActiveAt: clock.now() })
  t.not(tab.id, second.id)
  t.equal(inventory.get(tab.id), tab)
  t.equal(inventory.find(tab.id), tab)
  t.same(inventory.list().map((x) => x.id), [tab.id, second.id])
  t.same(lifecycle.told[0], { type: 'tab.opened', where: { tab_id: tab.id, profile: 'work' }, data: { url: 'about:blank', origin: 'host' } })
})

t.test('an unknown tab is tab_not_found, its id bounded in the message', async (t) => {
  const { inventory } = fakeInventory()
  const err = await afhttpErrorOf(() => inventory.get('nope'))
  t.equal(err.code, 'tab_not_found')
  t.equal(err.message, 'No tab "nope"; list tabs with GET /v1/tabs.')
  t.same(err.details, { tab_id: 'nope' })
  const long = 'x'.repeat(200)
  t.equal((await afhttpErrorOf(() => inventory.get(long))).message, `No tab ${JSON.stringify(long).slice(0, 80)}; list tabs with GET /v1/tabs.`)
  t.equal(inventory.find('nope'), undefined)
})

t.test('pages that appear in the browser are adopted, popups with their opener; anchors and pool windows are not', async (t) => {
  const { inventory, lifecycle, browser, pools } = withBrowser()
  const opener = await inventory.open('work')
  const popup = new FakePage('https://id.example/signin', browser)
  popup.target$.openerTarget = (opener.page as unknown as FakePage).target$
  browser.announce(popup.target$)
  await nextTurn()
  const adopted = inventory.list().find((x) => x.page === popup.asPage)
  t.ok(adopted, 'the popup is a tab')
  t.equal(adopted?.origin, 'adopted')
  t.same(lifecycle.told.at(-1), { type: 'tab.opened', where: { tab_id: adopted?.id, profile: 'work' }, data: { url: 'https://id.example/signin', origin: 'adopted', opener_tab_id: opener.id } })

  const before = inventory.list().length
  browser.announce(new FakePage('about:blank#afhttp-window-anchor', browser).target$)
  browser.announce(new FakeTarget(null, 'service_worker', 'https://id.example/sw.js'))
  const poolWindow = new FakePage('about:blank', browser)
  pools[0].owned.add(poolWindow.target())
  browser.announce(poolWindow.target$)
  const gone = new FakePage('https://id.example/x', browser)
  gone.closed = true
  browser.announce(gone.target$)
  await nextTurn()
  t.equal(inventory.list().length, before, 'the anchor, a worker, a pool window and a closed page are not tabs')

  // A fetch's own page announced before its open() registers it: the host's claim wins, one tab.
  const raced = new FakePage('about:blank', browser)
  browser.announce(raced.target$)
  await nextTurn()
  const opened = lifecycle.told.length
  const adoptedFirst = inventory.list().find((x) => x.page === raced.asPage)
  pools[0].options.onForeign?.(raced.asPage)
  t.equal(lifecycle.told.length, opened, 'a page already tracked is not told twice')
  t.equal(adoptedFirst?.origin, 'adopted')
})

t.test('a CDP client\'s navigation of a pool window makes it an adopted tab', async (t) => {
  const { inventory, pools, browser } = withBrowser()
  const page = new FakePage('https://elsewhere.example/', browser)
  pools[0].options.onForeign?.(page.asPage)
  t.equal(inventory.list().find((x) => x.page === page.asPage)?.origin, 'adopted')
  const closed = new FakePage('https://elsewhere.example/2', browser)
  closed.closed = true
  pools[0].options.onForeign?.(closed.asPage)
  t.equal(inventory.list().length, 1, 'a window already closed is not adopted')
})

t.test('close: protection re-checked unless the API asks, the anchor guard first, listeners before tab.closed', async (t) => {
  const { inventory, lifecycle, failAnchorGuard, anchorGuards, browser } = withBrowser()
  const tab = await inventory.open('work')
  let protector: string | undefined = 'open handoff'
  inventory.addProtector(() => protector)
  const err = await afhttpErrorOf(() => inventory.close(tab.id, 'reaper'))
  t.equal(err.code, 'tab_under_human_control')
  t.equal(err.message, 'The tab is protected (open handoff) and was left open.')
  t.same(err.details, { tab_id: tab.id })
  t.equal(tab.page.isClosed(), false)

  failAnchorGuard(new Error('anchor_guard_failed'))
  await t.rejects(inventory.close(tab.id, 'api'), { message: 'anchor_guard_failed' })
  t.equal(tab.page.isClosed(), false, 'a failed guard leaves the page open')
  t.equal(inventory.find(tab.id), tab, 'and the tab listed')
  failAnchorGuard(undefined)

  const heard: string[] = []
  inventory.onClosed((closed, reason) => heard.push(`${closed.id} ${reason} after ${lifecycle.told.filter((x) => x.type === 'tab.closed').length} tab.closed`))
  await inventory.close(tab.id, 'api')
  t.equal(anchorGuards.at(-1), browser.asBrowser)
  t.equal(tab.page.isClosed(), true)
  t.equal(inventory.find(tab.id), undefined)
  t.same(heard, [`${tab.id} api after 0 tab.closed`], 'the listeners hear the reason the close was asked with, before tab.closed')
  t.same(lifecycle.told.at(-1), { type: 'tab.closed', where: { tab_id: tab.id, profile: 'work' }, data: { reason: 'api' } })
  const page = tab.page as unknown as FakePage
  t.equal(page.listeners('close') + page.listeners('response'), 0, 'what the inventory hung on the page is removed')
  protector = undefined
})

t.test('a page that closes by itself leaves as page_closed; its document responses were kept', async (t) => {
  const { inventory, lifecycle } = withBrowser()
  const tab = await inventory.open('work')
  const page = tab.page as unknown as FakePage
  page.respond('https://shop.example/cart', 200)
  page.respond('https://shop.example/login', 302)
  page.respond('https://shop.example/app.js', 200, { navigation: false })
  page.respond('https://ads.example/frame', 200, { frame: {} })
  t.same(tab.lastResponse, { status: 200, url: 'https://shop.example/cart', headers: { 'content-type': 'text/html' } }, 'redirects, subresources and subframes are not the document')
  page.closeNow()
  t.equal(inventory.find(tab.id), undefined)
  t.same(lifecycle.told.at(-1)?.data, { reason: 'page_closed' })
})

t.test('release: refused while protected; the tab leaves at once, its window goes back after the answer', async (t) => {
  const { inventory, pools, lifecycle, browsers, browser } = withBrowser()
  const tab = await inventory.open('work')
  inventory.addProtector((x) => x.retained ? 'retained for a person' : undefined)
  tab.retained = true
  t.equal((await afhttpErrorOf(() => inventory.release(tab.id))).message, 'The tab is protected (retained for a person) and was left open.')
  tab.retained = false

  await inventory.release(tab.id, true)
  t.equal(inventory.find(tab.id), undefined, 'gone from the inventory at once')
  t.same(lifecycle.told.at(-1)?.data, { reason: 'fetch_cleanup' })
  t.same(pools[0].retired, [], 'the window waits for the answer to go out')
  await nextTurn()
  t.same(pools[0].retired, [{ page: tab.page, reusable: true }])

  // The browser restarted meanwhile: the old window is closed, not given to the new pool.
  const old = await inventory.open('work')
  browsers.start('work', new FakeTabBrowser(101))
  await inventory.release(old.id)
  await nextTurn()
  t.equal(old.page.isClosed(), true)
  t.equal(pools[1].retired.length, 0)
  t.equal(pools[0].browser, browser.asBrowser)
})

t.test('beginWork: one fetch per tab; done once, it marks the tab active and refills the pool after the answer', async (t) => {
  const { inventory, pools, clock } = withBrowser()
  const tab = await inventory.open('work')
  const other = await inventory.open('work')
  const done = inventory.beginWork(tab)
  const pool = pools[0]
  t.equal(pool.options.running?.(), 1, 'the pool knows one fetch runs')
  t.equal(pool.options.quiet?.(), false, 'and does not refill beside it')
  const busy = await afhttpErrorOf(() => inventory.beginWork(tab))
  t.equal(busy.code, 'tab_busy')
  t.equal(busy.message, 'Another fetch is working this tab; wait for it to answer.')
  const doneOther = inventory.beginWork(other)
  t.equal(pool.options.running?.(), 2)

  clock.advance(5_000)
  const refills = pool.refills
  done()
  done()
  t.equal(tab.busy, 0, 'done twice counts once')
  t.equal(tab.lastActiveAt, clock.now())
  t.equal(pool.refills, refills, 'the refill waits for the answer to go out')
  await nextTurn()
  t.equal(pool.refills, refills + 1)
  doneOther()
  t.equal(pool.options.quiet?.(), true)
  await inventory.shutdown()
  t.equal(pool.options.quiet?.(), false, 'a closing host never refills')
  t.same(pool.stops, [false], 'its windows go with the browser\'s own close')
})

t.test('one pool per running browser: sized by AFHTTP_TAB_POOL when launched, 0 when attached; a loss ends its tabs', async (t) => {
  const { inventory, browsers, pools, lifecycle } = fakeInventory({ tabIdleMs: IDLE_MS, tabPool: 3 })
  const launched = new FakeTabBrowser(1)
  browsers.start('work', launched)
  browsers.start('remote', new FakeTabBrowser())
  t.same(pools.map((p) => p.options.size), [3, 0])
  await nextTurn()
  t.same(pools.map((p) => p.refills), [1, 1], 'each fills once the anchor is attached')
  t.same(inventory.poolLevels(), { work: 1, remote: 1 })
  t.equal(inventory.poolAvailable('nobody'), 0)

  const a = await inventory.open('work')
  const b = await inventory.open('remote')
  const seen: string[] = []
  inventory.onClosed((tab, reason) => seen.push(`${tab.id} ${reason}`))
  browsers.lose('work')
  t.same(seen, [`${a.id} browser_lost`], 'only the lost browser\'s tabs')
  t.equal(inventory.find(b.id), b)
  t.same(pools[0].stops, [false])
  t.same(inventory.poolLevels(), { remote: 0 })
  t.same(lifecycle.told.at(-1), { type: 'tab.closed', where: { tab_id: a.id, profile: 'work' }, data: { reason: 'browser_lost' } })

  browsers.start('work', new FakeTabBrowser(2))
  browsers.start('work', new FakeTabBrowser(3))
  t.same(pools[2].stops, [false], 'a newer browser of the profile replaces the pool')
  t.equal(pools.length, 4)
})

t.test('the reaper closes idle tabs nothing protects, one pass at a time, and reports each outcome', async (t) => {
  const { inventory, clock, log, browsers } = withBrowser()
  const idle = await inventory.open('work')
  const held = await inventory.open('work')
  const working = await inventory.open('work')
  inventory.addProtector((tab: TabRecord) => tab.id === held.id ? 'open handoff' : undefined)
  const done = inventory.beginWork(working)
  const attached = new FakeTabBrowser()
  browsers.start('remote', attached)
  const foreign = new FakePage('https://client.example/', attached)
  attached.announce(foreign.target$)
  await nextTurn()
  const foreignTab = inventory.list().find((x) => x.page === foreign.asPage)
  t.ok(foreignTab)
  const fresh = await inventory.open('work')
  clock.advance(IDLE_MS + 1)
  fresh.lastActiveAt = clock.now()

  const reports: unknown[] = []
  inventory.onReaped((r) => reports.push(r))
  const pass = inventory.reap()
  t.equal(inventory.reap(), pass, 'a second call joins the pass running')
  const report = await pass
  t.same(report.closed, [{ tab_id: idle.id, idle_ms: IDLE_MS + 1 }])
  t.same(report.failed, [{ tab_id: foreignTab?.id, error: 'not reaped: a tab the host did not open in an attached (cdp) browser' }])
  t.same(report.protected.map((p) => [p.tab_id, p.by]).sort(), [[held.id, 'open handoff'], [working.id, 'agent operation in flight']].sort())
  t.equal(report.at, new Date(clock.now()).toISOString())
  t.equal(inventory.find(idle.id), undefined)
  t.equal(inventory.find(fresh.id), fresh, 'a recently used tab stays')
  t.equal(inventory.lastReap(), report)
  t.same(reports, [report])
  const line = log.find('idle reaper ran')
  t.equal(line?.level, 'warn', 'a pass with failures is a warning')
  t.equal(line?.obj.reaper, report)
  t.not(inventory.reap(), pass, 'the next call is a new pass')
  done()
})

t.test('the reaper looks every quarter of the idle limit, between 250 ms and 30 s', async (t) => {
  t.equal(reapIntervalMs(60_000), 15_000)
  t.equal(reapIntervalMs(400), 250)
  t.equal(reapIntervalMs(10 * 60_000), 30_000)
})

t.test('describe: the inventory view, with what the describers add', async (t) => {
  const { inventory, clock } = withBrowser()
  const tab = await inventory.open('work')
  clock.advance(1_500)
  t.same(await inventory.describe(tab), {
    tab_id: tab.id, profile: 'work', url: 'about:blank', title: 'title of about:blank', controller: 'agent', retained: false, idle_ms: 1_500, handoff: null
  })
  inventory.addDescriber(() => ({ controller: 'human' }))
  t.equal((await inventory.describe(tab)).controller, 'human')
  const guarded: string[] = []
  inventory.addActGuard((x) => { guarded.push(x.id) })
  inventory.assertAgentMayAct(tab)
  t.same(guarded, [tab.id])
  inventory.touch(tab.id)
  t.equal(inventory.idleMs(tab), 0)
})
