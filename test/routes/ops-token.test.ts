import t from 'tap'
import WebSocket from 'ws'
import { startHost, TEST_TOKEN } from '../helpers/host.js'
import { ConfigError, loadConfig } from '../../src/config.js'

const OPS = 'ops-token-abcdef0123456789'

t.test('AFHTTP_OPS_TOKEN reads only GET /health and GET /metrics', async (t) => {
  const host = await startHost(t, { env: { AFHTTP_OPS_TOKEN: OPS }, startBrowser: false })
  const asOps = (path: string, init: RequestInit = {}): Promise<Response> =>
    fetch(host.url + path, { ...init, headers: { authorization: `Bearer ${OPS}`, ...(init.body ? { 'content-type': 'application/json' } : {}) } })

  const health = await asOps('/health')
  t.ok([200, 503].includes(health.status), `/health answers the ops token (HTTP ${health.status})`)
  t.type((await health.json()).status.running, 'boolean', 'with the health body')
  const metrics = await asOps('/metrics')
  t.equal(metrics.status, 200)
  t.match(await metrics.text(), /afhttp_http_requests_total/)

  for (const [method, path, body] of [
    ['GET', '/v1/tabs'], ['GET', '/v1/profiles'], ['POST', '/v1/fetch', { url: 'http://127.0.0.1:9/' }],
    ['POST', '/v1/cdp', { method: 'Browser.getVersion' }], ['GET', '/v1/events'], ['POST', '/health']
  ] as Array<[string, string, unknown?]>) {
    const res = await asOps(path, { method, ...(body ? { body: JSON.stringify(body) } : {}) })
    t.equal(res.status, 403, `${method} ${path} is forbidden`)
    const envelope = await res.json()
    t.equal(envelope.error.code, 'forbidden')
    t.match(envelope.error.message, /ops token/)
  }

  const ws = new WebSocket(`${host.url.replace('http', 'ws')}/v1/profiles/default/cdp`, { headers: { authorization: `Bearer ${OPS}` } })
  const refused = await new Promise<string>((resolve) => {
    ws.once('unexpected-response', (_req, res) => resolve(String(res.statusCode)))
    ws.once('open', () => resolve('open'))
    ws.once('error', (err) => resolve(err.message))
  })
  t.equal(refused, '403', 'the CDP passthrough refuses the ops token before upgrading')
  ws.terminate()

  const wrong = await fetch(`${host.url}/health`, { headers: { authorization: 'Bearer not-a-token-at-all-123' } })
  t.equal(wrong.status, 401, 'a wrong token is still unauthorized')
  const api = await host.api('/v1/profiles')
  t.equal(api.status, 200, 'the API token still works')
  t.notOk(host.logs.text().includes(OPS), 'the ops token never reaches the log')
  t.notOk(host.logs.text().includes(TEST_TOKEN), 'nor the API token')
})

t.test('the ops token must differ from the API token; a webhook needs its secret', async (t) => {
  for (const env of [{ AFHTTP_TOKEN: OPS, AFHTTP_OPS_TOKEN: OPS }, { AFHTTP_OPS_TOKEN: 'short' }]) {
    const err = t.throws(() => loadConfig({ PATH: process.env.PATH, ...env })) as unknown as ConfigError
    t.type(err, ConfigError)
    t.equal(err.variable, 'AFHTTP_OPS_TOKEN')
  }
  const noSecret = t.throws(() => loadConfig({ PATH: process.env.PATH, AFHTTP_WEBHOOK_URL: 'http://127.0.0.1:9/hook' })) as unknown as ConfigError
  t.equal(noSecret.variable, 'AFHTTP_WEBHOOK_SECRET', 'a webhook is never sent unsigned')
  t.equal(loadConfig({ PATH: process.env.PATH, AFHTTP_OPS_TOKEN: OPS }).opsToken, OPS)
})
