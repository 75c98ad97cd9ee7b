// docs/spec.md sections 12 and 19: no token, panel secret, panel URL, lease or site cookie value,
// query-string token, and nothing a person pasted or typed, ever reaches a log line or the audit
// trail (which must still say who did what: minted, exchanged, control, navigated, finished). A real host at `debug` level goes through a
// whole takeover (fetch with takeover, a second mint, the link exchanged, the panel document,
// the panel WebSocket, a password pasted and text typed into the page, finish), and every log
// line is parsed and scanned. The scan is shown to catch a leak: the same requests against a
// logger without the redaction are caught, and the redaction of each path is checked directly.
import t from 'tap'
import pino from 'pino'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import WebSocket from 'ws'
import { startHost, LogCapture, type TestHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { onHost } from '../helpers/panel-browser.js'
import { createLogger, REDACT_PATHS, redactUrl } from '../../src/logger.js'
import { openLink } from '../helpers/open-link.js'
import { mintPanelLink } from '../helpers/mint.js'

const SITE_COOKIE = `sid-${randomBytes(12).toString('hex')}`
const PASSWORD = `pw-${randomBytes(12).toString('hex')}`
const TYPED = `typed-${randomBytes(8).toString('hex')}`
const WRONG_TOKEN = `wrong-token-${randomBytes(8).toString('hex')}`
const QUERY_TOKEN = `qt-${randomBytes(12).toString('hex')}`

// Enter in the password field submits the form: the person follows a link whose query holds a
// token (and the typed password, as a GET form does).
const LOGIN = `<!doctype html><title>Sign in</title><body style="font:16px sans-serif">
<p>Your session has expired. Sign in again to continue to your account overview.</p>
<form action="/welcome" method="get"><input type="hidden" name="token" value="${QUERY_TOKEN}">
<input id="pw" name="pw" type="password" autofocus style="position:absolute;left:20px;top:80px;width:300px"></form>
</body>`

/** Every secret found in any log line (raw text and the parsed object, so escaping cannot hide one). */
function leaks (logs: LogCapture, secrets: Record<string, string>): string[] {
  const found: string[] = []
  const lines = logs.lines
  const texts = [...logs.raw, ...lines.map((l) => JSON.stringify(l))]
  for (const [what, value] of Object.entries(secrets)) {
    if (texts.some((text) => text.includes(value))) found.push(what)
  }
  return found
}

/** Panel link exchange as a browser does it; returns the lease cookie pair. */
async function exchange (host: TestHost, panelUrl: string): Promise<{ cookie: string, location: string }> {
  const res = await openLink(onHost(host, panelUrl))
  if (res.status !== 303) throw new Error(`exchange answered ${res.status}`)
  const setCookie = res.headers.getSetCookie()
  const pair = setCookie[0].split(';')[0]
  return { cookie: pair, location: res.headers.get('location') ?? '' }
}

t.test('a whole takeover at debug level writes no secret to any log line', async (t) => {
  const host = await startHost(t, { env: { AFHTTP_LOG_LEVEL: 'debug' } })
  const site = await startFixtureServer(t, {
    '/login': { status: 403, headers: { 'set-cookie': `sid=${SITE_COOKIE}; Path=/; HttpOnly` }, body: LOGIN },
    '/welcome': { status: 200, body: '<!doctype html><title>Welcome</title><p>Signed in.</p>' }
  })

  const fetched = await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/login`, takeover: true }) })
  const body = await fetched.json() as { tab_id: string, actions: Array<{ takeover_url_secret: string, handoff_fence: string }> }
  const firstUrl = body.actions[0].takeover_url_secret
  t.ok(firstUrl, 'the takeover fetch minted a panel URL')
  const tabId = body.tab_id

  // A second mint revokes the first URL and gives a fresh one.
  const minted = await mintPanelLink(host, tabId)
  const panelUrl = minted.takeover_url_secret
  t.not(panelUrl, firstUrl)
  // The revoked link is refused (a 410 page), and that refusal is logged too.
  t.equal((await fetch(onHost(host, firstUrl), { redirect: 'manual' })).status, 410)
  // The router decodes paths, so an encoded spelling reaches the same route: it must be redacted too.
  const first = new URL(firstUrl).pathname.split('/').pop() as string
  for (const path of [`/%74akeover/${first}`, `/%2574akeover/${first}`, `/takeover%2F${first}`, `/TAKEOVER/${first}`, `/takeover/${first}%ff`, `/r/x/takeover/${first}?a=1`]) {
    const res = await fetch(host.url + path, { redirect: 'manual' })
    t.ok([400, 404, 410].includes(res.status), `${path.replace(first, '<secret>')}: ${res.status}`)
  }

  const { cookie: lease, location } = await exchange(host, panelUrl)
  const leaseValue = lease.split('=').slice(1).join('=')
  t.equal((await fetch(host.url + location, { headers: { cookie: lease } })).status, 200, 'the panel document is served')
  t.equal((await fetch(`${host.url}/panel/api/status?tab=${tabId}`, { headers: { cookie: lease } })).status, 200)

  // The panel WebSocket, speaking the panel protocol as panel/ does.
  const ws = new WebSocket(`${host.url.replace('http', 'ws')}/panel/ws?tab=${tabId}`, { headers: { cookie: lease, origin: host.url } })
  const states: Array<Record<string, unknown>> = []
  ws.on('message', (data, isBinary) => { if (!isBinary) states.push(JSON.parse(data.toString())) })
  await once(ws, 'open')
  const controlling = async (): Promise<number> => {
    for (let i = 0; i < 800; i++) {
      const s = states.findLast((m) => m.t === 'state')
      if (s?.you_control === true) return s.generation as number
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    throw new Error(`never got control: ${JSON.stringify(states.slice(-3))}`)
  }
  ws.send(JSON.stringify({ t: 'size', width: 800, height: 600, dpr: 1, whole: true }))
  const g = await controlling()
  ws.send(JSON.stringify({ t: 'paste', g, text: PASSWORD }))
  ws.send(JSON.stringify({ t: 'text', g, text: TYPED }))
  ws.send(JSON.stringify({ t: 'not-a-type', g, text: PASSWORD })) // refused messages must not echo into logs either
  const tab = host.app.tabs.get(tabId)
  await tab.page.waitForFunction((want: string) => (document.querySelector('#pw') as HTMLInputElement).value === want, { timeout: 10_000, polling: 50 }, PASSWORD + TYPED)
  t.pass('the paste and the typed text reached the page')
  ws.send(JSON.stringify({ t: 'key', g, type: 'down', key: 'Enter' }))
  ws.send(JSON.stringify({ t: 'key', g, type: 'up', key: 'Enter' }))
  await tab.page.waitForFunction((token: string) => document.location.pathname === '/welcome' && document.location.search.includes(token), { timeout: 15_000, polling: 50 }, QUERY_TOKEN)
  t.pass('Enter followed the link whose query holds a token')

  // Requests that carry secrets in headers: a wrong token, and cookies sent to the API.
  t.equal((await fetch(`${host.url}/v1/tabs`, { headers: { authorization: `Bearer ${WRONG_TOKEN}` } })).status, 401)
  t.equal((await host.api('/v1/tabs', { headers: { cookie: `sid=${SITE_COOKIE}; ${lease}` } })).status, 200)

  // Listen before finishing: the host may close the panel socket before the finish answer is read.
  const wsClosed = once(ws, 'close')
  const finished = await host.api(`/v1/tabs/${tabId}/handoff/finish`, { method: 'POST', body: JSON.stringify({ handoff_fence: minted.handoff_fence }) })
  t.equal(finished.status, 200)
  const summary = await finished.json() as { outcome?: { cookies_set?: string[] } }
  if (summary.outcome?.cookies_set) t.notOk(JSON.stringify(summary).includes(SITE_COOKIE), 'the outcome names cookies, never their values')
  await wsClosed

  // The trail says who did what, by kind and origin only.
  const trail = await (await host.api(`/v1/tabs/${tabId}/handoff/audit`)).json() as { entries: Array<Record<string, unknown>> }
  const kinds = trail.entries.map((e) => e.kind)
  for (const kind of ['minted', 'exchanged', 'control', 'navigated', 'finished']) t.ok(kinds.includes(kind), `the trail has a ${kind} entry (${kinds.join(', ')})`)
  const navigated = trail.entries.find((e) => e.kind === 'navigated' && e.origin === site.url)
  t.ok(navigated, 'the navigation is recorded by its origin alone')
  const profileTrail = await (await host.api(`/v1/profiles/${host.app.config.defaultProfile}/audit`)).text()
  await host.close()

  const secrets = {
    'API token': host.token,
    'wrong token': WRONG_TOKEN,
    'first panel secret': new URL(firstUrl).pathname.split('/').pop() as string,
    'panel secret': new URL(panelUrl).pathname.split('/').pop() as string,
    'panel URL': panelUrl,
    'lease cookie': leaseValue,
    'site cookie': SITE_COOKIE,
    'pasted password': PASSWORD,
    'typed text': TYPED,
    'query token': QUERY_TOKEN
  }
  const lines = host.logs.lines
  t.ok(lines.length > 20, `${lines.length} log lines captured, all parsed as JSON`)
  t.equal(host.app.log.level, 'debug', 'the host really ran at debug')
  t.ok(lines.some((l) => (l.req as { url?: string } | undefined)?.url === '/takeover/[redacted]'), 'the exchange request was logged, with its secret redacted')
  t.same(leaks(host.logs, secrets), [], 'no secret in any log line')
  const trailText = JSON.stringify(trail) + profileTrail
  t.same(Object.entries(secrets).filter(([, v]) => trailText.includes(v)).map(([k]) => k), [], 'no secret in the audit trail')
  t.notOk(trailText.includes('/welcome') || trailText.includes('/login'), 'no path of the site in the audit trail')
})

t.test('the scan catches a leak: the same requests through a logger without the redaction', async (t) => {
  // The host's own logger with only the redaction taken away (pino's standard serializers).
  const logs = new LogCapture()
  const host = await startHost(t, { startBrowser: false, logger: pino({ level: 'debug' }, logs) })
  const secret = randomBytes(24).toString('base64url')
  t.equal((await fetch(`${host.url}/takeover/${secret}`, { redirect: 'manual' })).status, 410)
  t.same(leaks(logs, { 'panel secret': secret }), ['panel secret'], 'without redactUrl the secret is in the request log, and the scan says so')
})

t.test('redactUrl cuts the secret from every spelling of a takeover path', async (t) => {
  const secret = 'Sx4_secret-value-0123456789'
  for (const url of [`/takeover/${secret}`, `/%74akeover/${secret}`, `/%2574akeover/${secret}`, `/takeover%2F${secret}`, `/TAKEOVER/${secret}`,
    `/takeover/${secret}%ff`, `/prefix/takeover/${secret}?x=1`, `/takeover/${secret}/more`, `/%74%61%6b%65%6f%76%65%72/${secret}`]) {
    const out = redactUrl(url)
    t.notOk(out.includes(secret) || out.includes('x4_secret'), `${url} → ${out}`)
    t.match(out, /\/takeover\/\[redacted\]/i)
  }
  t.equal(redactUrl('/v1/tabs/tab_1?x=%20y'), '/v1/tabs/tab_1?x=%20y', 'other URLs are logged as they came')
})

t.test('every redacted path is redacted by the host logger, and would leak without it', async (t) => {
  const value = `v-${randomBytes(8).toString('hex')}`
  const record = {
    req: { headers: { authorization: `Bearer ${value}`, cookie: `sid=${value}` } },
    res: { headers: { 'set-cookie': `sid=${value}` } },
    headers: { authorization: `Bearer ${value}`, cookie: `sid=${value}` },
    token: value,
    nested: { token: value }
  }
  const redacted = new LogCapture()
  createLogger('debug', redacted).info(record, 'a line carrying every redacted path')
  t.notOk(redacted.text().includes(value), 'nothing leaks through the host logger')
  const line = redacted.lines[0] as Record<string, any>
  t.equal(line.headers.authorization, '[redacted]')
  t.equal(line.headers.cookie, '[redacted]')
  t.equal(line.token, '[redacted]')
  t.equal(line.nested.token, '[redacted]')

  // Each path on its own matters: dropping any one of them lets its value through.
  for (const path of REDACT_PATHS) {
    const plain = new LogCapture()
    pino({ level: 'debug', redact: { paths: REDACT_PATHS.filter((p) => p !== path), censor: '[redacted]' } }, plain).info(record, 'x')
    t.ok(plain.text().includes(value), `without ${path} the value leaks, so the check above can fail`)
  }
})
