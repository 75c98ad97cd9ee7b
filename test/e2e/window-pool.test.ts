import t from 'tap'
import type { Browser, Target } from 'puppeteer-core'
import { startHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { ManualClock } from '../../src/core/clock.js'
import { ANCHOR_URL, browserSession } from '../../src/browser/window-anchor.js'
import { POOL_PEAK_MEMORY_MS } from '../../src/core/pool-demand.js'

// The page reports what its window remembers (history, sessionStorage), then leaves traces
// of its own for a later fetch to find if it ever reused the window. It writes sessionStorage, so
// its window is never reset for another fetch (test/e2e/window-reuse.test.ts covers the windows
// that are): every fetch here runs in a window no fetch used.
const PAGE = `<!doctype html><title>Pool probe</title><main id="out">loading</main><script>
  const seen = sessionStorage.getItem('afhttp-probe') ?? 'none'
  document.getElementById('out').textContent = 'history=' + history.length + ' session=' + seen
  sessionStorage.setItem('afhttp-probe', location.search)
  history.pushState({}, '', location.pathname + location.search + '#left-behind')
</script>`

async function pageTargetIds (browser: Browser): Promise<Array<{ id: string, url: string }>> {
  // The host's shared browser session: a second one made and detached beside it can make
  // puppeteer forget the browser target (see browserSession).
  const { targetInfos } = await (await browserSession(browser)).send('Target.getTargets')
  return targetInfos.filter((i) => i.type === 'page').map((i) => ({ id: i.targetId, url: i.url }))
}

const targetId = (target: Target): string => (target as unknown as { _targetId: string })._targetId

// Waits for what the pool does in the background: eight headful windows opened one at a time on
// a loaded two-core machine have taken more than 15 s. A condition with a generous bound, never a timing.
async function until (what: string, check: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

t.test('the window pool: fresh windows for every fetch, refilled, never a tab', async (t) => {
  const clock = new ManualClock()
  const host = await startHost(t, { clock, env: { AFHTTP_TAB_POOL: '2', AFHTTP_TAB_IDLE_MS: '60000' } })
  const site = await startFixtureServer(t, { '/probe': { body: PAGE } })
  const profile = host.config.defaultProfile
  const browser = await host.app.browsers.get(profile)
  await until('the pool to fill', () => host.app.tabs.poolAvailable(profile) === 2)

  // Which window each fetch navigated, seen from the browser itself.
  const fetchesByTarget = new Map<string, string[]>()
  browser.on('targetchanged', (target: Target) => {
    const m = /[?&]n=(\d+)/.exec(target.url())
    if (!m) return
    const list = fetchesByTarget.get(targetId(target)) ?? []
    if (!list.includes(m[1])) list.push(m[1])
    fetchesByTarget.set(targetId(target), list)
  })

  t.test('pool windows are neither listed nor reaped, and the anchor stays', async (t) => {
    const before = await pageTargetIds(browser)
    t.equal(before.filter((p) => p.url === ANCHOR_URL).length, 1, 'one anchor')
    t.equal(before.filter((p) => p.url !== ANCHOR_URL).length, 2, 'two unused windows beside it')
    t.same((await (await host.api('/v1/tabs')).json()).tabs, [], 'the inventory lists none of them')
    clock.advance(10 * 60_000)
    const report = await host.app.tabs.reap()
    t.same([report.closed, report.failed, report.protected], [[], [], []], 'the reaper sees nothing to close')
    t.same((await pageTargetIds(browser)).map((p) => p.id).sort(), before.map((p) => p.id).sort(), 'every window is still open')
  })

  t.test('sequential fetches each take a window opened before they asked, used by no one before', async (t) => {
    const texts: string[] = []
    for (let n = 0; n < 5; n++) {
      await until('the pool to refill', () => host.app.tabs.poolAvailable(profile) === 2)
      const waiting = new Set((await pageTargetIds(browser)).filter((p) => p.url === 'about:blank').map((p) => p.id))
      const res = await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/probe?n=${n}` }) })
      const body = await res.json()
      t.equal(body.ok, true, `fetch ${n} is ok`)
      texts.push(body.artifacts.text.trim())
      const used = [...fetchesByTarget].find(([, ns]) => ns.includes(String(n)))
      t.ok(used, `fetch ${n} was seen in a window`)
      t.ok(waiting.has(used![0]), `fetch ${n} landed in a window the pool had ready`)
      t.same((await (await host.api('/v1/tabs')).json()).tabs, [], 'its tab left the inventory with the answer')
      await until(`fetch ${n}'s window to close`, async () => !(await pageTargetIds(browser)).some((p) => p.id === used![0]))
    }
    for (const [id, ns] of fetchesByTarget) t.equal(ns.length, 1, `window ${id} served exactly one fetch`)
    t.equal(new Set(texts).size, 1, `every fetch saw the same fresh window state: ${texts[0]}`)
    t.match(texts[0], /session=none$/, 'no sessionStorage from an earlier fetch')
    // 2 = the blank document a new window opens with, then this page; a reused window shows 3 or more.
    t.match(texts[0], /^history=2 /, 'no history from an earlier fetch')
  })

  t.test('eight concurrent fetches never share a window; the pool refills afterwards', async (t) => {
    const ns = Array.from({ length: 8 }, (_, i) => 100 + i)
    const bodies = await Promise.all(ns.map(async (n) => (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/probe?n=${n}` }) })).json()))
    t.same(bodies.map((b) => b.ok), Array(8).fill(true))
    t.same(new Set(bodies.map((b) => b.artifacts.text.trim())).size, 1, 'all saw a fresh window')
    const windows = ns.map((n) => [...fetchesByTarget].filter(([, seen]) => seen.includes(String(n))).map(([id]) => id))
    t.same(windows.map((w) => w.length), Array(8).fill(1), 'each fetch ran in one window')
    t.equal(new Set(windows.flat()).size, 8, 'eight different windows')
    for (const [id, seen] of fetchesByTarget) t.equal(seen.length, 1, `window ${id} served one fetch`)
    // After a burst the pool keeps up to its peak (eight), so the next burst finds them open.
    await until('the pool to refill up to the burst', () => host.app.tabs.poolAvailable(profile) === 8)
    await until('only the anchor and the pool to remain', async () => (await pageTargetIds(browser)).length === 9)
    t.same((await (await host.api('/v1/tabs')).json()).tabs, [])
    const again = ns.map((n) => n + 8)
    const windowsBefore = new Set((await pageTargetIds(browser)).filter((p) => p.url === 'about:blank').map((p) => p.id))
    const second = await Promise.all(again.map(async (n) => (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/probe?n=${n}` }) })).json()))
    t.same(second.map((b) => b.ok), Array(8).fill(true))
    const used = again.map((n) => [...fetchesByTarget].find(([, seen]) => seen.includes(String(n)))?.[0])
    t.equal(new Set(used).size, 8, 'the second burst ran in eight different windows')
    t.ok(used.every((id) => id !== undefined && windowsBefore.has(id)), 'each one already open before the burst asked')
    for (const [id, seen] of fetchesByTarget) t.equal(seen.length, 1, `window ${id} served one fetch`)
    // Once the burst is forgotten, the pool goes back to AFHTTP_TAB_POOL.
    await until('the pool to refill up to the burst again', () => host.app.tabs.poolAvailable(profile) === 8)
    clock.advance(POOL_PEAK_MEMORY_MS + 1)
    t.equal((await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/probe?n=130` }) })).json()).ok, true)
    await until('the pool to shrink back', () => host.app.tabs.poolAvailable(profile) === 2)
    await until('only the anchor and the pool to remain', async () => (await pageTargetIds(browser)).length === 3)
  })

  t.test('a closed anchor is recreated by the next fetch cleanup, pool windows untouched', async (t) => {
    const anchor = (await pageTargetIds(browser)).find((p) => p.url === ANCHOR_URL)!
    await (await browserSession(browser)).send('Target.closeTarget', { targetId: anchor.id })
    const res = await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/probe?n=200` }) })
    t.equal((await res.json()).ok, true)
    const after = await pageTargetIds(browser)
    t.equal(after.filter((p) => p.url === ANCHOR_URL).length, 1, 'the anchor is back')
    t.same((await (await host.api('/v1/tabs')).json()).tabs, [], 'and never listed')
  })

  t.test('pool windows someone else navigated (a CDP client sees them) are never handed to a fetch', async (t) => {
    await until('the pool to refill', () => host.app.tabs.poolAvailable(profile) === 2)
    const touched = (await browser.pages()).filter((p) => p.url() === 'about:blank' && !p.isClosed())
    t.equal(touched.length, 2, 'both pool windows')
    for (const [i, p] of touched.entries()) await p.goto(`${site.url}/probe?n=40${i}`)
    const res = await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/probe?n=410` }) })
    const body = await res.json()
    t.equal(body.ok, true)
    t.match(body.artifacts.text, /session=none$/, 'the fetch saw none of the other client\'s sessionStorage')
    const used = [...fetchesByTarget].filter(([, ns]) => ns.includes('410'))
    t.equal(used.length, 1)
    t.same(used[0][1], ['410'], 'it ran in a window nobody had used')
    // They are the other client's pages now: listed as tabs, still where it left them, closed only by it (or the reaper).
    await until('the touched windows listed as tabs', () => host.app.tabs.list().filter((x) => x.page.url().includes('n=40')).length === 2)
    t.same(touched.map((p) => p.isClosed()), [false, false], 'neither was closed under the client')
    for (const x of host.app.tabs.list().filter((x) => x.page.url().includes('n=40'))) {
      t.equal(x.origin, 'adopted')
      await host.app.tabs.close(x.id, 'api')
    }
  })

  t.test('a browser that went away takes its pool with it; the next start fills a new one', async (t) => {
    const pid = host.app.browsers.status(profile).pid!
    const lost = new Promise((resolve) => browser.once('disconnected', resolve))
    process.kill(pid, 'SIGKILL')
    await lost
    t.equal(host.app.tabs.poolAvailable(profile), 0, 'no windows are counted in a dead browser')
    const res = await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/probe?n=300` }) })
    t.equal((await res.json()).ok, true, 'the next fetch starts the browser again and works')
    await until('the new pool to fill', () => host.app.tabs.poolAvailable(profile) === 2)
  })
})

t.test('AFHTTP_TAB_POOL=0 opens windows on demand and keeps none open', async (t) => {
  const host = await startHost(t, { env: { AFHTTP_TAB_POOL: '0' } })
  const site = await startFixtureServer(t, { '/probe': { body: PAGE } })
  const browser = await host.app.browsers.get(host.config.defaultProfile)
  const res = await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/probe?n=1` }) })
  t.equal((await res.json()).ok, true)
  await until('only the anchor to remain', async () => (await pageTargetIds(browser)).length === 1)
  t.equal(host.app.tabs.poolAvailable(host.config.defaultProfile), 0)
})
