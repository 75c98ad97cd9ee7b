import t from 'tap'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startHost } from '../helpers/host.js'
import type { Teardown } from '../helpers/teardown.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { poolStats, type PoolStats } from '../../src/browser/window-pool.js'

// A fetch that finds the pool empty waits for a window coming back reset when that is sooner, all
// told, than building one (docs/decisions.md, "A burst waits for windows coming back"); a burst
// of slow pages still gets its windows built and runs at once. Counts, never timings: the pool's
// own counters and the number of requests a server saw at the same time.

// Waits for what the pool does in the background, with a generous bound (never a timing).
async function until (what: string, check: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

const QUICK = '<!doctype html><title>quick</title><p>A page that loads at once.</p>'

// A host with the default pool of two, and the counters of its default profile's pool.
async function poolHost (t: Teardown): Promise<{ fetchOk: (url: string) => Promise<boolean>, stats: PoolStats, ready: () => number }> {
  const host = await startHost(t, { env: { AFHTTP_TAB_POOL: '2' } })
  const profile = host.config.defaultProfile
  const stats = poolStats(await host.app.browsers.get(profile))
  const fetchOk = async (url: string): Promise<boolean> => (await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url }) })).json()).ok
  return { fetchOk, stats, ready: () => host.app.tabs.poolAvailable(profile) }
}

t.test('the window pool builds windows for waiting fetches only when none comes back sooner', async (t) => {
  t.test('a burst of quick fetches is served by the windows coming back', async (t) => {
    const { fetchOk, stats, ready } = await poolHost(t)
    const site = await startFixtureServer(t, { '/quick': { body: QUICK } })
    // What a fetch, a reset and a window cost here, learned the way a driver teaches it.
    for (let i = 0; i < 4; i++) t.ok(await fetchOk(`${site.url}/quick?warm=${i}`), `warm-up fetch ${i} is ok`)
    await until('the pool to hold two windows', () => ready() === 2)
    const built = stats.openedOnDemand
    const reused = stats.reused
    // Eight drivers, two fetches each: two find a window, six wait at first.
    const results = await Promise.all(Array.from({ length: 8 }, async (_, d) => [
      await fetchOk(`${site.url}/quick?d=${d}&n=0`),
      await fetchOk(`${site.url}/quick?d=${d}&n=1`)
    ]))
    t.same(results.flat(), Array(16).fill(true), 'every fetch is ok')
    t.ok(stats.reused - reused >= 10, `windows were reset and handed on within the burst (${stats.reused - reused})`)
    // Building a window for each of the six that waited first (at most two at a time) is what the
    // pool did before; a window coming back serves them sooner on this page.
    t.ok(stats.openedOnDemand - built < 4, `fewer windows built than fetches that waited (${stats.openedOnDemand - built} built, 6 waited)`)
  })

  t.test('a burst of slow pages gets windows built and runs at once', async (t) => {
    const { fetchOk, stats, ready } = await poolHost(t)
    const SLOW_MS = 4_000
    let inFlight = 0
    let most = 0
    const server = createServer((_req, res) => {
      most = Math.max(most, ++inFlight)
      setTimeout(() => {
        inFlight--
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'" })
        res.end('<!doctype html><title>slow</title><p>A page its server answers after four seconds.</p>')
      }, SLOW_MS)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    t.teardown(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`
    t.ok(await fetchOk(`${url}?warm=0`), 'a warm-up fetch teaches the pool this site holds its windows for seconds')
    await until('the pool to hold two windows', () => ready() === 2)
    const built = stats.openedOnDemand
    most = 0
    const results = await Promise.all(Array.from({ length: 6 }, async (_, i) => await fetchOk(`${url}?n=${i}`)))
    t.same(results, Array(6).fill(true), 'every fetch is ok')
    t.ok(stats.openedOnDemand - built >= 2, `windows were built for the fetches that waited (${stats.openedOnDemand - built})`)
    t.ok(most >= 4, `the server saw at least four of the six at once (${most}), not two at a time`)
  })
})
