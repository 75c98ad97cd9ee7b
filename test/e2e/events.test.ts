import t from 'tap'
import { startHost, type TestHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { startWebhookReceiver } from '../helpers/webhook-receiver.js'
import { launchViewerBrowser, onHost, openViewer, waitForFrames } from '../helpers/panel-browser.js'
import { AfhttpClient, type HostEvent } from '../../src/client/index.js'
import { until } from '../helpers/until.js'

// docs/spec.md section 15 end to end: the whole handoff lifecycle, worked by a person in a second
// real Chromium, arrives on the stream and at a real webhook receiver, in order, once each.
const SECRET = 'webhook-secret-0123456789'
const CHALLENGE = '<!doctype html><title>Just a moment...</title><div id="challenge-form">Checking your browser</div><div class="cf-turnstile" style="width:300px;height:65px"></div>'

/** Collects a client's event stream in the background until aborted. */
function collect (client: AfhttpClient, opts: { lastEventId?: number } = {}): { events: HostEvent[], stop: () => void } {
  const events: HostEvent[] = []
  const ac = new AbortController()
  void (async () => {
    try { for await (const e of client.events({ ...opts, signal: ac.signal })) events.push(e) } catch { /* stopped */ }
  })()
  return { events, stop: () => ac.abort() }
}

/** Reads raw SSE text from the host until `done` says so. */
async function rawStream (host: TestHost, query: string, headers: Record<string, string>, done: (text: string) => boolean): Promise<{ text: string, contentType: string | null }> {
  const ac = new AbortController()
  const res = await fetch(`${host.url}/v1/events${query}`, { headers: { authorization: `Bearer ${host.token}`, ...headers }, signal: ac.signal })
  let text = ''
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  while (!done(text)) {
    const { value, done: end } = await reader.read()
    if (end) break
    text += decoder.decode(value)
  }
  ac.abort()
  return { text, contentType: res.headers.get('content-type') }
}

t.test('events: stream, resume, gap, heartbeat and webhook', async (t) => {
  const receiver = await startWebhookReceiver(t, SECRET)
  const host = await startHost(t, { env: { AFHTTP_WEBHOOK_URL: receiver.url, AFHTTP_WEBHOOK_SECRET: SECRET, AFHTTP_LOG_LEVEL: 'debug' } })
  const site = await startFixtureServer(t, { '/cf': { status: 403, headers: { 'cf-mitigated': 'challenge' }, body: CHALLENGE }, '/plain': { body: '<title>Plain</title><p>Plain content</p>' } })
  const client = new AfhttpClient({ url: host.url, token: host.token })
  t.teardown(() => client.close())
  const stream = collect(client)
  t.teardown(stream.stop)
  await until(() => host.app.events.subscribers() === 2, 'the stream to connect (beside the webhook)')
  let tabId = ''
  let panelUrl = ''

  t.test('the whole handoff lifecycle arrives in order, once each', async (t) => {
    // Straight to the API: the client's own /health pre-check is not under test here.
    const fetched = await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/cf`, takeover: true }) })).json() as { tab_id: string, actions?: Array<{ takeover_url_secret?: string, handoff_fence?: string }> }
    tabId = fetched.tab_id as string
    panelUrl = fetched.actions?.[0]?.takeover_url_secret as string
    t.ok(panelUrl, 'a panel URL was minted')
    const viewerBrowser = await launchViewerBrowser(t)
    const viewer = await openViewer(viewerBrowser, host)
    await viewer.page.goto(onHost(host, panelUrl))
    await waitForFrames(viewer.page)
    await until(() => stream.events.some((e) => e.type === 'handoff.control' && e.tab_id === tabId), 'the person to take control')
    await viewer.page.click('#afhttp-done')
    await until(() => stream.events.some((e) => e.type === 'handoff.finished' && e.tab_id === tabId), 'handoff.finished')
    await client.closeTab(tabId)
    await until(() => stream.events.some((e) => e.type === 'tab.closed' && e.tab_id === tabId), 'tab.closed')

    const mine = stream.events.filter((e) => e.tab_id === tabId)
    t.same(mine.map((e) => e.type), ['tab.opened', 'handoff.opened', 'handoff.viewer_joined', 'handoff.control', 'handoff.finished', 'tab.closed'])
    const ids = stream.events.map((e) => e.id)
    t.same(ids, [...ids].sort((a, b) => a - b), 'ids increase')
    t.equal(new Set(ids).size, ids.length, 'each event once')
    const opened = mine[1]
    t.equal(opened.profile, host.config.defaultProfile)
    t.match(opened.data, { handoff_fence: fetched.actions?.[0]?.handoff_fence, expires_at: /Z$/, surface: { tab_id: tabId } })
    t.equal(opened.data.takeover_url_secret, panelUrl, 'handoff.opened carries the panel URL')
    t.match(mine[3].data, { controller: 'human' })
    t.match(mine[4].data, { finish_reason: 'human_done', state: 'finished' })
    t.match(mine[5].data, { reason: 'api' })
    t.match(opened.at, /^\d{4}-\d\d-\d\dT/)

    await until(() => receiver.received.filter((r) => r.event.tab_id === tabId).length === mine.length, 'the webhook to get every event')
    const hooks = receiver.received.filter((r) => r.event.tab_id === tabId)
    t.same(hooks.map((r) => r.event.type), mine.map((e) => e.type), 'the webhook got the same events, in order')
    t.same(hooks.map((r) => r.event.id), mine.map((e) => e.id))
    t.ok(receiver.received.every((r) => r.valid), 'every signature verifies')
  })

  t.test('a reconnect with Last-Event-ID misses nothing', async (t) => {
    const lastSeen = stream.events[stream.events.length - 1].id
    stream.stop()
    await client.fetch({ url: `${site.url}/plain` }) // tab.opened + tab.closed while nobody listens
    const missed = host.app.events.journal.recent().filter((e) => e.id > lastSeen)
    t.ok(missed.length >= 2, 'events happened while disconnected')
    const resumed = collect(client, { lastEventId: lastSeen })
    t.teardown(resumed.stop)
    await until(() => resumed.events.length >= missed.length, 'the missed events')
    t.same(resumed.events.slice(0, missed.length).map((e) => e.id), missed.map((e) => e.id), 'exactly the missed events, in order')
    t.notOk(resumed.events.some((e) => e.type === 'events.gap'), 'no gap inside the journal')
    resumed.stop()
  })

  t.test('a stale id gets one events.gap first', async (t) => {
    const { text } = await rawStream(host, '', { 'last-event-id': '1' }, (s) => (s.match(/\n\n/g) ?? []).length >= 3)
    const frames = text.split('\n\n').filter((f) => f.includes('data: '))
    t.match(frames[0], /^id: \d+\nevent: events\.gap\ndata: /, 'the gap comes first')
    const gap = JSON.parse(frames[0].split('data: ')[1])
    t.match(gap, { type: 'events.gap', data: { last_event_id: 1, reason: 'journal_exceeded' } })
    t.equal(frames.filter((f) => f.includes('event: events.gap')).length, 1, 'once')
  })

  t.test('heartbeats keep the stream alive; the content type is text/event-stream', async (t) => {
    const { text, contentType } = await rawStream(host, '?heartbeat_ms=1000', {}, (s) => s.includes(': heartbeat'))
    t.match(contentType, /^text\/event-stream/)
    t.match(text, /^retry: \d+\n/)
    t.match(text, /\n: heartbeat\n\n/)
  })

  t.test('the number of streams is bounded', async (t) => {
    const { SSE_CLIENTS_MAX } = await import('../../src/routes/events.js')
    const open: AbortController[] = []
    t.teardown(() => { for (const ac of open) ac.abort() })
    // The webhook is a subscriber too; every other subscriber is an open stream.
    const streams = (): number => host.app.events.subscribers() - 1
    await until(() => streams() === 0, 'the earlier streams to close')
    while (streams() < SSE_CLIENTS_MAX) {
      const before = streams()
      const ac = new AbortController()
      open.push(ac)
      const res = await host.api('/v1/events', { signal: ac.signal })
      if (res.status !== 200) { t.fail(`stream ${before + 1} got HTTP ${res.status}`); break }
      await until(() => streams() === before + 1, 'the stream to count')
    }
    const over = await host.api('/v1/events')
    t.equal(over.status, 429, `stream ${SSE_CLIENTS_MAX + 1} is refused`)
    t.equal((await over.json()).error.code, 'rate_limited')
  })

  t.test('a bad Last-Event-ID is invalid_request', async (t) => {
    const res = await host.api('/v1/events', { headers: { 'last-event-id': 'abc' } })
    t.equal(res.status, 400)
    t.match(await res.json(), { error: { code: 'invalid_request', details: { field: 'Last-Event-ID' } } })
  })

  t.test('panel URLs never reach the log, even at debug', async (t) => {
    t.equal(host.app.log.level, 'debug', 'the host logs at debug')
    const secret = panelUrl.split('/').pop() as string
    t.notOk(host.logs.text().includes(secret), 'the panel secret is not in the log')
    t.notOk(host.logs.text().includes(SECRET), 'nor the webhook secret')
  })

  t.test('/capabilities reports the bounds and that keys do not survive a restart, never the webhook URL', async (t) => {
    const caps = await (await fetch(`${host.url}/capabilities`)).json()
    t.match(caps.idempotency, { header: 'Idempotency-Key', ttl_ms: 86_400_000, keys_max: Number, survives_restart: false })
    t.match(caps.events, { route: 'GET /v1/events', journal_max: Number, streams_max: Number, heartbeat_ms: Number, webhook: { configured: true, attempts: Number, queue_max: Number } })
    t.ok(caps.events.types.includes('handoff.opened'))
    t.match(caps.limits, { cdp_ws_message_bytes_max: Number })
    t.notOk(JSON.stringify(caps).includes(receiver.url), 'the webhook URL is not shown')
  })

  t.test('a spent panel URL is dropped from the journal', async (t) => {
    const opened = host.app.events.journal.recent().find((e) => e.type === 'handoff.opened' && e.tab_id === tabId)
    t.equal(opened?.data.takeover_url_secret, undefined, 'the used URL is gone from the journal')
    t.equal(opened?.data.takeover_url_state, 'used')
  })
})
