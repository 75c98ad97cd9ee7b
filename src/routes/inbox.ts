import { readFile } from 'node:fs/promises'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import rateLimit from '@fastify/rate-limit'
import { AfhttpError } from '../errors.js'
import { publicPathPrefix } from '../config.js'
import { isHeld } from '../core/handoff.js'
import { tokenMatches } from '../store/token.js'
import { noStore, sameOrigin, sendHtml } from '../panel/http.js'
import { issueOperatorSession, OPERATOR_COOKIE, operatorSessionValid } from '../inbox/operator-session.js'
import { inUse } from '../inbox/listing.js'
import { badTokenPage, INBOX_PAGE_CSP, needLoginPage, notConfiguredPage, tooManyLoginsPage } from '../inbox/pages.js'
import { INBOX_LOGIN_RATE_LIMIT, INBOX_STREAMS_MAX, OPERATOR_SESSION_MS } from '../limits.js'
import {
  answers, InboxList, InboxLoginQuery, InboxPushKey, InboxTake, InboxTakeBody, PushSubscribed,
  PushSubscriptionBody, PushUnsubscribeBody, PushUnsubscribed, TabParams
} from '../schemas/index.js'

/** The inbox page's own files (repository `inbox/`): a document, a script, a style sheet, a service worker. */
const INBOX_DIR = new URL('../../inbox/', import.meta.url)
const FILES = {
  'inbox.js': 'text/javascript; charset=utf-8',
  'inbox.css': 'text/css; charset=utf-8',
  'sw.js': 'text/javascript; charset=utf-8'
} as const

export const INBOX_CSP = [
  "default-src 'self'", "connect-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
  "worker-src 'self'", "frame-ancestors 'none'", "base-uri 'none'", "form-action 'none'"
].join('; ')
export const INBOX_HEARTBEAT_MS = 15_000

/**
 * The operator inbox (docs/spec.md section 20): a login that trades AFHTTP_OPERATOR_TOKEN for a cookie
 * scoped to /inbox, the page, its live stream and its small API. Nothing about a handoff is
 * answered without the cookie; the cookie opens nothing outside /inbox.
 */
export default async function inboxRoutes (app: FastifyInstance): Promise<void> {
  const prefix = (): string => publicPathPrefix(app.config)
  const operatorToken = app.config.operatorToken
  const signedIn = (req: FastifyRequest): boolean => operatorToken !== undefined && operatorSessionValid(operatorToken, req.cookies[OPERATOR_COOKIE], app.clock.now())
  const operatorOnly = async (req: FastifyRequest): Promise<void> => {
    if (operatorToken === undefined) throw new AfhttpError('inbox_not_configured')
    if (!signedIn(req)) throw new AfhttpError('operator_unauthorized')
  }
  const sameOriginOnly = async (req: FastifyRequest): Promise<void> => {
    if (!sameOrigin(req, app.config.publicUrl)) throw new AfhttpError('inbox_origin_refused')
  }
  const files = new Map<string, string>()
  for (const name of [...Object.keys(FILES), 'index.html']) files.set(name, await readFile(new URL(name, INBOX_DIR), 'utf8'))

  // Pages a person reads: login and the document answer in HTML, refusals included.
  await app.register(async (pages) => {
    await pages.register(rateLimit, {
      max: INBOX_LOGIN_RATE_LIMIT,
      timeWindow: 60_000,
      keyGenerator: (req) => req.ip,
      errorResponseBuilder: () => new AfhttpError('rate_limited', 'Too many inbox logins from this address; wait a minute.')
    })
    pages.setErrorHandler((err: Error & { statusCode?: number }, req, reply) => {
      if (err.statusCode === 429) return sendHtml(reply, 429, tooManyLoginsPage(), INBOX_PAGE_CSP)
      req.log.error({ err }, 'inbox login failed')
      return sendHtml(reply, 500, badTokenPage(false), INBOX_PAGE_CSP)
    })
    pages.withTypeProvider<TypeBoxTypeProvider>().get('/inbox/login', {
      schema: { summary: 'Exchange the operator token for the inbox cookie: a 303 to /inbox/ (HTML refusals: 400 no token, 401 wrong token, 429 too many tries)', querystring: InboxLoginQuery }
    }, async (req, reply) => {
      if (operatorToken === undefined) return sendHtml(reply, 404, notConfiguredPage(), INBOX_PAGE_CSP)
      const token = req.query.token
      if (!token || !tokenMatches(token, operatorToken)) {
        req.log.info({ missing: !token }, 'inbox login refused')
        return sendHtml(reply, token ? 401 : 400, badTokenPage(!token), INBOX_PAGE_CSP)
      }
      const session = issueOperatorSession(operatorToken, app.clock.now(), OPERATOR_SESSION_MS)
      reply.setCookie(OPERATOR_COOKIE, session.value, {
        path: `${prefix()}/inbox`,
        httpOnly: true,
        // Lax, not Strict: the inbox is opened from a notification or a chat app, and those
        // navigations must arrive signed in. Every call that changes anything is a same-origin POST.
        sameSite: 'lax',
        secure: app.config.publicUrl.startsWith('https:'),
        maxAge: Math.floor(OPERATOR_SESSION_MS / 1000)
      })
      req.log.info('operator signed in to the inbox')
      noStore(reply)
      // The token leaves the address bar (and the history entry) at once.
      return reply.redirect(`${prefix()}/inbox/`, 303)
    })
  })

  app.get('/inbox', { schema: { hide: true } }, async (_req, reply) => reply.redirect(`${prefix()}/inbox/`, 302))
  app.get('/inbox/', { schema: { summary: 'The operator inbox page (inbox cookie; without it, a page that asks for the login link)' } }, async (req, reply: FastifyReply) => {
    if (operatorToken === undefined) return sendHtml(reply, 404, notConfiguredPage(), INBOX_PAGE_CSP)
    if (!signedIn(req)) return sendHtml(reply, 401, needLoginPage(), INBOX_PAGE_CSP)
    return sendHtml(reply, 200, files.get('index.html') as string, INBOX_CSP)
  })
  for (const [name, type] of Object.entries(FILES)) {
    // Public like any static file: they hold no handoff and no secret.
    app.get(`/inbox/${name}`, { schema: { hide: true } }, async (_req, reply) => {
      noStore(reply, INBOX_CSP).type(type)
      // The service worker controls /inbox/ (its own directory) and nothing else.
      if (name === 'sw.js') reply.header('service-worker-allowed', `${prefix()}/inbox/`)
      return files.get(name)
    })
  }

  const r = app.withTypeProvider<TypeBoxTypeProvider>()
  r.get('/inbox/api/handoffs', {
    onRequest: operatorOnly,
    schema: { summary: 'Open handoffs for the operator inbox, and the ones that just ended (inbox cookie)', response: answers({ 200: InboxList }) }
  }, async (_req, reply) => {
    noStore(reply)
    return app.inbox.list()
  })

  const streams = new Set<() => void>()
  app.addHook('preClose', async () => { for (const end of [...streams]) end() })
  r.get('/inbox/api/stream', {
    onRequest: operatorOnly,
    schema: { summary: 'The inbox list as server-sent events (text/event-stream): an `inbox` event with the whole list now and after every change (inbox cookie)' }
  }, async (req, reply) => {
    if (streams.size >= INBOX_STREAMS_MAX) throw new AfhttpError('rate_limited', `At most ${INBOX_STREAMS_MAX} inbox streams may be open at once.`, { limit: INBOX_STREAMS_MAX })
    reply.hijack()
    const res = reply.raw
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no'
    })
    let ended = false
    let chain: Promise<void> = Promise.resolve()
    const write = (text: string): void => { if (!ended) res.write(text) }
    // In order, one list after another: a slow title read never lets an older list overwrite a newer one.
    const send = (): void => {
      chain = chain.then(async () => {
        if (ended) return
        const list = await app.inbox.list()
        write(`event: inbox\ndata: ${JSON.stringify(list)}\n\n`)
      }).catch((err: unknown) => { req.log.warn({ err }, 'inbox stream update failed') })
    }
    const unsubscribe = app.inbox.onChange(send)
    const heartbeat = setInterval(() => write(': heartbeat\n\n'), INBOX_HEARTBEAT_MS)
    heartbeat.unref()
    const end = (): void => {
      if (ended) return
      ended = true
      streams.delete(end)
      unsubscribe()
      clearInterval(heartbeat)
      res.end()
    }
    streams.add(end)
    res.on('close', end)
    write('retry: 2000\n: afhttp inbox\n\n')
    send()
  })

  r.post('/inbox/api/handoffs/:tab_id/take', {
    onRequest: operatorOnly,
    preValidation: sameOriginOnly,
    schema: { summary: 'Take an open handoff: a fresh control link (or, with mode view, a view link) behind the live checks (inbox cookie, same origin)', params: TabParams, body: InboxTakeBody, response: answers({ 200: InboxTake }) }
  }, async (req, reply) => {
    noStore(reply)
    const tabId = req.params.tab_id
    const h = app.handoffs.current(tabId)
    if (!app.tabs.find(tabId) || !h) throw new AfhttpError('handoff_not_found', 'This tab has no handoff any more.', { tab_id: tabId })
    if (!isHeld(h, app.clock.now())) throw new AfhttpError('handoff_expired', 'This handoff is no longer open.', { tab_id: tabId })
    const mode = req.body?.mode ?? 'control'
    if (mode === 'control' && inUse({ controller: h.control.controller })) {
      throw new AfhttpError('handoff_in_use', 'Someone is working this handoff right now; you can watch with a view link.', { tab_id: tabId, controller: h.control.controller, viewers: app.panel.find(tabId)?.viewers.size ?? 0 })
    }
    // The handoff service's own reissue: live checks, the same fence and expiry, a fresh one-time link.
    const minted = await app.handoffs.mint(tabId, { mode, reissueOf: h.fence })
    if (!minted.takeover_url_secret) throw new AfhttpError('takeover_unavailable', 'No panel link could be made for this handoff.', { tab_id: tabId })
    req.log.info({ tab_id: tabId, mode }, 'operator took a handoff from the inbox')
    return { takeover_url_secret: minted.takeover_url_secret, mode, expires_at: minted.expires_at }
  })

  const pushReady = (): NonNullable<typeof app.inbox.subscriptions> => {
    if (!app.inbox.subscriptions || !app.inbox.vapid) throw new AfhttpError('takeover_unavailable', 'Web Push is off on this host: its key pair could not be read or written (see the host log).', { check: 'web_push' })
    return app.inbox.subscriptions
  }
  r.get('/inbox/api/push-key', {
    onRequest: operatorOnly,
    schema: { summary: 'The VAPID public key browsers subscribe with (inbox cookie)', response: answers({ 200: InboxPushKey }) }
  }, async (_req, reply) => {
    noStore(reply)
    pushReady()
    return { public_key: app.inbox.vapid!.publicKey }
  })
  r.post('/inbox/api/push-subscriptions', {
    onRequest: operatorOnly,
    preValidation: sameOriginOnly,
    schema: { summary: 'Subscribe this browser to a notification per new handoff: its PushSubscription JSON (inbox cookie, same origin)', body: PushSubscriptionBody, response: answers({ 200: PushSubscribed }) }
  }, async (req, reply) => {
    noStore(reply)
    await pushReady().add(req.body, new Date(app.clock.now()))
    req.log.info({ push_service: new URL(req.body.endpoint).origin }, 'a browser subscribed to inbox notifications')
    return { subscribed: true }
  })
  r.delete('/inbox/api/push-subscriptions', {
    onRequest: operatorOnly,
    preValidation: sameOriginOnly,
    schema: { summary: 'Unsubscribe a browser from inbox notifications (inbox cookie, same origin)', body: PushUnsubscribeBody, response: answers({ 200: PushUnsubscribed }) }
  }, async (req, reply) => {
    noStore(reply)
    return { removed: await pushReady().remove(req.body.endpoint) }
  })
}
