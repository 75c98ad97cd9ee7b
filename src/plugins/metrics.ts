import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client'

/** Prometheus text on GET /metrics (authenticated like the API). One registry per app instance. */
async function metricsPlugin (app: FastifyInstance): Promise<void> {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: 'afhttp_process_' })
  const requests = new Counter({
    name: 'afhttp_http_requests_total',
    help: 'HTTP requests answered, by route and status code.',
    labelNames: ['route', 'status'] as const,
    registers: [registry]
  })
  new Gauge({
    name: 'afhttp_tabs_open',
    help: 'Tabs the host tracks (the window anchor excluded).',
    registers: [registry],
    collect () { this.set(app.tabs.list().length) }
  })
  new Gauge({
    name: 'afhttp_backend_connected',
    help: '1 when the default profile browser is connected.',
    registers: [registry],
    collect () { this.set(app.browsers.status(app.config.defaultProfile).connected ? 1 : 0) }
  })
  new Counter({
    name: 'afhttp_webhook_deliveries_total',
    help: 'Webhook events by outcome: delivered, failed (every attempt failed), dropped (queue full), retried (attempts after the first).',
    labelNames: ['result'] as const,
    registers: [registry],
    collect () {
      const stats = app.events.webhookStats()
      if (!stats) return
      this.reset()
      for (const result of ['delivered', 'failed', 'dropped', 'retried'] as const) this.inc({ result }, stats[result])
    }
  })
  app.addHook('onResponse', async (req, reply) => {
    requests.inc({ route: req.routeOptions.url ?? 'unknown', status: String(reply.statusCode) })
  })
  app.get('/metrics', async (_req, reply) => {
    return reply.type(registry.contentType).send(await registry.metrics())
  })
}

export default fp(metricsPlugin, { name: 'afhttp-metrics', dependencies: ['afhttp-tabs'] })
