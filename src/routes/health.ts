import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Page } from 'puppeteer-core'
import { COMMIT, VERSION } from '../version.js'
import { failedCheck, runLiveChecks, type LiveCheck } from '../browser/live-checks.js'
import { findAnchorPage } from '../browser/window-anchor.js'
import { ErrorEnvelope, Health } from '../schemas/index.js'

// Checks get 1.2 s so the whole answer, timers late on a loaded machine and the profile metadata
// read after them included, stays within 2 s (a clean-clone run measured 2177 ms with 1.5 s).
const HEALTH_BUDGET_MS = 1_200

async function anchorPage (app: FastifyInstance, profile: string): Promise<Page | undefined> {
  const browser = app.browsers.peek(profile)
  if (!browser) return undefined
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<undefined>((resolve) => { timer = setTimeout(() => resolve(undefined), 300) })
  try {
    return await Promise.race([findAnchorPage(browser).catch(() => undefined), late])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * A bounded live observation of the default profile (docs/spec.md sections 5 and 9). It only looks:
 * it never starts or restarts a browser, switches profile or touches cookies.
 */
export default async function healthRoutes (app: FastifyInstance): Promise<void> {
  // 503 carries the same body as 200; every other failure is the error envelope.
  const response = { 200: Health, 503: Health, '4xx': ErrorEnvelope, '5xx': ErrorEnvelope }
  app.withTypeProvider<TypeBoxTypeProvider>().get('/health', { schema: { summary: 'Bounded live observation of the default profile (docs/spec.md sections 5 and 9)', response } }, async (_req, reply) => {
    const name = app.config.defaultProfile
    const started = performance.now()
    const status = app.browsers.status(name)
    const browser = app.browsers.peek(name)
    const page = await anchorPage(app, name)
    const checks: LiveCheck[] = await runLiveChecks({ browser, page }, HEALTH_BUDGET_MS - (performance.now() - started))
    app.metrics.liveChecks(checks)
    if (browser && !page && checks.every((c) => c.ok)) {
      checks.push({ name: 'page_answers', ok: false, ms: 0, error: 'the window anchor tab is missing' })
    }
    const failed = failedCheck(checks)
    const backendConnected = status.connected
    const ready = failed === undefined
    let profileBackend: string | undefined = status.backend
    let metadataError: string | undefined
    try {
      profileBackend = (await app.profiles.get(name)).backend
    } catch (err) {
      metadataError = (err as Error).message
    }
    // Why it is not ready: the backend's own error first, then the first failed check.
    // A browser being started (docs/spec.md section 22: the host listens first) says so, not a stale error.
    const backendError = ready ? undefined : (status.starting === true ? undefined : status.error) ?? metadataError ?? (backendConnected ? `${failed?.name}: ${failed?.error}` : status.starting === true ? 'browser starting' : 'browser not running')
    const body: Health = {
      status: {
        running: true,
        host_build: `${VERSION}+${COMMIT}`,
        backend_connected: backendConnected,
        takeover_configured: true,
        takeover_health: ready ? 'ok' : backendConnected ? 'degraded' : 'unavailable',
        takeover_ready: ready
      },
      build: { version: VERSION, commit: COMMIT, node: process.version, chromium: app.browsers.chromiumVersion(name) ?? null, browser_mode: app.browsers.mode },
      takeover: { checks },
      profile: { name, backend: profileBackend ?? null },
      ...(backendError ? { backend_error: backendError } : {}),
      ...(app.config.browser.fallback ? { warnings: [{ code: 'browser_headless_fallback', message: app.config.browser.fallback }] } : {}),
      reaper: app.tabs.lastReap() ?? null,
      elapsed_ms: Math.round(performance.now() - started)
    }
    // 503 when takeover is not ready, so a container HEALTHCHECK and load balancers see it too.
    return reply.status(ready ? 200 : 503).send(body)
  })
}
