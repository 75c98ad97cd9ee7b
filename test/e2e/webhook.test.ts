import t from 'tap'
import { createServer } from 'node:net'
import { startHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { startWebhookReceiver } from '../helpers/webhook-receiver.js'
import { until } from '../helpers/until.js'

// docs/spec.md section 15: the webhook is retried with backoff a bounded number of times and never
// delays the host's own work; failures are counted in /metrics.
const SECRET = 'webhook-secret-abcdef0123'
const BACKOFF = [20, 40, 80, 160]

async function closedPort (): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

t.test('a receiver that answers 500 gets the same signed event again', async (t) => {
  const receiver = await startWebhookReceiver(t, SECRET, (n) => (n < 2 ? 500 : 204))
  const host = await startHost(t, { env: { AFHTTP_WEBHOOK_URL: receiver.url, AFHTTP_WEBHOOK_SECRET: SECRET }, webhookBackoffMs: BACKOFF })
  await until(() => receiver.received.length >= 3, 'three attempts')
  const [a, b, c] = receiver.received
  t.equal(a.event.id, b.event.id, 'the failed event is retried')
  t.equal(b.event.id, c.event.id)
  t.equal(a.body, c.body, 'byte for byte')
  t.ok(receiver.received.every((r) => r.valid), 'each attempt is signed')
  await until(() => (host.app.events.webhookStats()?.delivered ?? 0) >= 1, 'delivery')
  t.match(host.app.events.webhookStats(), { retried: 2, failed: 0 })
  const metrics = await (await host.api('/metrics')).text()
  t.match(metrics, /afhttp_webhook_deliveries_total\{result="retried"\} 2/)
})

t.test('a receiver that hangs or is down changes nothing for fetches', async (t) => {
  const hanging = await startWebhookReceiver(t, SECRET, () => 'hang')
  const host = await startHost(t, { env: { AFHTTP_WEBHOOK_URL: hanging.url, AFHTTP_WEBHOOK_SECRET: SECRET }, webhookBackoffMs: BACKOFF })
  const site = await startFixtureServer(t, { '/p': { body: '<title>P</title><p>Content that loads</p>' } })
  await until(() => hanging.received.length >= 1, 'the receiver to be hanging on an event')
  for (let i = 0; i < 3; i++) {
    const res = await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/p` }) })
    t.equal(res.status, 200, `fetch ${i + 1} answers while the receiver hangs`)
    t.equal((await res.json()).ok, true)
  }
  t.equal(host.app.events.webhookStats()?.delivered, 0, 'nothing was delivered meanwhile')
  t.ok((host.app.events.webhookStats()?.queued ?? 0) >= 1, 'the events wait in the bounded queue')
})

t.test('a receiver that is down: bounded attempts, then counted as failed', async (t) => {
  const url = `http://127.0.0.1:${await closedPort()}/hook`
  const host = await startHost(t, { env: { AFHTTP_WEBHOOK_URL: url, AFHTTP_WEBHOOK_SECRET: SECRET }, webhookBackoffMs: BACKOFF })
  await until(() => (host.app.events.webhookStats()?.failed ?? 0) >= 1, 'a failed delivery')
  t.match(host.app.events.webhookStats(), { delivered: 0 })
  const metrics = await (await host.api('/metrics')).text()
  t.match(metrics, /afhttp_webhook_deliveries_total\{result="failed"\} [1-9]/)
  t.ok(host.logs.lines.some((l) => l.msg === 'webhook delivery failed; the event stays in GET /v1/events'), 'the failure is logged')
  t.notOk(host.logs.text().includes(SECRET), 'without the secret')
})
