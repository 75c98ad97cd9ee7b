// docs/spec.md sections 5 and 12 against a real host: property-based hostile input (fast-check) on
// every JSON route body, path and query and on every panel WebSocket message type, and the
// refusals that guard the panel and the passthrough. Each input gets a coded error (never a
// 500 `internal`) or is dropped, the host stays up and its memory stays bounded.
import t from 'tap'
import fc from 'fast-check'
import WebSocket from 'ws'
import { existsSync, readdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { startHost, type TestHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { onHost } from '../helpers/panel-browser.js'
import { ManualClock } from '../../src/core/clock.js'
import { ERRORS } from '../../src/errors.js'
import { MAX_MESSAGE_BYTES } from '../../src/panel/messages.js'
import { openLink } from '../helpers/open-link.js'
import { mintPanelLink } from '../helpers/mint.js'

const WALL = `<!doctype html><title>Sign in required</title><body style="margin:0;font:16px sans-serif">
<p>Sign in to see this page. Your session ended and the page needs a person to continue.</p>
<input id="name" style="position:absolute;left:20px;top:80px;width:300px"></body>`

const RUNS = Number(process.env.AFHTTP_PROPERTY_RUNS ?? 60)
const MB = 1024 * 1024

/** Values a hostile client sends where a field is expected. */
const deep = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth)
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.string({ maxLength: 3000 }),
  fc.constantFrom('', ' ', '\u0000', '../../etc/passwd', '..%2F..%2F', '%00', '<script>alert(1)</script>', 'x'.repeat(70_000), '\ud800'),
  fc.double(),
  fc.constantFrom(1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, -1, 0, 2 ** 31),
  fc.constant(JSON.parse(deep(200)) as unknown)
)

/** Any JSON body: objects with the route's own field names (and others), or not an object at all. */
function bodies (fields: string[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...fields), fc.string({ maxLength: 20 })), hostileValue, { maxKeys: 6 }) },
    { weight: 1, arbitrary: hostileValue }
  )
}

/** Path segments: traversal, encodings, control characters, huge ones. */
const hostileSegment = fc.oneof(
  fc.string({ maxLength: 80 }).map(encodeURIComponent),
  fc.constantFrom('..', '%2e%2e', '..%2F..%2Fetc', '%00', 'a'.repeat(5000), '%ff%fe', 'default%2F..', '.', 'CON')
)

const KNOWN_CODES = new Set(Object.keys(ERRORS))

/** The answer must be a coded refusal (or a success), never internal, and always the one envelope. */
async function checkAnswer (res: Response, what: string): Promise<void> {
  const text = await res.text()
  if (res.status >= 400) {
    let code: unknown
    try { code = (JSON.parse(text) as { error?: { code?: unknown } }).error?.code } catch { code = undefined }
    if (typeof code !== 'string' || !KNOWN_CODES.has(code)) throw new Error(`${what}: ${res.status} without a coded envelope: ${text.slice(0, 300)}`)
    if (code === 'internal' || res.status === 500) throw new Error(`${what}: internal error ${text.slice(0, 300)}`)
  }
}

/** Bodies whose url could make the host browse somewhere: never generated at random here. */
function browses (body: unknown): boolean {
  const url = typeof body === 'object' && body !== null ? (body as { url?: unknown }).url : undefined
  if (typeof url !== 'string') return false
  // Judged as a URL parser would (it strips leading controls and spaces), plus anything naming http.
  let protocol = ''
  try { protocol = new URL(url).protocol } catch { protocol = '' }
  return /^https?:$/i.test(protocol) || /https?:/i.test(url)
}

function rss (): number { return process.memoryUsage().rss }

interface Socket { ws: WebSocket, messages: Array<Record<string, unknown>>, closed: Promise<{ code: number, reason: string }> }

function openSocket (host: TestHost, tabId: string, headers: Record<string, string>): Promise<Socket | { status: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${host.url.replace('http', 'ws')}/panel/ws?tab=${encodeURIComponent(tabId)}`, { headers })
    const messages: Array<Record<string, unknown>> = []
    const closed = new Promise<{ code: number, reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })))
    ws.on('message', (data, isBinary) => { if (!isBinary) messages.push(JSON.parse(data.toString())) })
    ws.on('open', () => resolve({ ws, messages, closed }))
    ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0 }))
    ws.on('error', () => undefined)
  })
}

const until = async (what: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> => {
  const end = Date.now() + ms
  while (!(await what())) {
    if (Date.now() > end) throw new Error('condition not reached in time')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

async function exchange (host: TestHost, url: string): Promise<Response> {
  return openLink(onHost(host, url))
}

t.test('hostile input against a real host', async (t) => {
  const clock = new ManualClock()
  const host = await startHost(t, { clock })
  const site = await startFixtureServer(t, { '/wall': { status: 403, body: WALL } })
  const fetched = await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/wall`, takeover: true }) })).json() as any
  const tabId: string = fetched.tab_id
  const firstSecret: string = fetched.actions[0].takeover_url_secret
  const rssStart = rss()

  const send = (method: string, path: string, body?: unknown, raw?: string): Promise<Response> =>
    host.api(path, { method, ...(raw !== undefined || body !== undefined ? { body: raw ?? JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}) })

  t.test('every JSON route body and path: a coded error or a success, never internal', async (t) => {
    const tabPath = fc.oneof(hostileSegment, fc.constant(tabId))
    const routes: Array<[string, fc.Arbitrary<[string, string, unknown]>]> = [
      ['POST /v1/fetch', bodies(['url', 'profile', 'tab_id', 'takeover', 'wait', 'timeout_ms', 'capture', 'region', 'instructions'])
        .filter((b) => !browses(b)).map((b) => ['POST', '/v1/fetch', b])],
      ['POST /v1/cdp', bodies(['profile', 'method', 'params', 'tab_id'])
        // A well-formed CDP method name would really run; hostile input is what is not one.
        .filter((b) => !(typeof b === 'object' && b !== null && /^[A-Z]\w*\.[a-z]/.test(String((b as { method?: unknown }).method))))
        .map((b) => ['POST', '/v1/cdp', b])],
      ['POST /v1/tabs/:id/handoff', fc.tuple(hostileSegment, bodies(['region', 'ready_selector', 'instructions', 'mode'])).map(([id, b]) => ['POST', `/v1/tabs/${id}/handoff`, b])],
      ['POST /v1/tabs/:id/handoff/finish', fc.tuple(tabPath, bodies(['handoff_fence'])).map(([id, b]) => ['POST', `/v1/tabs/${id}/handoff/finish`, b])],
      ['POST /v1/tabs/:id/snapshot', fc.tuple(hostileSegment, bodies(['capture'])).map(([id, b]) => ['POST', `/v1/tabs/${id}/snapshot`, b])],
      ['GET|DELETE /v1/tabs/:id', fc.tuple(fc.constantFrom('GET', 'DELETE'), hostileSegment).map(([m, id]) => [m, `/v1/tabs/${id}`, undefined])],
      ['GET /v1/tabs/:id/handoff', tabPath.map((id) => ['GET', `/v1/tabs/${id}/handoff`, undefined])],
      ['PATCH /v1/profiles/:name', fc.tuple(hostileSegment, bodies(['labels', 'cdp_url'])).map(([n, b]) => ['PATCH', `/v1/profiles/${n}`, b])],
      ['GET /v1/profiles/:name', hostileSegment.map((n) => ['GET', `/v1/profiles/${n}`, undefined])],
      // Last: a random body may really create a profile, and nothing above should see it.
      ['POST /v1/profiles', bodies(['name', 'backend', 'cdp_url', 'labels']).map((b) => ['POST', '/v1/profiles', b])]
    ]
    for (const [name, arb] of routes) {
      await fc.assert(fc.asyncProperty(arb, async ([method, path, body]) => {
        await checkAnswer(await send(method, path, body), `${method} ${path} ${JSON.stringify(body)?.slice(0, 200)}`)
      }), { numRuns: RUNS })
      t.pass(`${name}: ${RUNS} hostile inputs, each a coded answer`)
    }
    t.ok(host.app.tabs.find(tabId), 'the retained tab survived (never DELETEd at random: its id is not generated for DELETE)')
    // Traversal never escaped: nothing appeared beside the profiles directory.
    const parent = dirname(host.profilesDir)
    t.notOk(readdirSync(parent).some((n) => n === 'etc' || n === 'passwd'), 'no file created outside the profiles dir')
    t.ok(existsSync(host.profilesDir))
  })

  t.test('query strings of the panel routes and the panel document', async (t) => {
    await fc.assert(fc.asyncProperty(fc.constantFrom('/panel/api/status', '/panel/', '/panel', '/v1/tabs'), fc.string({ maxLength: 300 }), async (path, q) => {
      const res = await fetch(`${host.url}${path}?tab=${encodeURIComponent(q)}&${encodeURIComponent(q)}=1`, { headers: { authorization: `Bearer ${host.token}` }, redirect: 'manual' })
      if (res.status >= 500) throw new Error(`${path}?${q}: ${res.status}`)
      await res.arrayBuffer()
    }), { numRuns: RUNS })
    t.pass(`${RUNS} hostile queries, none a server error`)
  })

  t.test('malformed JSON, deep nesting and oversized bodies on every JSON route', async (t) => {
    const posts = ['/v1/fetch', '/v1/cdp', '/v1/profiles', `/v1/tabs/${tabId}/handoff`, `/v1/tabs/${tabId}/handoff/finish`, `/v1/tabs/${tabId}/snapshot`]
    await fc.assert(fc.asyncProperty(fc.constantFrom(...posts), fc.string({ maxLength: 500 }).filter((s) => { try { JSON.parse(s); return false } catch { return true } }), async (path, raw) => {
      const res = await send('POST', path, undefined, raw)
      if (res.status !== 400) throw new Error(`${path} ${JSON.stringify(raw)}: ${res.status}`)
      await checkAnswer(res, path)
    }), { numRuns: RUNS })
    for (const path of posts) {
      const nested = await send('POST', path, undefined, deep(100_000))
      t.equal(nested.status, 400, `${path}: 100,000 levels of nesting is a 400`)
      await checkAnswer(nested, path)
      const big = await send('POST', path, undefined, JSON.stringify({ url: 'x'.repeat(2 * MB) }))
      t.equal(big.status, 413, `${path}: a 2 MiB body is 413`)
      t.equal((await big.json()).error.code, 'payload_too_large')
    }
    const patch = await send('PATCH', '/v1/profiles/default', undefined, JSON.stringify({ labels: { k: 'x'.repeat(2 * MB) } }))
    t.equal(patch.status, 413)
  })

  t.test('schemes other than http and https are url_not_allowed', async (t) => {
    for (const url of ['file:///etc/passwd', 'ftp://127.0.0.1/', 'javascript:alert(1)', 'data:text/html,<h1>x</h1>', 'ws://127.0.0.1:1/', 'chrome://settings', 'about:blank', 'view-source:http://127.0.0.1/', 'blob:http://127.0.0.1/x', 'filesystem:http://127.0.0.1/temporary/x']) {
      const res = await send('POST', '/v1/fetch', { url })
      t.equal((await res.json()).error?.code, 'url_not_allowed', url)
    }
  })

  t.test('panel WebSocket: every message type with hostile fields, binary and oversized messages, a burst', async (t) => {
    const exchanged = await exchange(host, firstSecret)
    t.equal(exchanged.status, 303)
    const lease = exchanged.headers.getSetCookie()[0].split(';')[0]
    const headers = { cookie: lease, origin: host.url }
    const connect = async (): Promise<Socket> => {
      const s = await openSocket(host, tabId, headers)
      if (!('ws' in s)) throw new Error(`socket refused: ${s.status}`)
      await until(() => s.messages.some((m) => m.t === 'state'))
      return s
    }
    let sock = await connect()

    const num = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(1e308, -1e308, 1e6, -1e6, 0.5, -0), fc.string({ maxLength: 10 }), fc.constant(null))
    const message = fc.record({
      // `done` would end the handoff: sent once, on purpose, at the end.
      t: fc.oneof(fc.constantFrom('mouse', 'wheel', 'key', 'shortcut', 'text', 'paste', 'size', 'take', 'release'), fc.string({ maxLength: 12 }), num),
      g: fc.oneof(num, fc.nat(5)),
      type: fc.oneof(fc.constantFrom('down', 'move', 'up'), fc.string({ maxLength: 8 }), num),
      x: num,
      y: num,
      dx: num,
      dy: num,
      button: fc.oneof(fc.constantFrom('left', 'right', 'middle', 'none'), fc.string({ maxLength: 8 })),
      clicks: num,
      mods: num,
      key: fc.oneof(fc.constantFrom('Enter', 'Tab', 'Backspace', 'a', 'z', 'F13', '__proto__', 'constructor'), fc.string({ maxLength: 20 })),
      shift: fc.anything({ maxDepth: 1 }),
      text: fc.oneof(fc.string({ maxLength: 200 }), fc.constant('y'.repeat(20_000)), fc.constant('')),
      width: num,
      height: num,
      dpr: num,
      whole: fc.anything({ maxDepth: 1 })
    }, { requiredKeys: ['t'] }).map((m) => JSON.stringify(m))
    const frame = fc.oneof(
      { weight: 6, arbitrary: message },
      { weight: 1, arbitrary: fc.string({ maxLength: 300 }) },
      { weight: 1, arbitrary: fc.constantFrom(deep(5000), `{"t":"detail","scale":1,"rect":${deep(15_000)}}`, '{"t":', 'null', '[]', '"mouse"', '{"__proto__":{"t":"take"}}') }
    )
    const frames = fc.sample(frame, { numRuns: 2000, seed: 42 })
      .filter((f) => Buffer.byteLength(f) <= MAX_MESSAGE_BYTES)
    const errorsBefore = sock.messages.filter((m) => m.t === 'error').length
    for (const f of frames) sock.ws.send(f)
    // A marker after the stream: when its answer arrives, everything before it was handled.
    sock.ws.send('not json: marker')
    await until(() => sock.messages.some((m) => m.t === 'error' && m.message === 'not JSON') && sock.messages.filter((m) => m.t === 'error').length > errorsBefore + 100)
    t.equal(sock.ws.readyState, WebSocket.OPEN, `${frames.length} hostile text messages: answered with errors or dropped, the socket stays open`)
    t.ok(sock.messages.filter((m) => m.t === 'error').every((m) => typeof m.message === 'string' && (m.message as string).length < 200), 'each error is a short clear message')
    t.equal(await host.app.tabs.get(tabId).page.evaluate(() => 1 + 1), 2, 'the page still answers')

    // Binary where text is expected, and a text message over the limit: closed with 1009.
    sock.ws.send(Buffer.from([0xff, 0x00, 0x01]), { binary: true })
    t.match(await sock.closed, { code: 1009 }, 'a binary message closes the socket with 1009')
    sock = await connect()
    sock.ws.send(JSON.stringify({ t: 'paste', g: 0, text: 'z'.repeat(MAX_MESSAGE_BYTES + 1) }))
    t.match(await sock.closed, { code: 1009 }, 'an oversized message closes the socket with 1009')

    // 10,000 messages as fast as the socket takes them.
    sock = await connect()
    const g = (sock.messages.findLast((m) => m.t === 'state')?.generation as number) ?? 0
    const rssBefore = rss()
    for (let i = 0; i < 10_000; i++) {
      sock.ws.send(i % 2 === 0
        ? JSON.stringify({ t: 'mouse', type: 'move', g, x: i % 800, y: i % 600, button: 'none' })
        : `{"t":"bogus-${i}"`)
    }
    sock.ws.send('not json: end of burst')
    await until(() => sock.messages.filter((m) => m.t === 'error').length >= 5_001, 30_000)
    const rssAfter = rss()
    t.comment(`RSS around the burst: ${(rssBefore / MB).toFixed(0)} MiB before, ${(rssAfter / MB).toFixed(0)} MiB after`)
    t.ok(rssAfter - rssBefore < 150 * MB, 'memory stays bounded through a burst of 10,000 messages')
    t.equal(sock.ws.readyState, WebSocket.OPEN)
    t.equal((await host.api('/capabilities')).status, 200, 'the host still answers')
    sock.ws.close()
    await sock.closed
  })

  t.test('the panel socket refuses no Origin, a foreign Origin and no lease', async (t) => {
    const exchanged = await exchange(host, (await mintPanelLink(host, tabId)).takeover_url_secret)
    const lease = exchanged.headers.getSetCookie()[0].split(';')[0]
    t.match(await openSocket(host, tabId, { cookie: lease }), { status: 403 }, 'no Origin header')
    t.match(await openSocket(host, tabId, { cookie: lease, origin: 'null' }), { status: 403 }, 'Origin: null (a sandboxed frame)')
    t.match(await openSocket(host, tabId, { cookie: lease, origin: 'http://127.0.0.1.evil.example' }), { status: 403 }, 'a look-alike origin')
    t.match(await openSocket(host, tabId, { origin: host.url }), { status: 401 }, 'no lease')
    t.match(await openSocket(host, tabId, { origin: host.url, cookie: `afhttp_lease_${tabId}=${'A'.repeat(43)}` }), { status: 401 }, 'a forged lease')
    t.match(await openSocket(host, 'tab_nope', { origin: host.url, cookie: lease }), { status: 401 }, 'a lease for another tab')
  })

  t.test('the CDP passthrough refuses a wrong token', async (t) => {
    const endpoint = `${host.url.replace('http', 'ws')}/v1/profiles/${host.config.defaultProfile}/cdp`
    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(endpoint, { headers: { authorization: 'Bearer not-the-token-0123456789' } })
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
      ws.on('open', () => { ws.close(); resolve(101) })
      ws.on('error', () => undefined)
    })
    t.equal(status, 401)
  })

  t.test('forged, reused, revoked, finished and expired secrets: 410 pages that say which', async (t) => {
    const forged = await fetch(`${host.url}/takeover/${'Q'.repeat(43)}`)
    t.equal(forged.status, 410)
    t.match(await forged.text(), /does not work/)
    const reused = await exchange(host, firstSecret)
    t.equal(reused.status, 410)
    t.match(await reused.text(), /already used/)

    const mint = async (): Promise<{ url: string, fence: string }> => {
      const m = await mintPanelLink(host, tabId)
      return { url: m.takeover_url_secret, fence: m.handoff_fence }
    }
    const older = await mint()
    const newer = await mint()
    const revoked = await exchange(host, older.url)
    t.equal(revoked.status, 410)
    t.match(await revoked.text(), /replaced/, 'a link replaced by a newer mint says so')

    // A lease used after its handoff finished: the socket, the status and Done all refuse it.
    const leased = await exchange(host, newer.url)
    const lease = leased.headers.getSetCookie()[0].split(';')[0]
    const finish = await host.api(`/v1/tabs/${tabId}/handoff/finish`, { method: 'POST', body: JSON.stringify({ handoff_fence: newer.fence }) })
    t.equal(finish.status, 200)
    t.match(await openSocket(host, tabId, { cookie: lease, origin: host.url }), { status: 401 }, 'no socket on a finished handoff')
    const status = await fetch(`${host.url}/panel/api/status?tab=${tabId}`, { headers: { cookie: lease } })
    t.equal((await status.json()).error.code, 'panel_lease_invalid')
    const done = await fetch(`${host.url}/panel/api/done?tab=${tabId}`, { method: 'POST', headers: { cookie: lease, origin: host.url } })
    t.equal((await done.json()).error.code, 'panel_lease_invalid')

    // Expiry: a fresh handoff, the (fake) clock past its hold, then the link.
    const fresh = await mint()
    const finishedLink = await exchange(host, newer.url)
    t.equal(finishedLink.status, 410)
    t.match(await finishedLink.text(), /already used|handoff is over/, 'a link of a finished handoff is dead')
    clock.advance(host.config.handoffHoldMs + 1_000)
    const expired = await exchange(host, fresh.url)
    t.equal(expired.status, 410)
    t.match(await expired.text(), /expired/)
  })

  t.test('the host is still up, and memory stayed bounded', async (t) => {
    t.equal((await host.api('/v1/tabs')).status, 200)
    const grown = rss() - rssStart
    t.comment(`host process RSS grew ${(grown / MB).toFixed(0)} MiB over all hostile input`)
    t.ok(grown < 300 * MB, 'bounded growth')
  })
})
