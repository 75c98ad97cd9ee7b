import { stat } from 'node:fs/promises'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { AfhttpError } from '../errors.js'
import type { TabRecord } from '../plugins/tabs.js'
import type { Lease } from '../panel/lease.js'
import { noStore } from '../panel/http.js'
import { UPLOAD_FILE_BYTES_MAX } from '../limits.js'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { answers, ChooserAnswer, ChooserBody, PanelFileQuery, StoredFile } from '../schemas/index.js'
import { PageWatch } from '../page-ui/page-watch.js'

const MB = (n: number): string => (n / 1024 / 1024).toFixed(n % (1024 * 1024) ? 1 : 0)

/**
 * A file chooser's files from the person driving (docs/spec.md section 16): one raw file per request,
 * then the choice, both under the lease and only for the viewer in control.
 */
/** Any panel API request: its query names the tab (PanelTabQuery). */
export type PanelRequest = FastifyRequest & { query: { tab?: string } }

export async function panelFileRoutes (app: FastifyInstance, leased: (req: PanelRequest) => { tab: TabRecord, lease: Lease }, sameOriginOnly: (req: FastifyRequest) => Promise<void>): Promise<void> {
  app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer', bodyLimit: UPLOAD_FILE_BYTES_MAX }, (_req, body, done) => { done(null, body) })
  const driving = (req: PanelRequest): { tab: TabRecord, lease: Lease, watch: PageWatch } => {
    const { tab, lease } = leased(req)
    if (!app.panel.find(tab.id)?.holderUnder(lease)) throw new AfhttpError('panel_control_held', 'Only the person in control can hand files to the page; take control first.')
    // The chooser of the window on show: the handed-off tab or a popup it opened.
    const watch = PageWatch.of(app.panel.find(tab.id)?.shownPage ?? tab.page, () => app.clock.now())
    if (!watch.chooser) throw new AfhttpError('invalid_request', 'The page has no file chooser open any more.', { field: 'files' })
    return { tab, lease, watch }
  }

  const r = app.withTypeProvider<TypeBoxTypeProvider>()
  r.post('/panel/api/files', {
    bodyLimit: UPLOAD_FILE_BYTES_MAX,
    schema: { summary: 'One file for the page\'s open file chooser, from the person driving (lease cookie, same origin)', querystring: PanelFileQuery, response: answers({ 200: StoredFile }) },
    // Origin, lease, control and the declared size are checked before a byte of the body is read.
    onRequest: [sameOriginOnly, async (req) => {
      driving(req)
      const declared = Number(req.headers['content-length'] ?? 0)
      if (declared > UPLOAD_FILE_BYTES_MAX) {
        throw new AfhttpError('payload_too_large', `The file is ${MB(declared)} MB; the limit is ${MB(UPLOAD_FILE_BYTES_MAX)} MB per file. Nothing was stored.`, { limit: UPLOAD_FILE_BYTES_MAX, size: declared })
      }
    }]
  }, async (req, reply) => {
    noStore(reply)
    const { tab, lease } = driving(req)
    const body = req.body as Buffer | undefined
    if (!Buffer.isBuffer(body)) throw new AfhttpError('invalid_request', 'Send the file as application/octet-stream.', { field: 'content-type' })
    return app.panel.uploads.add(tab.id, lease.fence, String(req.query.name ?? 'file'), body)
  })

  r.post('/panel/api/chooser', {
    preValidation: sameOriginOnly,
    schema: { summary: 'Answer the page\'s file chooser with stored files, none to cancel (lease cookie, same origin)', querystring: PanelFileQuery, body: ChooserBody, response: answers({ 200: ChooserAnswer }) }
  }, async (req, reply) => {
    noStore(reply)
    const { tab, lease, watch } = driving(req)
    if (watch.chooser?.mode === 'selectSingle' && req.body.files.length > 1) throw new AfhttpError('invalid_request', 'files: this input takes one file', { field: 'files' })
    const paths = app.panel.uploads.paths(tab.id, lease.fence, req.body.files)
    await watch.resolveChooser(paths)
    if (paths.length) {
      const bytes = (await Promise.all(paths.map(async (p) => (await stat(p)).size))).reduce((a, b) => a + b, 0)
      app.lifecycle.emit('handoff.file_uploaded', { tab_id: tab.id, profile: tab.profile }, { handoff_fence: lease.fence, count: paths.length, bytes })
    }
    return { ok: true, files: paths.length }
  })
}
