import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { AfhttpError, invalidRequest } from '../errors.js'
import { auditPage } from '../core/audit.js'
import { AUDIT_PAGE_MAX } from '../limits.js'
import { answers, AuditQuery, AuditTrailAnswer, ProfileAuditParams, TabAuditParams } from '../schemas/index.js'

const DEFAULT_LIMIT = 100

/** The audit trail of docs/spec.md section 19: readable after the tab is gone and after a restart. */
export default async function auditRoutes (app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>()
  r.get('/v1/tabs/:tab_id/handoff/audit', {
    schema: { summary: 'The audit trail of a tab\'s handoffs, oldest first (docs/spec.md section 19)', params: TabAuditParams, response: answers({ 200: AuditTrailAnswer }) }
  }, async (req) => {
    const entries = await app.audit.forTab(req.params.tab_id)
    if (!entries.length) throw new AfhttpError('handoff_not_found', 'This tab has no handoff in the audit trail (never handed off, or its handoffs were dropped past AFHTTP_AUDIT_KEEP).', { tab_id: req.params.tab_id })
    const warnings = app.audit.warnings(entries[0].profile)
    return { entries, ...(warnings.length ? { warnings } : {}) }
  })

  r.get('/v1/profiles/:name/audit', {
    schema: { summary: 'A profile\'s audit trail across handoffs: entries at or after `since`, oldest first, at most `limit`', params: ProfileAuditParams, querystring: AuditQuery, response: answers({ 200: AuditTrailAnswer }) }
  }, async (req) => {
    const since = req.query.since === undefined ? undefined : Date.parse(req.query.since)
    if (since !== undefined && Number.isNaN(since)) throw invalidRequest('since', 'must be an ISO time, e.g. 2026-12-01T09:00:00Z')
    const limit = req.query.limit === undefined ? DEFAULT_LIMIT : Number(req.query.limit)
    if (limit < 1 || limit > AUDIT_PAGE_MAX) throw invalidRequest('limit', `must be between 1 and ${AUDIT_PAGE_MAX}`)
    await app.profiles.get(req.params.name) // profile_not_found for a name that is not a profile
    const page = auditPage(await app.audit.read(req.params.name), since, limit)
    const warnings = app.audit.warnings(req.params.name)
    return { entries: page.entries, ...(page.more ? { more: true } : {}), ...(warnings.length ? { warnings } : {}) }
  })
}
