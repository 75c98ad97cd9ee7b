// The operator inbox over real HTTP on 127.0.0.1 (docs/spec.md section 20): the token-for-cookie login,
// what is (and is not) answered without the cookie, the live list as server-sent events, "Take
// it" through the handoff service's reissue, and the push-subscription routes.
import t from 'tap'
import { stat, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { startHost, TEST_TOKEN, type TestHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { until } from '../helpers/until.js'
import { INBOX_LOGIN_RATE_LIMIT } from '../../src/limits.js'
import { VAPID_FILE } from '../../src/inbox/vapid.js'
import { PUSH_SUBSCRIPTIONS_FILE } from '../../src/inbox/push-store.js'

const OPERATOR = 'operator-token-abcdefghijklmnop'
const DENIED = '<!doctype html><title>Access denied</title><h1>Access denied</h1><p>You may not see this page.</p>'
const INSTRUCTIONS = 'Sign in with the <b>ops</b> account & press "Continue"'

/** A person's browser: keeps the cookies the host sets, sends its own Origin on writes. */
function operatorBrowser (host: TestHost): { cookie: () => string, get: (path: string) => Promise<Response>, post: (path: string, body?: unknown, method?: string) => Promise<Response>, login: (token?: string) => Promise<Response> } {
  let jar = ''
  const remember = (res: Response): void => {
    const set = res.headers.get('set-cookie')
    if (set) jar = set.split(';')[0]
  }
  return {
    cookie: () => jar,
    get: async (path) => fetch(host.url + path, { headers: jar ? { cookie: jar } : {}, redirect: 'manual' }),
    post: async (path, body, method = 'POST') => fetch(host.url + path, {
      method,
      headers: { ...(jar ? { cookie: jar } : {}), origin: host.url, 'content-type': 'application/json' },
      body: JSON.stringify(body ?? null)
    }),
    login: async (token = OPERATOR) => {
      const res = await fetch(`${host.url}/inbox/login?token=${encodeURIComponent(token)}`, { redirect: 'manual' })
      remember(res)
      return res
    }
  }
}

/** Reads `inbox` events off /inbox/api/stream. */
async function inboxStream (host: TestHost, cookie: string): Promise<{ lists: any[], close: () => void }> {
  const controller = new AbortController()
  const res = await fetch(`${host.url}/inbox/api/stream`, { headers: { cookie }, signal: controller.signal })
  if (res.status !== 200) throw new Error(`stream answered ${res.status}`)
  const lists: any[] = []
  const reader = res.body!.getReader()
  let buffer = ''
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read()
        if (done) return
        buffer += Buffer.from(value).toString('utf8')
        let cut
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut)
          buffer = buffer.slice(cut + 2)
          const data = block.split('\n').find((l) => l.startsWith('data: '))
          if (block.includes('event: inbox') && data) lists.push(JSON.parse(data.slice(6)))
        }
      }
    } catch { /* aborted */ }
  })()
  return { lists, close: () => controller.abort() }
}

t.test('the operator inbox', async (t) => {
  // The browser starts with the first fetch: a loaded machine must not time out the host's ready hook.
  const host = await startHost(t, { startBrowser: false, env: { AFHTTP_OPERATOR_TOKEN: OPERATOR } })
  const site = await startFixtureServer(t, { '/denied': { status: 403, body: DENIED } })
  const fetchDenied = async (): Promise<any> => (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/denied`, takeover: true, instructions: INSTRUCTIONS }) })).json()
  const first = await fetchDenied()
  t.equal(first.actions[0].reason, 'denied')
  const op = operatorBrowser(host)

  t.test('nothing about a handoff without the cookie', async (t) => {
    const page = await op.get('/inbox/')
    t.equal(page.status, 401)
    const html = await page.text()
    t.match(html, /Open your inbox login link/)
    t.notMatch(html, new RegExp(first.tab_id))
    for (const path of ['/inbox/api/handoffs', '/inbox/api/stream', '/inbox/api/push-key']) {
      const res = await op.get(path)
      t.equal(res.status, 401, path)
      t.equal((await res.json()).error.code, 'operator_unauthorized', path)
    }
    const take = await op.post(`/inbox/api/handoffs/${first.tab_id}/take`)
    t.equal(take.status, 401)
    // The API token is no inbox credential either, and the operator token no API one.
    const bearer = await fetch(`${host.url}/inbox/api/handoffs`, { headers: { authorization: `Bearer ${TEST_TOKEN}` } })
    t.equal(bearer.status, 401)
    const asApi = await fetch(`${host.url}/v1/tabs`, { headers: { authorization: `Bearer ${OPERATOR}` } })
    t.equal(asApi.status, 401)
  })

  t.test('a wrong or missing token gets a clear page; the token never reaches a log line', async (t) => {
    const wrong = await op.login('operator-token-wrong-wrong-wrong')
    t.equal(wrong.status, 401)
    t.match(await wrong.text(), /This login link is not right/)
    t.notOk(wrong.headers.get('set-cookie'), 'no cookie for a wrong token')
    const missing = await fetch(`${host.url}/inbox/login`, { redirect: 'manual' })
    t.equal(missing.status, 400)
    t.match(await missing.text(), /has no token/)
  })

  t.test('the right token becomes an HttpOnly cookie scoped to /inbox, and leaves the address bar', async (t) => {
    const res = await op.login()
    t.equal(res.status, 303)
    t.equal(res.headers.get('location'), '/inbox/')
    const set = res.headers.get('set-cookie') ?? ''
    t.match(set, /^afhttp_operator=/)
    t.match(set, /HttpOnly/i)
    t.match(set, /Path=\/inbox(;|$)/)
    t.match(set, /SameSite=Lax/i)
    t.equal(res.headers.get('cache-control'), 'no-store')
    t.notMatch(host.logs.text(), OPERATOR, 'the operator token is in no log line')
    t.match(host.logs.text(), /token=\[redacted\]/)
    const page = await op.get('/inbox/')
    t.equal(page.status, 200)
    t.match(page.headers.get('content-security-policy'), /script-src 'self'/)
    t.match(await page.text(), /id="afhttp-inbox-list"/)
    // The inbox cookie opens nothing outside /inbox.
    const api = await fetch(`${host.url}/v1/tabs`, { headers: { cookie: op.cookie() } })
    t.equal(api.status, 401)
  })

  t.test('the list: profile, reason, instructions as text, title, origin, times, viewers; no secret', async (t) => {
    const res = await op.get('/inbox/api/handoffs')
    t.equal(res.status, 200)
    const text = await res.text()
    const list = JSON.parse(text)
    t.equal(list.handoffs.length, 1)
    t.match(list.handoffs[0], {
      tab_id: first.tab_id,
      profile: 'default',
      reason: 'denied',
      instructions: INSTRUCTIONS,
      title: 'Access denied',
      origin: site.url,
      expires_at: first.actions[0].expires_at,
      viewers: 0,
      state: 'open',
      controller: 'agent'
    })
    t.ok(Date.parse(list.handoffs[0].opened_at) <= Date.parse(list.now))
    t.notMatch(text, /takeover/, 'no panel link')
    t.notMatch(text, first.actions[0].handoff_fence, 'no fence')
    t.notMatch(text, '/denied', 'the origin, never the full URL')
  })

  t.test('the stream pushes the list at once and on each change', async (t) => {
    const stream = await inboxStream(host, op.cookie())
    t.teardown(stream.close)
    await until(() => stream.lists.length >= 1, 'the first list')
    t.equal(stream.lists[0].handoffs.length, 1)
    const second = await fetchDenied()
    await until(() => stream.lists.some((l) => l.handoffs.length === 2), 'the new handoff on the stream', 5_000)
    t.same(stream.lists.at(-1).handoffs.map((h: any) => h.tab_id), [first.tab_id, second.tab_id], 'oldest first')
    await host.api(`/v1/tabs/${second.tab_id}/handoff/finish`, { method: 'POST', body: JSON.stringify({ handoff_fence: second.actions[0].handoff_fence }) })
    await until(() => stream.lists.at(-1).handoffs.length === 1 && stream.lists.at(-1).ended.length === 1, 'the finish on the stream', 5_000)
    t.match(stream.lists.at(-1).ended[0], { tab_id: second.tab_id, state: 'finished', finish_reason: 'driver', profile: 'default', reason: 'denied' })
  })

  t.test('take it: same-origin only, a fresh control link that replaces the driver\'s', async (t) => {
    const foreign = await fetch(`${host.url}/inbox/api/handoffs/${first.tab_id}/take`, { method: 'POST', headers: { cookie: op.cookie(), origin: 'http://evil.example' } })
    t.equal(foreign.status, 403)
    t.equal((await foreign.json()).error.code, 'inbox_origin_refused')
    // The live checks are bounded; on a loaded machine one can miss its bound (503
    // takeover_unavailable, retryable): a person taps again, and so does the test.
    let res = await op.post(`/inbox/api/handoffs/${first.tab_id}/take`)
    for (let i = 0; i < 5 && res.status === 503; i++) res = await op.post(`/inbox/api/handoffs/${first.tab_id}/take`)
    t.equal(res.status, 200)
    const taken = await res.json()
    t.match(taken, { mode: 'control', expires_at: first.actions[0].expires_at, takeover_url_secret: /\/takeover\/[A-Za-z0-9_-]{16,}$/ })
    t.not(taken.takeover_url_secret, first.actions[0].takeover_url_secret)
    t.equal(host.app.handoffs.summary(first.tab_id).handoff_fence, first.actions[0].handoff_fence, 'the same handoff, not a new one')
    const old = await fetch(`${host.url}${new URL(first.actions[0].takeover_url_secret).pathname}`, { redirect: 'manual' })
    t.equal(old.status, 410, 'the driver\'s unused link was replaced')
    const exchanged = await fetch(`${host.url}${new URL(taken.takeover_url_secret).pathname}`, { redirect: 'manual' })
    t.equal(exchanged.status, 303)
    t.match(exchanged.headers.get('location'), /\/panel\/\?tab=/)
    t.notMatch(host.logs.text(), new URL(taken.takeover_url_secret).pathname.split('/').pop()!, 'the link is in no log line')
  })

  t.test('a handoff someone is working offers a view link instead', async (t) => {
    const res = host.app.handoffs.control(first.tab_id, { type: 'take', viewerId: 'someone' })
    t.ok(res.ok)
    const list = await (await op.get('/inbox/api/handoffs')).json()
    t.match(list.handoffs[0], { tab_id: first.tab_id, state: 'human', controller: 'human' })
    const busy = await op.post(`/inbox/api/handoffs/${first.tab_id}/take`)
    t.equal(busy.status, 409)
    t.match((await busy.json()).error, { code: 'handoff_in_use', details: { controller: 'human' } })
    const view = await op.post(`/inbox/api/handoffs/${first.tab_id}/take`, { mode: 'view' })
    t.equal(view.status, 200)
    t.match(await view.json(), { mode: 'view', takeover_url_secret: /\/takeover\// })
    t.equal(host.app.handoffs.summary(first.tab_id).controller, 'human', 'the person keeps control')
    host.app.handoffs.control(first.tab_id, { type: 'release', viewerId: 'someone' })
  })

  t.test('a handoff that ended cannot be taken, and is never reopened', async (t) => {
    await host.api(`/v1/tabs/${first.tab_id}/handoff/finish`, { method: 'POST', body: JSON.stringify({ handoff_fence: first.actions[0].handoff_fence }) })
    const res = await op.post(`/inbox/api/handoffs/${first.tab_id}/take`)
    t.equal(res.status, 410)
    t.equal((await res.json()).error.code, 'handoff_expired')
    t.equal(host.app.handoffs.summary(first.tab_id).state, 'finished')
    const unknown = await op.post('/inbox/api/handoffs/tab_nonexistent00000/take')
    t.equal(unknown.status, 404)
  })

  t.test('push key and subscriptions: VAPID keys and subscriptions kept 0600 in the profiles directory', async (t) => {
    const key = await (await op.get('/inbox/api/push-key')).json()
    t.equal(Buffer.from(key.public_key, 'base64url').length, 65, 'an uncompressed P-256 point')
    const vapid = join(host.profilesDir, VAPID_FILE)
    t.equal((await stat(vapid)).mode & 0o777, 0o600)
    t.equal(JSON.parse(await readFile(vapid, 'utf8')).public_key, key.public_key)

    const sub = { endpoint: 'https://127.0.0.1:9/push/abc', expirationTime: null, keys: { p256dh: Buffer.alloc(65, 4).toString('base64url'), auth: Buffer.alloc(16, 1).toString('base64url') } }
    const http = await op.post('/inbox/api/push-subscriptions', { ...sub, endpoint: 'http://127.0.0.1:9/push' })
    t.equal(http.status, 400)
    t.match((await http.json()).error, { code: 'invalid_request' })
    const extra = await op.post('/inbox/api/push-subscriptions', { ...sub, extra: 1 })
    t.equal(extra.status, 400)
    const ok = await op.post('/inbox/api/push-subscriptions', sub)
    t.equal(ok.status, 200)
    t.same(await ok.json(), { subscribed: true })
    const file = join(host.profilesDir, PUSH_SUBSCRIPTIONS_FILE)
    t.equal((await stat(file)).mode & 0o777, 0o600)
    t.match(JSON.parse(await readFile(file, 'utf8')).subscriptions, [{ endpoint: sub.endpoint, keys: sub.keys }])
    const gone = await op.post('/inbox/api/push-subscriptions', { endpoint: sub.endpoint }, 'DELETE')
    t.same(await gone.json(), { removed: true })
    t.same(JSON.parse(await readFile(file, 'utf8')).subscriptions, [])
  })

  t.test('the inbox API is in the OpenAPI document', async (t) => {
    const doc = await (await fetch(`${host.url}/docs/openapi.json`)).json()
    for (const [path, method] of [['/inbox/api/handoffs', 'get'], ['/inbox/api/handoffs/{tab_id}/take', 'post'], ['/inbox/api/push-key', 'get'], ['/inbox/api/push-subscriptions', 'post'], ['/inbox/api/push-subscriptions', 'delete'], ['/inbox/login', 'get']]) {
      t.ok(doc.paths[path]?.[method], `${method.toUpperCase()} ${path}`)
    }
    t.ok(doc.paths['/inbox/api/handoffs'].get.responses['200'].content['application/json'].schema.properties.handoffs)
  })

  t.test('logins are rate-limited per address', async (t) => {
    let last: Response | undefined
    for (let i = 0; i <= INBOX_LOGIN_RATE_LIMIT; i++) last = await fetch(`${host.url}/inbox/login?token=nope-nope-nope-nope`, { redirect: 'manual' })
    t.equal(last!.status, 429)
    t.match(await last!.text(), /Too many tries/)
  })
})

t.test('without AFHTTP_OPERATOR_TOKEN there is no inbox', async (t) => {
  const host = await startHost(t, { startBrowser: false })
  const page = await fetch(`${host.url}/inbox/`)
  t.equal(page.status, 404)
  t.match(await page.text(), /no operator inbox/)
  const api = await fetch(`${host.url}/inbox/api/handoffs`)
  t.equal((await api.json()).error.code, 'inbox_not_configured')
  const login = await fetch(`${host.url}/inbox/login?token=${OPERATOR}`, { redirect: 'manual' })
  t.equal(login.status, 404)
  await t.rejects(stat(join(host.profilesDir, VAPID_FILE)), { code: 'ENOENT' }, 'no keys are made for an inbox that is off')
})
