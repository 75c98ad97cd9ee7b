import t from 'tap'
import { createHostMetrics, type MetricsSources } from '../../src/metrics/host-metrics.js'
import { Lifecycle } from '../../src/core/lifecycle.js'
import { ManualClock } from '../../src/core/clock.js'
import type { Handoff } from '../../src/core/handoff.js'

/** Sources that tell what a test says, and keep the listeners the metrics register. */
function sources (clock = new ManualClock()) {
  const heard = { poolTake: [] as Array<(p: string, hit: boolean) => void>, closed: [] as Array<(tab: unknown, reason: string) => void>, reaped: [] as Array<(r: { closed: string[], failed: string[] }) => void>, started: [] as Array<(p: string) => void>, lost: [] as Array<(p: string) => void> }
  const handoffs = new Map<string, Partial<Handoff>>()
  const state = { tabs: ['t1', 't2', 't3'], connected: true, viewers: new Map([['t1', 2]]), webhook: undefined as undefined | Record<string, number>, push: undefined as undefined | Record<string, number>, recognitions: { thread: 0, inline: 0, fallback: 0, timed_out: 0 } }
  const lifecycle = new Lifecycle(clock, (err) => { throw err })
  const d = {
    clock,
    defaultProfile: () => 'default',
    tabs: {
      list: () => state.tabs.map((id) => ({ id })),
      poolLevels: () => ({ default: 2, work: 0 }),
      onPoolTake: (fn: (p: string, hit: boolean) => void) => { heard.poolTake.push(fn) },
      onClosed: (fn: (tab: unknown, reason: string) => void) => { heard.closed.push(fn) },
      onReaped: (fn: (r: { closed: string[], failed: string[] }) => void) => { heard.reaped.push(fn) }
    },
    browsers: { status: () => ({ connected: state.connected }), onStarted: (fn: (p: string) => void) => { heard.started.push(fn) }, onLost: (fn: (p: string) => void) => { heard.lost.push(fn) } },
    handoffs: { current: (id: string) => handoffs.get(id) },
    lifecycle,
    viewers: (id: string) => state.viewers.get(id) ?? 0,
    webhookStats: () => state.webhook,
    pushStats: () => state.push,
    recognitionStats: () => state.recognitions
  } as unknown as MetricsSources
  return { d, heard, handoffs, state, lifecycle, clock }
}

async function sample (metrics: ReturnType<typeof createHostMetrics>, line: string): Promise<number | undefined> {
  const text = await metrics.registry.metrics()
  const found = text.split('\n').find((l) => l.startsWith(`${line} `))
  return found === undefined ? undefined : Number(found.slice(line.length + 1))
}

t.test('what is read at scrape time: tabs, the browser, pool levels, viewers, live handoffs', async (t) => {
  const { d, state, handoffs, clock } = sources()
  const metrics = createHostMetrics(d)
  t.equal(await sample(metrics, 'afhttp_tabs_open'), 3)
  t.equal(await sample(metrics, 'afhttp_backend_connected'), 1)
  state.connected = false
  t.equal(await sample(metrics, 'afhttp_backend_connected'), 0, 'read again at each scrape')
  t.equal(await sample(metrics, 'afhttp_pool_windows_available{profile="default"}'), 2)
  t.equal(await sample(metrics, 'afhttp_panel_viewers'), 2)
  handoffs.set('t1', { control: { controller: 'human' }, expiresAt: clock.now() + 60_000 } as Partial<Handoff>)
  handoffs.set('t2', { control: { controller: 'agent' }, expiresAt: clock.now() + 60_000 } as Partial<Handoff>)
  handoffs.set('t3', { control: { controller: 'agent' }, expiresAt: clock.now() + 1_000 } as Partial<Handoff>)
  clock.advance(2_000)
  t.equal(await sample(metrics, 'afhttp_handoffs_live{state="human"}'), 1)
  t.equal(await sample(metrics, 'afhttp_handoffs_live{state="open"}'), 1, 'an expired hold is not live')
  t.equal(await sample(metrics, 'afhttp_handoffs_live{state="expired"}'), undefined)
  t.equal(await sample(metrics, 'afhttp_webhook_deliveries_total{result="delivered"}'), undefined, 'no webhook, no series')
  state.webhook = { delivered: 4, failed: 1, dropped: 0, retried: 2, queued: 0 }
  state.push = { sent: 3, failed: 0, removed: 1, denied: 0 }
  t.equal(await sample(metrics, 'afhttp_webhook_deliveries_total{result="delivered"}'), 4)
  t.equal(await sample(metrics, 'afhttp_webhook_deliveries_total{result="retried"}'), 2)
  t.equal(await sample(metrics, 'afhttp_push_notifications_total{result="removed"}'), 1)
  state.webhook.delivered = 5
  t.equal(await sample(metrics, 'afhttp_webhook_deliveries_total{result="delivered"}'), 5, 'the webhook\'s own count, not a sum of scrapes')
  state.recognitions = { thread: 4, inline: 9, fallback: 1, timed_out: 0 }
  t.equal(await sample(metrics, 'afhttp_recognitions_total{where="thread"}'), 4)
  t.equal(await sample(metrics, 'afhttp_recognitions_total{where="inline"}'), 9)
  t.equal(await sample(metrics, 'afhttp_recognitions_total{where="fallback"}'), 1)
  state.recognitions.thread = 6
  t.equal(await sample(metrics, 'afhttp_recognitions_total{where="thread"}'), 6, 'the threads\' own count, not a sum of scrapes')
})

t.test('what the services tell: pool takes, closes, reaps, browser starts and losses', async (t) => {
  const { d, heard } = sources()
  const metrics = createHostMetrics(d)
  for (const fn of heard.poolTake) { fn('default', true); fn('default', true); fn('default', false) }
  for (const fn of heard.closed) fn({}, 'fetch_cleanup')
  for (const fn of heard.reaped) { fn({ closed: ['a', 'b'], failed: [] }); fn({ closed: [], failed: ['c'] }) }
  for (const fn of heard.started) fn('default')
  for (const fn of heard.lost) fn('default')
  t.equal(await sample(metrics, 'afhttp_pool_takes_total{profile="default",result="hit"}'), 2)
  t.equal(await sample(metrics, 'afhttp_pool_takes_total{profile="default",result="miss"}'), 1)
  t.equal(await sample(metrics, 'afhttp_tabs_closed_total{reason="fetch_cleanup"}'), 1)
  t.equal(await sample(metrics, 'afhttp_reaper_tabs_total{result="closed"}'), 2)
  t.equal(await sample(metrics, 'afhttp_reaper_tabs_total{result="failed"}'), 1)
  t.equal(await sample(metrics, 'afhttp_browser_events_total{profile="default",event="started"}'), 1)
  t.equal(await sample(metrics, 'afhttp_browser_events_total{profile="default",event="lost"}'), 1)
})

t.test('handoffs counted from the lifecycle: each transition once, a hold\'s duration once', async (t) => {
  const { d, lifecycle } = sources()
  const metrics = createHostMetrics(d)
  const emit = lifecycle.emit.bind(lifecycle) as (type: string, where: object, data: object) => void
  emit('handoff.opened', { tab_id: 't1' }, {})
  emit('handoff.control', { tab_id: 't1' }, { state: 'human' })
  emit('handoff.control', { tab_id: 't1' }, { state: 'human_disconnected' })
  emit('handoff.control', { tab_id: 't1' }, { state: 'open' })
  emit('handoff.finished', { tab_id: 't1' }, { state: 'finished', finish_reason: 'done', held_ms: 42_000 })
  emit('handoff.expired', { tab_id: 't2' }, { state: 'expired', finish_reason: null, held_ms: 600_000 })
  emit('handoff.revoked', { tab_id: 't2' }, { state: 'revoked', finish_reason: null, held_ms: null })
  t.equal(await sample(metrics, 'afhttp_handoffs_total{state="open",finish_reason=""}'), 1, 'a hold going back to open is not a second opening')
  t.equal(await sample(metrics, 'afhttp_handoffs_total{state="human",finish_reason=""}'), 1)
  t.equal(await sample(metrics, 'afhttp_handoffs_total{state="human_disconnected",finish_reason=""}'), 1)
  t.equal(await sample(metrics, 'afhttp_handoffs_total{state="finished",finish_reason="done"}'), 1)
  t.equal(await sample(metrics, 'afhttp_handoffs_total{state="revoked",finish_reason=""}'), 1)
  t.equal(await sample(metrics, 'afhttp_handoff_duration_seconds_count{state="finished"}'), 1)
  t.equal(await sample(metrics, 'afhttp_handoff_duration_seconds_sum{state="finished"}'), 42)
  t.equal(await sample(metrics, 'afhttp_handoff_duration_seconds_count{state="revoked"}'), undefined, 'a revoke after an expiry ended no hold')
})

t.test('what other parts report: fetches, live checks, viewers leaving, input, HTTP answers', async (t) => {
  const { d } = sources()
  const metrics = createHostMetrics(d)
  metrics.fetchDone('ok', 'content', 0.3)
  metrics.fetchDone('navigation_failed', undefined, 2)
  metrics.liveChecks([{ name: 'browser', ok: true, ms: 12 }] as never)
  metrics.viewerLeft(120, 7)
  metrics.inputDelivered(0.004, 'mouse' as never)
  metrics.httpAnswered('/v1/tabs/:id', 404)
  t.equal(await sample(metrics, 'afhttp_fetches_total{outcome="ok",page_kind="content"}'), 1)
  t.equal(await sample(metrics, 'afhttp_fetches_total{outcome="navigation_failed",page_kind="none"}'), 1)
  t.equal(await sample(metrics, 'afhttp_fetch_duration_seconds_count{outcome="ok"}'), 1)
  t.equal(await sample(metrics, 'afhttp_live_check_duration_seconds_count{check="browser",ok="true"}'), 1)
  t.equal(await sample(metrics, 'afhttp_panel_frames_total{result="sent"}'), 120)
  t.equal(await sample(metrics, 'afhttp_panel_frames_total{result="skipped"}'), 7)
  t.equal(await sample(metrics, 'afhttp_panel_input_to_page_seconds_count{kind="mouse"}'), 1)
  t.equal(await sample(metrics, 'afhttp_http_requests_total{route="/v1/tabs/:id",status="404"}'), 1)
})
