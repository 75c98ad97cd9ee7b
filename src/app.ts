import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify'
import cookie from '@fastify/cookie'
import websocket from '@fastify/websocket'
import type { Logger } from 'pino'
import { withBoundPort, type Config } from './config.js'
import { systemClock, type Clock } from './core/clock.js'
import errorEnvelope, { toAfhttpError } from './plugins/error-envelope.js'
import { AfhttpError } from './errors.js'
import auth from './plugins/auth.js'
import profiles from './plugins/profiles.js'
import lifecycle from './plugins/lifecycle.js'
import browsers from './plugins/browsers.js'
import tabs from './plugins/tabs.js'
import handoffs from './plugins/handoffs.js'
import panel from './plugins/panel.js'
import pageUi from './plugins/page-ui.js'
import capabilitiesRoutes from './routes/capabilities.js'
import healthRoutes from './routes/health.js'
import profileRoutes from './routes/profiles.js'
import tabRoutes from './routes/tabs.js'
import cdpRoutes from './routes/cdp.js'
import fetchRoutes from './routes/fetch.js'
import handoffRoutes from './routes/handoffs.js'
import snapshotRoutes from './routes/snapshot.js'
import takeoverRoutes from './routes/takeover.js'
import panelApiRoutes from './routes/panel-api.js'
import panelWsRoutes from './routes/panel-ws.js'
import metrics from './plugins/metrics.js'
import cookieRecords from './plugins/cookie-records.js'
import { routeLimitedWebSocket } from './plugins/ws-limits.js'
import { BODY_BYTES_MAX, WS_MESSAGE_BYTES_MAX } from './limits.js'
import idempotency from './plugins/idempotency.js'
import events from './events/plugin.js'
import eventsRoutes from './routes/events.js'
import openapi from './plugins/openapi.js'
import mcpRoutes from './routes/mcp.js'
import inbox from './plugins/inbox.js'
import inboxRoutes from './routes/inbox.js'
import audit from './plugins/audit.js'
import auditRoutes from './routes/audit.js'
import recognition from './plugins/recognition.js'

export interface AppOptions {
  /** The resolved API token (configured or generated); never logged. */
  token: string
  logger: Logger
  /** Time source for idle and hold expiry; tests pass a ManualClock. */
  clock?: Clock
  /** Start the default profile's browser in the background when ready (default true). */
  startBrowser?: boolean
  /** Waits between webhook attempts (tests shorten them; default WEBHOOK_BACKOFF_MS). */
  webhookBackoffMs?: readonly number[]
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config
  }
}

/** Builds the host without listening: server.ts listens, tests inject or listen on port 0. */
export async function buildApp (config: Config, opts: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: opts.logger as FastifyBaseLogger,
    bodyLimit: BODY_BYTES_MAX,
    trustProxy: false,
    // The default profile's browser starts in an onReady hook and a failed start is reported by
    // /health, not fatal; Fastify's 10 s default would make a slow start (a loaded machine: a
    // bare Chromium took 38 s here) fail the whole host instead. Chromium's launch has its own bound.
    pluginTimeout: 120_000,
    // A path with broken percent-encoding fails before routing; it still gets the one envelope.
    frameworkErrors: (err, _req, reply) => {
      const coded = err.code === 'FST_ERR_BAD_URL'
        ? new AfhttpError('invalid_request', 'The request path is not valid percent-encoding.', { field: 'url' })
        : toAfhttpError(err)
      void (reply as FastifyReply).status(coded.statusCode).send(coded.toEnvelope())
    },
    ajv: { customOptions: { removeAdditional: false, allErrors: false, coerceTypes: false } }
  })
  app.decorate('config', config)
  app.decorate('clock', opts.clock ?? systemClock)
  app.addHook('onListen', async () => {
    const address = app.server.address()
    if (address && typeof address === 'object') app.config = withBoundPort(config, address.port)
  })
  await app.register(errorEnvelope)
  await app.register(openapi)
  await app.register(cookie)
  // Open panels hear that the host is shutting down before the WebSocket plugin closes their
  // sockets (docs/spec.md section 7 "Ending reaches every viewer"); the handoffs plugin registers later.
  app.addHook('preClose', async () => { if (app.hasDecorator('handoffs')) await app.handoffs.shutdown() })
  await app.register(websocket, { options: { maxPayload: WS_MESSAGE_BYTES_MAX, WebSocket: routeLimitedWebSocket } })
  await app.register(auth, { token: opts.token, opsToken: config.opsToken })
  await app.register(profiles)
  await app.register(lifecycle)
  await app.register(recognition)
  await app.register(browsers)
  await app.register(tabs)
  await app.register(handoffs)
  await app.register(idempotency)
  await app.register(events, { webhookBackoffMs: opts.webhookBackoffMs })
  await app.register(audit)
  await app.register(panel)
  await app.register(cookieRecords)
  await app.register(pageUi)
  await app.register(inbox, { apiToken: opts.token })
  await app.register(capabilitiesRoutes)
  await app.register(healthRoutes)
  await app.register(profileRoutes)
  await app.register(tabRoutes)
  await app.register(cdpRoutes)
  await app.register(fetchRoutes)
  await app.register(handoffRoutes)
  await app.register(snapshotRoutes)
  await app.register(takeoverRoutes)
  await app.register(panelApiRoutes)
  await app.register(panelWsRoutes)
  await app.register(eventsRoutes)
  await app.register(mcpRoutes, { token: opts.token })
  await app.register(inboxRoutes)
  await app.register(auditRoutes)
  await app.register(metrics)
  if (opts.startBrowser !== false) {
    app.addHook('onReady', async () => {
      // docs/spec.md section 22: listen at once, browser in the background (a slow Chromium must not
      // time out this hook and end the host). /health says not ready until it is up; a fetch
      // meanwhile waits for the same start. A failed start is reported by /health, not fatal.
      void app.browsers.get(config.defaultProfile).catch((err: unknown) => {
        app.log.error({ err, profile: config.defaultProfile }, 'default profile browser did not start')
      })
    })
  }
  return app
}
