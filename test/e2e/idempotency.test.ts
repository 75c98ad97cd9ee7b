import t from 'tap'
import { startHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { until } from '../helpers/until.js'

// docs/spec.md section 5: Idempotency-Key on POST /v1/fetch and the mint. A retry after a lost
// response gets the first answer: one tab, one handoff, the same tab_id and fence.
const DENIED = '<!doctype html><title>Access denied</title><h1>Access denied</h1><p>You do not have permission to view this page.</p>'

t.test('idempotency keys', async (t) => {
  const host = await startHost(t)
  const site = await startFixtureServer(t, {
    '/slow-denied': { status: 403, body: DENIED, delayMs: 800 },
    '/crowd': { status: 403, body: DENIED, delayMs: 300 },
    '/ok': { body: '<title>Fine</title><p>Plain content here</p>' },
    '/too-slow': { body: '<title>Late</title><p>Late</p>', delayMs: 3_000 }
  })
  const post = (path: string, body: unknown, key?: string, signal?: AbortSignal): Promise<Response> =>
    host.api(path, { method: 'POST', body: JSON.stringify(body), signal, headers: key ? { 'idempotency-key': key } : {} })
  const handedOff = (): string[] => host.app.tabs.list().filter((tab) => host.app.handoffs.current(tab.id)).map((tab) => tab.id)

  t.test('a takeover fetch whose answer was lost is retried safely', async (t) => {
    const body = { url: `${site.url}/slow-denied`, takeover: true }
    const lost = new AbortController()
    const first = post('/v1/fetch', body, 'retry-after-drop', lost.signal).catch((err: Error) => err)
    await until(() => site.hits('/slow-denied') === 1, 'the page to be requested')
    lost.abort() // the connection drops before the answer
    t.type(await first, Error, 'the first answer never arrived')
    const retry = await post('/v1/fetch', body, 'retry-after-drop')
    t.equal(retry.status, 200)
    const answer = await retry.json()
    t.equal(answer.ok, false)
    t.equal(answer.status, 403)
    t.equal(site.hits('/slow-denied'), 1, 'the page was loaded once')
    t.same(handedOff(), [answer.tab_id], 'one tab, one handoff, the same tab_id')
    t.match(answer.actions[0], { kind: 'human_takeover', handoff_fence: /./, takeover_url_secret: /\/takeover\// })
    const summary = await (await host.api(`/v1/tabs/${answer.tab_id}/handoff`)).json()
    t.equal(summary.handoff_fence, answer.actions[0].handoff_fence, 'the fence of the one handoff')

    const again = await post('/v1/fetch', body, 'retry-after-drop')
    t.equal(again.headers.get('idempotent-replayed'), 'true')
    const third = await again.json()
    t.equal(third.tab_id, answer.tab_id)
    t.equal(third.actions[0].handoff_fence, answer.actions[0].handoff_fence, 'same fence')
    t.not(third.actions[0].takeover_url_secret, answer.actions[0].takeover_url_secret, 'a fresh panel URL: the secret is never kept')
    const staleSecret = answer.actions[0].takeover_url_secret.split('/').pop()
    t.equal(host.app.handoffs.peekSecret(staleSecret), undefined, 'the earlier URL is revoked')
    t.equal(site.hits('/slow-denied'), 1, 'still one load')

    const other = await post('/v1/fetch', { ...body, capture: ['text'] }, 'retry-after-drop')
    t.equal(other.status, 422)
    t.equal((await other.json()).error.code, 'idempotency_key_reused')
    await host.api(`/v1/tabs/${answer.tab_id}`, { method: 'DELETE' })
  })

  t.test('20 concurrent identical requests with one key open one tab', async (t) => {
    const body = { url: `${site.url}/crowd`, takeover: true }
    const answers = await Promise.all(Array.from({ length: 20 }, () => post('/v1/fetch', body, 'crowd-key').then(async (r) => ({ status: r.status, body: await r.json() }))))
    t.ok(answers.every((a) => a.status === 200), 'every request got the answer')
    t.equal(new Set(answers.map((a) => a.body.tab_id)).size, 1, 'one tab_id')
    t.equal(new Set(answers.map((a) => a.body.actions[0].handoff_fence)).size, 1, 'one fence')
    t.equal(site.hits('/crowd'), 1, 'the page was loaded once')
    t.same(handedOff(), [answers[0].body.tab_id], 'one handed-off tab')
    await host.api(`/v1/tabs/${answers[0].body.tab_id}`, { method: 'DELETE' })
  })

  t.test('the mint accepts a key too', async (t) => {
    const tab = await host.app.tabs.open(host.config.defaultProfile)
    await tab.page.goto(`${site.url}/ok`)
    const first = await post(`/v1/tabs/${tab.id}/handoff`, {}, 'mint-key')
    const again = await post(`/v1/tabs/${tab.id}/handoff`, {}, 'mint-key')
    const [a, b] = [await first.json(), await again.json()]
    t.equal(b.handoff_fence, a.handoff_fence)
    t.equal(b.expires_at, a.expires_at)
    t.equal(again.headers.get('idempotent-replayed'), 'true')
    const otherBody = await post(`/v1/tabs/${tab.id}/handoff`, { region: 'p' }, 'mint-key')
    t.equal((await otherBody.json()).error.code, 'idempotency_key_reused', 'the same key with another body')
    await host.api(`/v1/tabs/${tab.id}/handoff/finish`, { method: 'POST', body: JSON.stringify({ handoff_fence: a.handoff_fence }) })
    const afterEnd = await (await post(`/v1/tabs/${tab.id}/handoff`, {}, 'mint-key')).json()
    t.equal(afterEnd.handoff_fence, a.handoff_fence, 'still the first answer after the handoff ended')
    t.equal(afterEnd.takeover_url_secret, undefined, 'but no panel URL: the handoff is no longer open')
    t.match(afterEnd.warnings, [{ code: 'takeover_url_unavailable', message: /no longer open/ }])
    t.equal(host.app.handoffs.summary(tab.id).state, 'finished', 'the replay did not open a new handoff')
    const bad = await post(`/v1/tabs/${tab.id}/handoff`, {}, 'x'.repeat(129))
    t.equal(bad.status, 400)
    t.match(await bad.json(), { error: { code: 'invalid_request', details: { field: 'Idempotency-Key' } } })
  })

  t.test('the client sends the key', async (t) => {
    const { AfhttpClient } = await import('../../src/client/index.js')
    const client = new AfhttpClient({ url: host.url, token: host.token })
    t.teardown(() => client.close())
    const before = site.hits('/ok')
    const a = await client.fetch({ url: `${site.url}/ok` }, { idempotencyKey: 'client-key-1' })
    const b = await client.fetch({ url: `${site.url}/ok` }, { idempotencyKey: 'client-key-1' })
    t.same(b, a, 'the same answer')
    t.equal(site.hits('/ok'), before + 1, 'loaded once')
    await t.rejects(client.fetch({ url: `${site.url}/plain-other` }, { idempotencyKey: 'client-key-1' }), { code: 'idempotency_key_reused', status: 422 })
  })

  t.test('a non-retryable failure is remembered; a retryable one that left no tab is not', async (t) => {
    const bad = { url: 'ftp://127.0.0.1/file' }
    const first = await post('/v1/fetch', bad, 'bad-url-key')
    const again = await post('/v1/fetch', bad, 'bad-url-key')
    t.equal(first.status, 400)
    t.same(await again.json(), await first.json(), 'the same url_not_allowed answer')
    t.equal(again.headers.get('idempotent-replayed'), 'true')

    const slow = { url: `${site.url}/too-slow`, timeout_ms: 1000 }
    const timedOut = await post('/v1/fetch', slow, 'slow-key')
    t.equal((await timedOut.json()).error.code, 'navigation_timeout')
    const retried = await post('/v1/fetch', slow, 'slow-key')
    t.equal((await retried.json()).error.code, 'navigation_timeout')
    t.equal(retried.headers.get('idempotent-replayed'), null, 'the retry ran again')
    t.equal(site.hits('/too-slow'), 2, 'and loaded the page again')
  })

  t.test('a plain fetch without a key is not remembered', async (t) => {
    const before = site.hits('/ok')
    await (await post('/v1/fetch', { url: `${site.url}/ok` })).json()
    await (await post('/v1/fetch', { url: `${site.url}/ok` })).json()
    t.equal(site.hits('/ok'), before + 2, 'each request without a key runs')
  })
})
