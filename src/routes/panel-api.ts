import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fastifyStatic from '@fastify/static'
import { AfhttpError } from '../errors.js'
import { failedCheck } from '../browser/live-checks.js'
import { summarize } from '../core/handoff.js'
import type { TabRecord } from '../plugins/tabs.js'
import type { Lease } from '../panel/lease.js'
import { noLeasePage, PAGE_CSP, unavailablePage } from '../panel/pages.js'
import { noStore, sameOrigin, sendHtml } from '../panel/http.js'
import { UPLOAD_FILE_BYTES_MAX, UPLOAD_FILES_MAX } from '../core/page-ui.js'
import { PageWatch } from '../page-ui/page-watch.js'

const ROOT = new URL('../../', import.meta.url)
const PANEL_DIR = fileURLToPath(new URL('panel/', ROOT))
const DIST_DIR = fileURLToPath(new URL('dist/', ROOT))
/** Compiled pure modules the panel shares with the host (one implementation of the maths). */
const SHARED_MODULES = new Set(['/core/coords.js', '/core/coords.js.map', '/panel/frame-codec.js', '/panel/frame-codec.js.map'])

export const PANEL_CSP = [
  "default-src 'self'", "img-src 'self' blob: data:", "connect-src 'self'", "script-src 'self'",
  "style-src 'self'", "frame-ancestors 'self'", "base-uri 'none'", "form-action 'none'"
].join('; ')

interface TabQuery { Querystring: { tab?: string } }
interface FileQuery { Querystring: { tab?: string, name?: string } }
const MB = (n: number): string => (n / 1024 / 1024).toFixed(n % (1024 * 1024) ? 1 : 0)

/** The panel document, its static files, and the small JSON API the open panel calls. */
export default async function panelApiRoutes (app: FastifyInstance): Promise<void> {
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
    root: DIST_DIR,
    prefix: '/panel/lib/',
    index: false,
    decorateReply: false,
    allowedPath: (path) => SHARED_MODULES.has(path)
  })

  const leased = (req: FastifyRequest<TabQuery>): { tab: TabRecord, lease: Lease } => {
    const tab = req.query.tab ? app.tabs.find(req.query.tab) : undefined
    const lease = tab && app.panel.leaseFor(req, tab.id)
    if (!tab || !lease) throw new AfhttpError('panel_lease_invalid')
    return { tab, lease }
  }
  const sameOriginOnly = async (req: FastifyRequest): Promise<void> => {
    if (!sameOrigin(req, app.config.publicUrl)) throw new AfhttpError('panel_origin_refused')
  }
  const summaryOf = (tab: TabRecord): ReturnType<typeof summarize> => app.handoffs.summary(tab.id)

  await panelFileRoutes(app, leased, sameOriginOnly)

  app.get<TabQuery>('/panel', async (req, reply) => reply.redirect(`/panel/${req.query.tab ? `?tab=${encodeURIComponent(req.query.tab)}` : ''}`, 302))

  app.get<TabQuery>('/panel/', async (req, reply: FastifyReply) => {
    const tab = req.query.tab ? app.tabs.find(req.query.tab) : undefined
    if (!tab || !app.panel.leaseFor(req, tab.id)) return sendHtml(reply, 401, noLeasePage(), PAGE_CSP)
    const checks = await app.handoffs.liveChecks(tab, { keepStreaming: true })
    const failed = failedCheck(checks)
    if (failed) return sendHtml(reply, 503, unavailablePage(failed, checks), PAGE_CSP)
    return sendHtml(reply, 200, indexHtml, PANEL_CSP)
  })

  app.post<TabQuery>('/panel/api/lease', { preValidation: sameOriginOnly }, async (req, reply) => {
    noStore(reply)
    const { tab, lease } = leased(req)
    const checks = await app.handoffs.liveChecks(tab)
    const failed = failedCheck(checks)
    if (failed) throw new AfhttpError('takeover_unavailable', `Live check ${failed.name} failed: ${failed.error}`, { check: failed.name, checks })
    const h = app.handoffs.current(tab.id)
    if (!h || h.fence !== lease.fence) throw new AfhttpError('panel_lease_invalid')
    app.panel.leases.renew(lease, app.clock.now(), h.expiresAt)
    return { lease_expires_at: new Date(lease.expiresAt).toISOString(), handoff: summaryOf(tab) }
  })

  app.get<TabQuery>('/panel/api/status', async (req, reply) => {
    noStore(reply)
    const { tab, lease } = leased(req)
    const panel = app.panel.find(tab.id)
    return {
      now: new Date(app.clock.now()).toISOString(),
      lease_expires_at: new Date(lease.expiresAt).toISOString(),
      handoff: summaryOf(tab),
      viewers: panel?.viewers.size ?? 0,
      backend_connected: tab.page.browser().connected
    }
  })

  // Done without the WebSocket (not open yet, or dropped): allowed to the person driving and,
  // as over the socket, to anyone while nobody else drives.
  app.post<TabQuery>('/panel/api/done', { preValidation: sameOriginOnly }, async (req, reply) => {
    noStore(reply)
    const { tab, lease } = leased(req)
    return app.handoffs.finishByViewer(tab.id, app.panel.find(tab.id)?.holderUnder(lease) ?? 'http')
  })
}

/**
 * A file chooser's files from the person driving (SPEC section 16): one raw file per request,
 * then the choice, both under the lease and only for the viewer in control.
 */
export async function panelFileRoutes (app: FastifyInstance, leased: (req: FastifyRequest<TabQuery>) => { tab: TabRecord, lease: Lease }, sameOriginOnly: (req: FastifyRequest) => Promise<void>): Promise<void> {
  app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer', bodyLimit: UPLOAD_FILE_BYTES_MAX }, (_req, body, done) => { done(null, body) })
  const driving = (req: FastifyRequest<TabQuery>): { tab: TabRecord, lease: Lease, watch: PageWatch } => {
    const { tab, lease } = leased(req)
    if (!app.panel.find(tab.id)?.holderUnder(lease)) throw new AfhttpError('panel_control_held', 'Only the person in control can hand files to the page; take control first.')
    const watch = PageWatch.of(tab.page, () => app.clock.now())
    if (!watch.chooser) throw new AfhttpError('invalid_request', 'The page has no file chooser open any more.', { field: 'files' })
    return { tab, lease, watch }
  }

  app.post<FileQuery>('/panel/api/files', {
    preValidation: sameOriginOnly,
    bodyLimit: UPLOAD_FILE_BYTES_MAX,
    // Refuse by the declared size before reading a byte of an oversized file.
    onRequest: async (req) => {
      const declared = Number(req.headers['content-length'] ?? 0)
      if (declared > UPLOAD_FILE_BYTES_MAX) {
        throw new AfhttpError('payload_too_large', `The file is ${MB(declared)} MB; the limit is ${MB(UPLOAD_FILE_BYTES_MAX)} MB per file. Nothing was stored.`, { limit: UPLOAD_FILE_BYTES_MAX, size: declared })
      }
    }
  }, async (req, reply) => {
    noStore(reply)
    const { tab, lease } = driving(req)
    const body = req.body as Buffer | undefined
    if (!Buffer.isBuffer(body)) throw new AfhttpError('invalid_request', 'Send the file as application/octet-stream.', { field: 'content-type' })
    return app.panel.uploads.add(tab.id, lease.fence, String(req.query.name ?? 'file'), body)
  })

  app.post<TabQuery & { Body: { files: string[] } }>('/panel/api/chooser', {
    preValidation: sameOriginOnly,
    schema: { body: { type: 'object', additionalProperties: false, required: ['files'], properties: { files: { type: 'array', maxItems: UPLOAD_FILES_MAX, items: { type: 'string', maxLength: 64 } } } } }
  }, async (req, reply) => {
    noStore(reply)
    const { tab, lease, watch } = driving(req)
    if (watch.chooser?.mode === 'selectSingle' && req.body.files.length > 1) throw new AfhttpError('invalid_request', 'files: this input takes one file', { field: 'files' })
    const paths = app.panel.uploads.paths(tab.id, lease.fence, req.body.files)
    await watch.resolveChooser(paths)
    return { ok: true, files: paths.length }
  })
}
