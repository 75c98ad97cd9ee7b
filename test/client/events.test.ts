import t from 'tap'
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { AfhttpClient, type HandoffSummary, type HostEvent } from '../../src/client/index.js'
import { startHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { until } from '../helpers/until.js'

const GATE = '<!doctype html><title>Just a moment...</title><p>Hang tight! We are checking your browser</p>'

interface Teardown { teardown: (fn: () => Promise<void>) => void }

/** A reverse proxy on 127.0.0.1 in front of the real host; `withoutEvents` answers 404 there like an older host. */
interface Proxy { url: string, drop: () => void, down: boolean, eventRequests: Array<string | undefined>, eventStreamsAnswered: number }

async function proxy (t: Teardown, upstream: string, opts: { withoutEvents?: boolean } = {}): Promise<Proxy> {
  const target = new URL(upstream)
  const state: Proxy = { url: '', drop: () => server.closeAllConnections(), down: false, eventRequests: [], eventStreamsAnswered: 0 }
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if ((req.url ?? '').startsWith('/v1/events')) {
      state.eventRequests.push(req.headers['last-event-id'] as string | undefined)
      if (state.down) {
        res.writeHead(503, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ error: { code: 'backend_unavailable', message: 'The proxy is restarting.', retryable: true, details: {} } }))
        return
      }
    }
    if (opts.withoutEvents && (req.url ?? '').startsWith('/v1/events')) {
      res.writeHead(404, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: { code: 'route_not_found', message: 'No route GET /v1/events.', retryable: false, details: {} } }))
      return
    }
    const up = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (upRes) => {
      // The host answers a stream's head once it has subscribed it: from here on no event is missed.
      if ((req.url ?? '').startsWith('/v1/events') && upRes.statusCode === 200) state.eventStreamsAnswered++
      res.writeHead(upRes.statusCode ?? 502, upRes.headers)
      upRes.pipe(res)
    })
    up.on('error', () => res.destroy())
    res.on('close', () => up.destroy())
    req.pipe(up)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }))
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return state
}

t.test('client.events() and waitForHandoff()', async (t) => {
  const host = await startHost(t)
  const site = await startFixtureServer(t, { '/gate': { body: GATE }, '/plain': { body: '<title>Plain</title><p>Plain text here</p>' } })
  const direct = new AfhttpClient({ url: host.url, token: host.token })
  t.teardown(() => direct.close())
  const handedOffTab = async (): Promise<{ tabId: string, fence: string }> => {
    // Straight to the API: the client's /health pre-check is covered elsewhere and not under test here.
    const res = await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/gate`, takeover: true }) })).json() as { tab_id: string, actions: Array<{ handoff_fence: string }> }
    return { tabId: res.tab_id, fence: res.actions[0].handoff_fence }
  }

  t.test('waitForHandoff waits on events, not by polling', async (t) => {
    const { tabId, fence } = await handedOffTab()
    const reads: HandoffSummary[] = []
    const waiting = direct.waitForHandoff(tabId, { pollMs: 50, onSummary: (s) => reads.push(s) })
    await until(() => reads.length === 1 && host.app.events.subscribers() === 1, 'the first summary and the stream')
    // With polling at 50 ms this second would have brought about 20 reads.
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    t.equal(reads.length, 1, 'no summary reads while nothing happens')
    await direct.finishHandoff(tabId, fence)
    const end = await waiting
    t.match(end, { state: 'finished', finish_reason: 'driver', handoff_fence: fence })
    t.ok(reads.length <= 3, `a few reads, each after an event (${reads.length})`)
    await direct.closeTab(tabId)
  })

  t.test('on a host without /v1/events it polls instead', async (t) => {
    const old = await proxy(t, host.url, { withoutEvents: true })
    const client = new AfhttpClient({ url: old.url, token: host.token })
    t.teardown(() => client.close())
    const { tabId, fence } = await handedOffTab()
    const reads: HandoffSummary[] = []
    const waiting = client.waitForHandoff(tabId, { pollMs: 50, onSummary: (s) => reads.push(s) })
    await until(() => reads.length >= 3, 'polled summaries')
    await direct.finishHandoff(tabId, fence)
    t.match(await waiting, { state: 'finished' })
    await t.rejects(async () => { for await (const _ of client.events()) break }, { code: 'route_not_found', status: 404 }, 'events() itself reports the missing route')
    await direct.closeTab(tabId)
  })

  t.test('waitForHandoff rejects with tab_not_found when the tab closes', async (t) => {
    const { tabId } = await handedOffTab()
    const waiting = direct.waitForHandoff(tabId)
    await until(() => host.app.events.subscribers() === 1, 'the stream')
    await direct.closeTab(tabId)
    // The close revokes the handoff first: the summary says so, or the tab is already gone.
    const outcome = await waiting.then((s) => s.state, (err: { code: string }) => err.code)
    t.ok(['revoked', 'tab_not_found'].includes(outcome), `ends as ${outcome}`)
  })

  t.test('events() reconnects by itself with Last-Event-ID and misses nothing', async (t) => {
    const flaky = await proxy(t, host.url)
    const client = new AfhttpClient({ url: flaky.url, token: host.token })
    t.teardown(() => client.close())
    const seen: HostEvent[] = []
    const ac = new AbortController()
    const done = (async () => { for await (const e of client.events({ signal: ac.signal, reconnectMs: 100 })) seen.push(e) })()
    // Not the subscriber count: a stream of an earlier test may not have closed yet.
    await until(() => flaky.eventStreamsAnswered === 1, 'the stream')
    await direct.fetch({ url: `${site.url}/plain` })
    await until(() => seen.length >= 2, 'live events')
    const from = seen[seen.length - 1].id
    flaky.down = true
    flaky.drop()
    await direct.fetch({ url: `${site.url}/plain` })
    const expected = host.app.events.journal.recent().filter((e) => e.id > from).map((e) => e.id)
    t.ok(expected.length >= 2, 'events happened while the stream was down')
    t.ok(seen.every((e) => e.id <= from), 'none of them arrived while the stream was down')
    await until(() => flaky.eventRequests.length >= 2, 'a reconnect attempt')
    flaky.down = false
    const after = (): HostEvent[] => seen.filter((e) => e.id > from)
    await until(() => after().length >= expected.length, 'the missed events after the reconnect')
    t.same(after().map((e) => e.id).slice(0, expected.length), expected, 'every missed event, in order')
    t.notOk(seen.some((e) => e.type === 'events.gap'))
    t.equal(flaky.eventRequests[0], undefined, 'the first connection started live')
    t.equal(flaky.eventRequests[flaky.eventRequests.length - 1], String(from), 'the reconnect resumed from the last event seen')
    ac.abort()
    await done
  })
})
