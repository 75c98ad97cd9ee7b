// GET /metrics after real work (docs/spec.md sections 5 and 1 "ops"): fetches, the window pool,
// handoffs, a panel viewer, live checks, the reaper and a lost browser all move their counts.
import t from 'tap'
import WebSocket from 'ws'
import { startHost, type TestHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { ManualClock } from '../../src/core/clock.js'
import { leaseCookieOf, openLink } from '../helpers/open-link.js'

const ARTICLE = '<!doctype html><title>Article</title><main><h1>An article</h1><p>Plenty of ordinary readable text for the reader.</p></main>'
const WALL = '<!doctype html><title>Sign in required</title><p>Please sign in to keep reading this article.</p>'

type Samples = Map<string, number>

/** Prometheus text → `name{labels}` → value (labels in the order the registry prints them). */
async function scrape (host: TestHost): Promise<Samples> {
  const res = await host.api('/metrics')
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`)
  const samples: Samples = new Map()
  for (const line of (await res.text()).split('\n')) {
    if (!line || line.startsWith('#')) continue
    const at = line.lastIndexOf(' ')
    samples.set(line.slice(0, at), Number(line.slice(at + 1)))
  }
  return samples
}

const value = (s: Samples, key: string): number => s.get(key) ?? 0

async function until (what: string, check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

t.test('/metrics counts real work', async (t) => {
  const clock = new ManualClock()
  const host = await startHost(t, { clock, env: { AFHTTP_TAB_POOL: '2', AFHTTP_TAB_IDLE_MS: '60000' } })
  const site = await startFixtureServer(t, { '/article': { body: ARTICLE }, '/wall': { status: 403, body: WALL } })
  const profile = host.config.defaultProfile
  await host.app.browsers.get(profile)
  await until('the pool to fill', () => host.app.tabs.poolAvailable(profile) === 2)

  const unauthenticated = await fetch(`${host.url}/metrics`)
  t.equal(unauthenticated.status, 401, '/metrics needs the token')
  const before = await scrape(host)
  t.equal(value(before, `afhttp_pool_windows_available{profile="${profile}"}`), 2, 'the pool level is exported')

  const fetchJson = async (body: object): Promise<any> => (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify(body) })).json()
  t.equal((await fetchJson({ url: `${site.url}/article` })).ok, true)
  t.equal((await fetchJson({ url: `${site.url}/article` })).ok, true)
  t.equal((await fetchJson({ url: `${site.url}/missing` })).page_kind, 'http_error')
  t.equal((await fetchJson({ url: 'http://127.0.0.1:1/' })).error.code, 'navigation_failed')
  const wall = await fetchJson({ url: `${site.url}/wall`, takeover: true })
  const action = wall.actions[0]
  t.ok(action.takeover_url_secret, 'a panel URL was minted')

  // A viewer connects through the real exchange, receives frames, leaves.
  const cookie = leaseCookieOf(await openLink(action.takeover_url_secret))
  const ws = new WebSocket(`${host.url.replace('http', 'ws')}/panel/ws?tab=${wall.tab_id}`, { headers: { cookie, origin: host.url } })
  let frames = 0
  const states: any[] = []
  ws.on('message', (data, isBinary) => {
    if (isBinary) frames++
    else if ((JSON.parse(data.toString()) as { t?: string }).t === 'state') states.push(JSON.parse(data.toString()))
  })
  await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject) })
  await until('a frame', () => frames > 0)
  t.equal(value(await scrape(host), 'afhttp_panel_viewers'), 1, 'one viewer is connected')

  // The person's input reaches the page, and the input → page latency is observed for it.
  await until('the viewer to have control', () => states.some((s) => s.you_control === true))
  const g = states.findLast((s) => s.you_control === true).generation
  const page = host.app.tabs.get(wall.tab_id).page
  await page.evaluate(() => {
    const w = window as unknown as { seen: string[] }
    w.seen = []
    addEventListener('mousedown', () => w.seen.push('down'), true)
    addEventListener('keydown', () => w.seen.push('key'), true)
  })
  const inputBefore = await scrape(host)
  ws.send(JSON.stringify({ t: 'mouse', g, type: 'down', x: 20, y: 20, button: 'left', clicks: 1 }))
  ws.send(JSON.stringify({ t: 'mouse', g, type: 'up', x: 20, y: 20, button: 'left', clicks: 1 }))
  ws.send(JSON.stringify({ t: 'key', g, type: 'down', key: 'Tab' }))
  ws.send(JSON.stringify({ t: 'key', g, type: 'up', key: 'Tab' }))
  const inputMoved = async (kind: string): Promise<number> => value(await scrape(host), `afhttp_panel_input_to_page_seconds_count{kind="${kind}"}`) - value(inputBefore, `afhttp_panel_input_to_page_seconds_count{kind="${kind}"}`)
  await until('input latencies to be observed', async () => await inputMoved('pointer') === 2 && await inputMoved('key') === 2)
  // Chromium acknowledges an Input event once the renderer has handled it: the page saw both.
  t.same(await page.evaluate(() => (window as unknown as { seen: string[] }).seen), ['down', 'key'], 'the page saw the press and the key before their latencies were observed')
  const sum = 'afhttp_panel_input_to_page_seconds_sum{kind="pointer"}'
  const inputSum = value(await scrape(host), sum) - value(inputBefore, sum)
  t.ok(inputSum > 0 && inputSum < 10, `the two presses took ${(inputSum * 1000).toFixed(1)} ms in all to reach the page`)
  const live = [...(await scrape(host))].filter(([k]) => k.startsWith('afhttp_handoffs_live{'))
  t.equal(live.reduce((n, [, v]) => n + v, 0), 1, `one handoff is live: ${JSON.stringify(live)}`)
  ws.close()
  await until('the viewer to leave', async () => value(await scrape(host), 'afhttp_panel_viewers') === 0)

  const finish = await host.api(`/v1/tabs/${wall.tab_id}/handoff/finish`, { method: 'POST', body: JSON.stringify({ handoff_fence: action.handoff_fence }) })
  t.equal(finish.status, 200)
  // A completion watch that ends after the finish tells the handoff service so: the ending must
  // not be counted again (a clean-clone run once counted this finish twice).
  host.app.handoffs.touched(wall.tab_id)

  // The reaper closes the retained tab once it is idle.
  clock.advance(120_000)
  t.same((await host.app.tabs.reap()).closed.map((c) => c.tab_id), [wall.tab_id])

  // A browser that dies is a loss; the next fetch starts it again.
  const browser = host.app.browsers.peek(profile)!
  const gone = new Promise((resolve) => browser.once('disconnected', resolve))
  process.kill(host.app.browsers.status(profile).pid!, 'SIGKILL')
  await gone
  t.equal((await fetchJson({ url: `${site.url}/article` })).ok, true)

  const after = await scrape(host)
  const moved = (key: string): number => value(after, key) - value(before, key)
  t.equal(moved('afhttp_fetches_total{outcome="ok",page_kind="content"}'), 3, 'ok fetches by page_kind')
  t.equal(moved('afhttp_fetches_total{outcome="not_ok",page_kind="http_error"}'), 1, 'a loaded error page')
  t.equal(moved('afhttp_fetches_total{outcome="navigation_failed",page_kind="none"}'), 1, 'a failed fetch by its error code')
  t.equal(moved('afhttp_fetches_total{outcome="not_ok",page_kind="denied"}') + moved('afhttp_fetches_total{outcome="not_ok",page_kind="challenge"}') + moved('afhttp_fetches_total{outcome="not_ok",page_kind="none"}'), 1, 'the takeover fetch')
  t.equal(moved('afhttp_fetch_duration_seconds_count{outcome="ok"}'), 3, 'fetch durations are observed')
  t.ok(moved(`afhttp_pool_takes_total{profile="${profile}",result="hit"}`) >= 2, 'fetches took pool windows')
  t.ok(moved(`afhttp_pool_takes_total{profile="${profile}",result="hit"}`) + moved(`afhttp_pool_takes_total{profile="${profile}",result="miss"}`) === 6, 'every opened window is a hit or a miss')
  t.equal(moved('afhttp_handoffs_total{state="open",finish_reason=""}'), 1, 'a handoff opened')
  t.equal(moved('afhttp_handoffs_total{state="finished",finish_reason="driver"}'), 1, 'and the driver finished it')
  t.equal(moved('afhttp_handoff_duration_seconds_count{state="finished"}'), 1, 'its duration is observed')
  t.ok(moved('afhttp_panel_frames_total{result="sent"}') >= frames, `frames sent to the viewer are counted (${frames} received)`)
  t.equal(moved('afhttp_panel_viewer_frames_count'), 1, 'one viewer session')
  t.ok(moved('afhttp_live_check_duration_seconds_count{check="cdp_roundtrip",ok="true"}') >= 2, 'live checks of mint and admission are timed')
  t.equal(moved('afhttp_reaper_tabs_total{result="closed"}'), 1, 'the reaper closed one tab')
  t.equal(moved(`afhttp_browser_events_total{profile="${profile}",event="lost"}`), 1, 'the lost browser')
  t.equal(moved(`afhttp_browser_events_total{profile="${profile}",event="started"}`), 1, 'and its restart')
  t.ok(moved('afhttp_tabs_closed_total{reason="fetch_cleanup"}') >= 3, 'fetch windows closed after their answers')
})
