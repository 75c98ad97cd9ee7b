import t from 'tap'
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { AfhttpClient } from '../../src/client/index.js'
import { LIVENESS_ATTEMPTS } from '../../src/client/client.js'
import { startHost } from '../helpers/host.js'
import { rejection } from '../helpers/client-errors.js'
import { startFixtureServer } from '../helpers/fixture-server.js'

const GATE = '<!doctype html><title>Just a moment...</title><p>Hang tight! We are checking your browser</p>'

/**
 * A reverse proxy mounted under /afhttp in front of the real host that answers 404 for
 * /health, like an older host or a gateway that does not expose it.
 */
type HealthAnswer = { status: number, body: unknown } | undefined

/**
 * A real HTTP proxy in front of the host whose /health answers are chosen by the test (the n-th
 * /health request, from 1; undefined passes it through); `asked` counts them.
 */
async function proxyWithHealth (t: { teardown: (fn: () => Promise<void>) => void }, upstream: string, health: (n: number) => HealthAnswer): Promise<{ url: string, asked: () => number }> {
  const target = new URL(upstream)
  let asked = 0
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').replace(/^\/afhttp/, '') || '/'
    const answer = path.split('?')[0] === '/health' ? health(++asked) : undefined
    if (answer) {
      res.writeHead(answer.status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(answer.body))
      return
    }
    const up = httpRequest({ host: target.hostname, port: target.port, path, method: req.method, headers: req.headers }, (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.headers)
      upRes.pipe(res)
    })
    req.pipe(up)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/afhttp`, asked: () => asked }
}

const NO_HEALTH_ROUTE: HealthAnswer = { status: 404, body: { error: { code: 'route_not_found', message: 'No route GET /health.', retryable: false, details: {} } } }

async function proxyWithoutHealth (t: { teardown: (fn: () => Promise<void>) => void }, upstream: string): Promise<string> {
  return (await proxyWithHealth(t, upstream, () => NO_HEALTH_ROUTE)).url
}

/** The host's own /health answer with one live check failed, as a busy host gives it. */
async function failingHealth (host: { api: (path: string) => Promise<Response> }): Promise<HealthAnswer> {
  let real: any
  for (let attempt = 1; attempt <= 5; attempt++) {
    real = await (await host.api('/health')).json()
    if (real.status?.takeover_ready === true) break
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  if (real.status?.takeover_ready !== true) throw new Error(`the host itself is not ready: ${JSON.stringify(real)}`)
  const checks = (real.takeover?.checks ?? []).map((c: { name: string }, i: number) => i === 0 ? { ...c, ok: false, error: `${c.name}: no answer within 434 ms` } : c)
  return { status: 503, body: { ...real, status: { ...real.status, takeover_ready: false }, takeover: { ...real.takeover, checks } } }
}


t.test('fetch, handoff, summary and finish through the client', async (t) => {
  const host = await startHost(t)
  const site = await startFixtureServer(t, {
    '/article': { body: '<!doctype html><title>Article</title><main><h1>Prices</h1><p id="price">42 EUR</p></main>' },
    '/gate': { body: GATE }
  })
  const client = new AfhttpClient({ url: host.url, token: host.token })
  t.teardown(() => client.close())

  t.test('content is ok with the requested captures', async (t) => {
    const res = await client.fetch({ url: `${site.url}/article`, capture: ['html', 'text', 'screenshot'] })
    t.equal(res.ok, true)
    t.equal(res.status, 200)
    t.equal(res.page_kind, 'content')
    t.match(res.artifacts?.text, /42 EUR/)
    t.match(res.artifacts?.screenshot?.mime, /^image\/(jpeg|png)$/)
    t.same(res.actions ?? [], [])
  })

  t.test('a failed navigation is an error, never a result', async (t) => {
    const err = await rejection(client.fetch({ url: 'http://127.0.0.1:1/', timeout_ms: 5_000 }))
    t.equal(err.code, 'navigation_failed')
    t.equal(err.status, 502)
  })

  t.test('a challenge with takeover keeps the tab and mints a panel URL', async (t) => {
    const res = await client.fetch({ url: `${site.url}/gate`, takeover: true })
    t.equal(res.ok, false)
    t.equal(res.page_kind, 'challenge')
    t.equal(res.tab_retained, true)
    const action = res.actions?.[0]
    t.equal(action?.kind, 'human_takeover')
    t.match(action?.takeover_url_secret, /\/takeover\//)
    const tabId = res.tab_id!

    const summary = await client.handoffSummary(tabId)
    t.equal(summary.state, 'open')
    t.equal(summary.handoff_fence, action?.handoff_fence)

    t.test('a second mint keeps fence and expiry with a fresh URL, after checking /health', async (t) => {
      const again = await client.handoff(tabId)
      t.equal(again.handoff_fence, summary.handoff_fence)
      t.equal(again.expires_at, summary.expires_at)
      t.not(again.takeover_url_secret, action?.takeover_url_secret)
      t.notOk(again.warnings.some((w) => w.code === 'liveness_unattested'), 'a host with /health is attested')
    })

    t.test('a live check that fails for a moment is asked again before a mint is refused', async (t) => {
      const failing = await failingHealth(host)
      const once = await proxyWithHealth(t, host.url, (n) => n === 1 ? failing : undefined)
      const recovering = new AfhttpClient({ url: once.url, token: host.token })
      t.teardown(() => recovering.close())
      const res = await recovering.handoff(tabId)
      t.match(res.takeover_url_secret, /\/takeover\//, 'minted once /health answered ready')
      t.equal(once.asked(), 2, '/health was asked again after the failed check')

      const always = await proxyWithHealth(t, host.url, () => failing)
      const refusing = new AfhttpClient({ url: always.url, token: host.token })
      t.teardown(() => refusing.close())
      const err = await rejection(refusing.handoff(tabId))
      t.equal(err.code, 'takeover_unavailable')
      t.match(err.message, /no answer within 434 ms/, 'the refusal names the failed check')
      t.equal(always.asked(), LIVENESS_ATTEMPTS, `refused after ${LIVENESS_ATTEMPTS} answers, not one`)
    })

    t.test('a host without /health: mint anyway, warn liveness_unattested', async (t) => {
      const proxied = new AfhttpClient({ url: await proxyWithoutHealth(t, host.url), token: host.token })
      t.teardown(() => proxied.close())
      const res = await proxied.handoff(tabId)
      t.match(res.takeover_url_secret, /\/takeover\//)
      const warning = res.warnings.find((w) => w.code === 'liveness_unattested')
      t.ok(warning, 'warns that liveness is unattested')
      t.match(warning?.message, /cannot attest/)
    })

    t.test('a takeover fetch through a host without /health also warns liveness_unattested', async (t) => {
      const proxied = new AfhttpClient({ url: await proxyWithoutHealth(t, host.url), token: host.token })
      t.teardown(() => proxied.close())
      const res = await proxied.fetch({ url: `${site.url}/gate`, takeover: true })
      t.ok((res.warnings ?? []).some((w) => w.code === 'liveness_unattested'), 'the driver says it could not attest liveness')
      t.equal(res.tab_retained, true)
      await proxied.closeTab(res.tab_id as string)
    })

    t.test('a fetch on the held tab is refused; a snapshot is allowed', async (t) => {
      const err = await rejection(client.fetch({ tab_id: tabId }))
      t.equal(err.code, 'tab_under_human_control')
      const snap = await client.snapshot(tabId, { capture: ['text'] })
      t.match(snap.artifacts?.text, /Hang tight/)
    })

    t.test('finish needs the current fence', async (t) => {
      const stale = await rejection(client.finishHandoff(tabId, 'hf_not-the-fence'))
      t.equal(stale.code, 'handoff_fence_stale')
      const done = await client.finishHandoff(tabId, summary.handoff_fence)
      t.equal(done.state, 'finished')
      t.equal((await client.handoffSummary(tabId)).state, 'finished')
      await client.closeTab(tabId)
    })
  })
})
