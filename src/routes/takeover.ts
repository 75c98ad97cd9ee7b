import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import rateLimit from '@fastify/rate-limit'
import { AfhttpError } from '../errors.js'
import { failedCheck } from '../browser/live-checks.js'
import { leaseCookieName } from '../panel/lease.js'
import { gonePage, PAGE_CSP, tooManyPage, unavailablePage } from '../panel/pages.js'
import { sendHtml } from '../panel/http.js'
import { publicPathPrefix } from '../config.js'
import { TakeoverParams } from '../schemas/index.js'

/** Opening panel links per client address per minute: a person needs one. */
export const TAKEOVER_RATE_LIMIT = 30
const SECRET_SHAPE = /^[A-Za-z0-9_-]{16,128}$/

/**
 * GET /takeover/:secret (docs/spec.md section 7 "Exchange"): live checks, consume the one-time
 * secret, set the UI lease cookie, and redirect so the secret leaves the address bar.
 * A person is reading the answer, so refusals are HTML pages, not JSON envelopes.
 */
export default async function takeoverRoutes (app: FastifyInstance): Promise<void> {
  await app.register(rateLimit, {
    max: TAKEOVER_RATE_LIMIT,
    timeWindow: 60_000,
    keyGenerator: (req) => req.ip,
    errorResponseBuilder: () => new AfhttpError('rate_limited', 'Too many panel links were opened from this address; wait a minute.')
  })
  app.setErrorHandler((err: Error & { statusCode?: number }, req, reply) => {
    if (err.statusCode === 429) return sendHtml(reply, 429, tooManyPage(), PAGE_CSP)
    req.log.error({ err }, 'panel link exchange failed')
    return sendHtml(reply, 500, gonePage('unknown'), PAGE_CSP)
  })

  app.withTypeProvider<TypeBoxTypeProvider>().get('/takeover/:secret', {
    schema: { summary: 'Exchange a panel secret for a UI lease: a 303 to /panel/ for a person\'s browser (HTML refusals: 410 used/revoked/expired, 503 unavailable)', params: TakeoverParams }
  }, async (req, reply) => {
    const { secret } = req.params
    const problem = SECRET_SHAPE.test(secret) ? app.handoffs.secretProblem(secret) : 'unknown'
    const handoff = problem ? undefined : app.handoffs.peekSecret(secret)
    const tab = handoff && app.tabs.find(handoff.tabId)
    if (!handoff || !tab) {
      req.log.info({ reason: problem ?? 'tab_gone' }, 'panel link refused')
      return sendHtml(reply, 410, gonePage(problem ?? 'finished'), PAGE_CSP)
    }
    const checks = await app.handoffs.liveChecks(tab, { keepStreaming: true })
    const failed = failedCheck(checks)
    if (failed) {
      // The secret is not consumed: the same link works once the host recovers.
      req.log.warn({ tab_id: tab.id, check: failed.name, error: failed.error }, 'panel link not exchanged: live check failed')
      return sendHtml(reply, 503, unavailablePage(failed, checks), PAGE_CSP)
    }
    const mode = app.handoffs.secretMode(secret) ?? 'control'
    try {
      app.handoffs.consumeSecret(secret, { remoteAddress: req.ip, userAgent: req.headers['user-agent'] ?? '' })
    } catch {
      return sendHtml(reply, 410, gonePage(app.handoffs.secretProblem(secret) ?? 'used'), PAGE_CSP)
    }
    const { token } = app.panel.leases.issue(tab.id, handoff.fence, app.clock.now(), handoff.expiresAt, mode)
    reply.setCookie(leaseCookieName(tab.id), token, {
      path: `${publicPathPrefix(app.config)}/panel`,
      httpOnly: true,
      sameSite: 'strict',
      secure: app.config.publicUrl.startsWith('https:')
    })
    req.log.info({ tab_id: tab.id, mode }, 'panel link exchanged for a lease')
    // The panel connects within a few hundred ms: have its page-side session ready by then.
    app.panel.open(tab).catch(() => undefined)
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer')
    return reply.redirect(`${publicPathPrefix(app.config)}/panel/?tab=${encodeURIComponent(tab.id)}`, 303)
  })
}
