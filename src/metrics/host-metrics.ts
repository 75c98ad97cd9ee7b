// The host's Prometheus registry (docs/spec.md section 16, GET /metrics): what other parts report as
// it happens (HostMetrics), what the services' own listeners and the lifecycle tell, and what is
// read at scrape time. The sources are injected, so the counting is tested with fakes
// (test/metrics/host-metrics.test.ts); src/plugins/metrics.ts only wires it to the app.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import { handoffState, isLiveState } from '../core/handoff.js'
import { HANDOFF_ENDINGS } from '../schemas/lifecycle.js'
import type { Clock } from '../core/clock.js'
import type { Lifecycle } from '../core/lifecycle.js'
import type { LiveCheck } from '../browser/live-checks.js'
import type { BrowserPool } from '../browser/browser-pool.js'
import type { InputKind } from '../panel/input-relay.js'
import type { TabRegistry } from '../tabs/types.js'
import type { HandoffService } from '../handoffs/service.js'
import type { WebhookStats } from '../events/webhook.js'
import type { PushStats } from '../inbox/push-sender.js'
import type { RecognitionStats } from '../fetch/recognize.js'

/**
 * What other parts of the host report as it happens. Everything else is read at scrape time
 * (tabs, pool levels, viewers, live handoffs) or taken from the services' own listeners.
 */
export interface HostMetrics {
  readonly registry: Registry
  /** A POST /v1/fetch answered: `outcome` is `ok`, `not_ok` (loaded, not verified) or the error code. */
  fetchDone (outcome: string, pageKind: string | undefined, seconds: number): void
  liveChecks (checks: LiveCheck[]): void
  /** A panel viewer left, with what its socket was sent and what it skipped as stale. */
  viewerLeft (framesSent: number, framesSkipped: number): void
  /** A person's input reached the page (Chromium acknowledged it), `seconds` after the panel message arrived. */
  inputDelivered (seconds: number, kind: InputKind): void
  /** An HTTP request was answered on `route` (the route's pattern, never the URL) with `status`. */
  httpAnswered (route: string, status: number): void
}

/** Where the counts come from. */
export interface MetricsSources {
  clock: Pick<Clock, 'now'>
  /** Read at scrape time: the configuration is replaced once the server knows its port. */
  defaultProfile: () => string
  tabs: Pick<TabRegistry, 'list' | 'poolLevels' | 'onPoolTake' | 'onClosed' | 'onReaped'>
  browsers: Pick<BrowserPool, 'status' | 'onStarted' | 'onLost'>
  handoffs: Pick<HandoffService, 'current'>
  lifecycle: Pick<Lifecycle, 'on'>
  /** Panel viewers connected to a tab now. */
  viewers: (tabId: string) => number
  /** The webhook's counters, when one is configured. */
  webhookStats: () => WebhookStats | undefined
  /** The inbox's push counters, when push is on. */
  pushStats: () => PushStats | undefined
  /** How pages were recognized: on a thread, inline, inline after a lost thread, timed out (src/fetch/recognize.ts). */
  recognitionStats: () => RecognitionStats
}

const FETCH_BUCKETS = [0.05, 0.1, 0.2, 0.35, 0.5, 0.75, 1, 2, 5, 10, 30, 60, 120]
const HANDOFF_BUCKETS = [5, 15, 30, 60, 120, 180, 300, 450, 600]
const INPUT_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.02, 0.03, 0.05, 0.1, 0.25, 0.5, 1]
const CHECK_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 1.5]

/** One registry per app instance; its listeners live as long as the sources do. */
export function createHostMetrics (d: MetricsSources): HostMetrics {
  const registry = new Registry()
  const registers = [registry]
  collectDefaultMetrics({ register: registry, prefix: 'afhttp_process_' })
  const requests = new Counter({ name: 'afhttp_http_requests_total', help: 'HTTP requests answered, by route and status code.', labelNames: ['route', 'status'] as const, registers })
  new Gauge({
    name: 'afhttp_tabs_open',
    help: 'Tabs the host tracks (the window anchor and pool windows excluded).',
    registers,
    collect () { this.set(d.tabs.list().length) }
  })
  new Gauge({
    name: 'afhttp_backend_connected',
    help: '1 when the default profile browser is connected.',
    registers,
    collect () { this.set(d.browsers.status(d.defaultProfile()).connected ? 1 : 0) }
  })
  countedElsewhere(registers, 'afhttp_webhook_deliveries_total',
    'Webhook events by outcome: delivered, failed (every attempt failed), dropped (queue full), retried (attempts after the first).',
    'result', ['delivered', 'failed', 'dropped', 'retried'], d.webhookStats)
  countedElsewhere(registers, 'afhttp_recognitions_total',
    'Pages recognized, by where: thread (a large page, on a recognition thread), inline (a small page, or threads given up), fallback (inline after its thread was lost), timed_out (answered unrecognized after the time limit). Counted for the whole process.',
    'where', ['thread', 'inline', 'fallback', 'timed_out'], d.recognitionStats)
  countedElsewhere(registers, 'afhttp_push_notifications_total',
    'Inbox push notifications by outcome: sent, failed, removed (the push service said the subscription is gone), denied (AFHTTP_URL_DENY refuses its address).',
    'result', ['sent', 'failed', 'removed', 'denied'], d.pushStats)

  const fetches = new Counter({ name: 'afhttp_fetches_total', help: 'POST /v1/fetch answers by outcome (ok, not_ok, or the error code) and page_kind.', labelNames: ['outcome', 'page_kind'] as const, registers })
  const fetchSeconds = new Histogram({ name: 'afhttp_fetch_duration_seconds', help: 'Time from a fetch request to its answer.', labelNames: ['outcome'] as const, buckets: FETCH_BUCKETS, registers })

  const poolTakes = new Counter({ name: 'afhttp_pool_takes_total', help: 'Windows fetches took: from the pool (hit) or opened on demand (miss).', labelNames: ['profile', 'result'] as const, registers })
  new Gauge({
    name: 'afhttp_pool_windows_available',
    help: 'Unused windows waiting in each running profile\'s pool.',
    labelNames: ['profile'] as const,
    registers,
    collect () {
      this.reset()
      for (const [profile, n] of Object.entries(d.tabs.poolLevels())) this.set({ profile }, n)
    }
  })
  d.tabs.onPoolTake((profile, hit) => poolTakes.inc({ profile, result: hit ? 'hit' : 'miss' }))

  const tabsClosed = new Counter({ name: 'afhttp_tabs_closed_total', help: 'Tabs that left the inventory, by reason.', labelNames: ['reason'] as const, registers })
  d.tabs.onClosed((_tab, reason) => tabsClosed.inc({ reason }))
  const reaper = new Counter({ name: 'afhttp_reaper_tabs_total', help: 'Idle reaper decisions: tabs closed, tabs it failed to close.', labelNames: ['result'] as const, registers })
  d.tabs.onReaped((report) => {
    if (report.closed.length) reaper.inc({ result: 'closed' }, report.closed.length)
    if (report.failed.length) reaper.inc({ result: 'failed' }, report.failed.length)
  })

  const browserEvents = new Counter({ name: 'afhttp_browser_events_total', help: 'Browser starts and losses (disconnects the host did not ask for count too).', labelNames: ['profile', 'event'] as const, registers })
  d.browsers.onStarted((profile) => browserEvents.inc({ profile, event: 'started' }))
  d.browsers.onLost((profile) => browserEvents.inc({ profile, event: 'lost' }))

  const handoffs = new Counter({ name: 'afhttp_handoffs_total', help: 'Handoffs reaching each state: open and each ending once per handoff (finish_reason set once they end), human and human_disconnected each time control moves there.', labelNames: ['state', 'finish_reason'] as const, registers })
  const handoffSeconds = new Histogram({ name: 'afhttp_handoff_duration_seconds', help: 'From mint to the end of the hold (finished, revoked or expired).', labelNames: ['state'] as const, buckets: HANDOFF_BUCKETS, registers })
  new Gauge({
    name: 'afhttp_handoffs_live',
    help: 'Handoffs whose hold is open now, by state.',
    labelNames: ['state'] as const,
    registers,
    collect () {
      this.reset()
      const now = d.clock.now()
      const counts: Record<string, number> = {}
      for (const tab of d.tabs.list()) {
        const h = d.handoffs.current(tab.id)
        const state = h && handoffState(h, now)
        if (state && isLiveState(state)) counts[state] = (counts[state] ?? 0) + 1
      }
      for (const [state, n] of Object.entries(counts)) this.set({ state }, n)
    }
  })
  // The lifecycle tells each transition once: nothing to remember here.
  d.lifecycle.on('handoff.opened', () => handoffs.inc({ state: 'open', finish_reason: '' }))
  d.lifecycle.on('handoff.control', (t) => {
    if (t.data.state !== 'open') handoffs.inc({ state: t.data.state, finish_reason: '' })
  })
  for (const ending of HANDOFF_ENDINGS) {
    d.lifecycle.on(ending, (t) => {
      handoffs.inc({ state: t.data.state, finish_reason: t.data.finish_reason ?? '' })
      // A revoke after an expiry ends no hold: its duration was observed at the expiry.
      if (t.data.held_ms !== null) handoffSeconds.observe({ state: t.data.state }, t.data.held_ms / 1000)
    })
  }

  new Gauge({
    name: 'afhttp_panel_viewers',
    help: 'Panel viewers connected now.',
    registers,
    collect () {
      let n = 0
      for (const tab of d.tabs.list()) n += d.viewers(tab.id)
      this.set(n)
    }
  })
  const frames = new Counter({ name: 'afhttp_panel_frames_total', help: 'Screencast frames sent to panel viewers, or skipped for a newer one (slow viewer), counted when the viewer leaves.', labelNames: ['result'] as const, registers })
  const framesPerViewer = new Histogram({ name: 'afhttp_panel_viewer_frames', help: 'Frames sent to one viewer over its connection.', buckets: [0, 10, 100, 1_000, 10_000, 100_000], registers })

  const inputSeconds = new Histogram({ name: 'afhttp_panel_input_to_page_seconds', help: 'From a viewer\'s input message arriving to Chromium acknowledging the relayed Input event (the renderer has handled it), by kind.', labelNames: ['kind'] as const, buckets: INPUT_BUCKETS, registers })

  const checkSeconds = new Histogram({ name: 'afhttp_live_check_duration_seconds', help: 'Live checks (docs/spec.md section 9) by check and result.', labelNames: ['check', 'ok'] as const, buckets: CHECK_BUCKETS, registers })

  return {
    registry,
    fetchDone (outcome, pageKind, seconds) {
      fetches.inc({ outcome, page_kind: pageKind ?? 'none' })
      fetchSeconds.observe({ outcome }, seconds)
    },
    liveChecks (checks) {
      for (const c of checks) checkSeconds.observe({ check: c.name, ok: String(c.ok) }, c.ms / 1000)
    },
    viewerLeft (sent, skipped) {
      frames.inc({ result: 'sent' }, sent)
      frames.inc({ result: 'skipped' }, skipped)
      framesPerViewer.observe(sent)
    },
    inputDelivered (seconds, kind) {
      inputSeconds.observe({ kind }, seconds)
    },
    httpAnswered (route, status) {
      requests.inc({ route, status: String(status) })
    }
  }
}

/**
 * A counter another service keeps (the webhook's, the push sender's, the recognition threads'),
 * read at scrape time: its own count, never a sum of scrapes. No source (webhook or push off)
 * leaves it empty.
 */
function countedElsewhere<K extends string> (registers: Registry[], name: string, help: string, label: string, values: readonly K[], read: () => Readonly<Record<K, number>> | undefined): void {
  new Counter({
    name,
    help,
    labelNames: [label],
    registers,
    collect () {
      const stats = read()
      if (stats === undefined) return
      this.reset()
      for (const value of values) this.inc({ [label]: value }, stats[value])
    }
  })
}
