// Wiring only: the host's metrics (createHostMetrics, src/metrics/host-metrics.ts) read the app's
// services; this plugin decorates the app with them, counts each HTTP answer and serves
// GET /metrics (authenticated like the API).
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { createHostMetrics, type HostMetrics } from '../metrics/host-metrics.js'
import { recognitionThreads } from '../fetch/recognize.js'

export type { HostMetrics } from '../metrics/host-metrics.js'

declare module 'fastify' {
  interface FastifyInstance {
    metrics: HostMetrics
  }
}

async function metricsPlugin (app: FastifyInstance): Promise<void> {
  const metrics = createHostMetrics({
    clock: app.clock,
    defaultProfile: () => app.config.defaultProfile,
    tabs: app.tabs,
    browsers: app.browsers,
    handoffs: app.handoffs,
    lifecycle: app.lifecycle,
    viewers: (tabId) => app.panel.find(tabId)?.viewers.size ?? 0,
    webhookStats: () => app.events.webhookStats(),
    pushStats: () => app.inbox.push?.stats,
    recognitionStats: () => recognitionThreads.stats
  })
  app.decorate('metrics', metrics)
  app.addHook('onResponse', async (req, reply) => {
    metrics.httpAnswered(req.routeOptions.url ?? 'unknown', reply.statusCode)
  })
  app.get('/metrics', async (_req, reply) => {
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics())
  })
}

export default fp(metricsPlugin, { name: 'afhttp-metrics', dependencies: ['afhttp-tabs', 'afhttp-browsers', 'afhttp-handoffs', 'afhttp-panel', 'afhttp-lifecycle', 'afhttp-inbox'] })
