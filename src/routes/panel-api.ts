import { publicPathPrefix } from '../config.js'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fastifyStatic from '@fastify/static'
import { AfhttpError } from '../errors.js'
import { failedCheck } from '../browser/live-checks.js'
import type { TabRecord } from '../plugins/tabs.js'
import type { Lease } from '../panel/lease.js'
import { noLeasePage, PAGE_CSP, unavailablePage } from '../panel/pages.js'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { answers, DeclineBody, HandoffSummary, LeaseRenewal, PanelStatus, PanelTabQuery } from '../schemas/index.js'
import { noStore, sameOrigin, sendHtml } from '../panel/http.js'
import { panelFileRoutes, type PanelRequest } from './panel-files.js'
import { panelFiles } from '../panel/page-modules.js'

const ROOT = new URL('../../', import.meta.url)
const PANEL_DIR = fileURLToPath(new URL('panel/', ROOT))
/** The built panel page (scripts/build-panel.mjs): one bundle and its source map. */
const WWW_DIR = fileURLToPath(new URL('dist/www/', ROOT))
/** Where the document (at /panel/) finds them: relative, so a path prefix in front of the host is kept. */
const LIB = 'lib/'

export const PANEL_CSP = [
  "default-src 'self'", "img-src 'self' blob: data:", "connect-src 'self'", "script-src 'self'",
  "style-src 'self'", "frame-ancestors 'self'", "base-uri 'none'", "form-action 'none'"
].join('; ')

export interface TabQuery { Querystring: { tab?: string } }


/** The panel document, its static files, and the small JSON API the open panel calls. */
export default async function panelApiRoutes (app: FastifyInstance): Promise<void> {
  // The bundle the page loads is checked once, at start; only it and its map are served.
  const files = await panelFiles(WWW_DIR).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err
    app.log.error({ dir: WWW_DIR }, 'the panel page is not built (npm run build): panels cannot load their script')
    return []
  })
  const served = new Set(files)
  const indexHtml = await readFile(new URL('index.html', `file://${PANEL_DIR}`), 'utf8')
  await app.register(fastifyStatic, {
    root: PANEL_DIR,
    prefix: '/panel/',
    index: false,
    decorateReply: false,
    // The document itself goes through the lease check below.
    allowedPath: (path) => path !== '/index.html' && path !== '/'
  })
  await app.register(fastifyStatic, {
    root: WWW_DIR,
    prefix: `/panel/${LIB}`,
    index: false,
    decorateReply: false,
    allowedPath: (path) => served.has(path)
  })

  const leased = (req: PanelRequest): { tab: TabRecord, lease: Lease } => {
    const tab = req.query.tab ? app.tabs.find(req.query.tab) : undefined
    const lease = tab && app.panel.leaseFor(req, tab.id)
    if (!tab || !lease) throw new AfhttpError('panel_lease_invalid')
    return { tab, lease }
  }
  const sameOriginOnly = async (req: FastifyRequest): Promise<void> => {
    if (!sameOrigin(req, app.config.publicUrl)) throw new AfhttpError('panel_origin_refused')
  }

  await panelFileRoutes(app, leased, sameOriginOnly)

  app.get<TabQuery>('/panel', async (req, reply) => reply.redirect(`${publicPathPrefix(app.config)}/panel/${req.query.tab ? `?tab=${encodeURIComponent(req.query.tab)}` : ''}`, 302))

  app.get<TabQuery>('/panel/', async (req, reply: FastifyReply) => {
    const tab = req.query.tab ? app.tabs.find(req.query.tab) : undefined
    if (!tab || !app.panel.leaseFor(req, tab.id)) return sendHtml(reply, 401, noLeasePage(), PAGE_CSP)
    const checks = await app.handoffs.liveChecks(tab, { keepStreaming: true })
    const failed = failedCheck(checks)
    if (failed) return sendHtml(reply, 503, unavailablePage(failed, checks), PAGE_CSP)
    return sendHtml(reply, 200, indexHtml, PANEL_CSP)
  })

  const r = app.withTypeProvider<TypeBoxTypeProvider>()
  r.post('/panel/api/lease', {
    preValidation: sameOriginOnly,
    schema: { summary: 'The panel page renews its UI lease (lease cookie, same origin; live checks first)', querystring: PanelTabQuery, response: answers({ 200: LeaseRenewal }) }
  }, async (req, reply) => {
    noStore(reply)
    const { tab, lease } = leased(req)
    const checks = await app.handoffs.liveChecks(tab)
    const failed = failedCheck(checks)
    if (failed) throw new AfhttpError('takeover_unavailable', `Live check ${failed.name} failed: ${failed.error}`, { check: failed.name, checks })
    const h = app.handoffs.current(tab.id)
    if (!h || h.fence !== lease.fence) throw new AfhttpError('panel_lease_invalid')
    app.panel.leases.renew(lease, app.clock.now(), h.expiresAt)
    return { lease_expires_at: new Date(lease.expiresAt).toISOString(), handoff: await app.handoffs.settledSummary(tab.id) }
  })

  r.get('/panel/api/status', {
    schema: { summary: 'The panel page\'s status poll (lease cookie): the handoff, the lease and the browser link', querystring: PanelTabQuery, response: answers({ 200: PanelStatus }) }
  }, async (req, reply) => {
    noStore(reply)
    const { tab, lease } = leased(req)
    const handoff = await app.handoffs.settledSummary(tab.id)
    const panel = app.panel.find(tab.id)
    return {
      now: new Date(app.clock.now()).toISOString(),
      lease_expires_at: new Date(lease.expiresAt).toISOString(),
      handoff,
      viewers: panel?.viewers.size ?? 0,
      mode: lease.mode,
      backend_connected: tab.page.browser().connected
    }
  })

  // Done without the WebSocket (not open yet, or dropped): allowed to the person driving and,
  // as over the socket, to anyone while nobody else drives.
  r.post('/panel/api/done', {
    preValidation: sameOriginOnly,
    schema: { summary: 'Done from the panel page without its socket (lease cookie, same origin)', querystring: PanelTabQuery, response: answers({ 200: HandoffSummary }) }
  }, async (req, reply) => {
    noStore(reply)
    const { tab, lease } = leased(req)
    if (lease.mode === 'view') throw new AfhttpError('panel_view_only')
    app.handoffs.finishByViewer(tab.id, app.panel.find(tab.id)?.holderUnder(lease) ?? 'http')
    return await app.handoffs.settledSummary(tab.id)
  })

  // "I can't do this" without the WebSocket: the same rules as Done.
  r.post('/panel/api/decline', {
    preValidation: sameOriginOnly,
    schema: { summary: '"I can\'t do this" from the panel page without its socket (lease cookie, same origin)', querystring: PanelTabQuery, body: DeclineBody, response: answers({ 200: HandoffSummary }) }
  }, async (req, reply) => {
    noStore(reply)
    const { tab, lease } = leased(req)
    if (lease.mode === 'view') throw new AfhttpError('panel_view_only')
    app.handoffs.declineByViewer(tab.id, app.panel.find(tab.id)?.holderUnder(lease) ?? 'http', req.body?.reason?.trim())
    return await app.handoffs.settledSummary(tab.id)
  })
}

