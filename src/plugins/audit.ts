import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { auditEntryOf } from '../core/audit.js'
import { AuditTrail, type AuditFs } from '../audit/trail.js'

declare module 'fastify' {
  interface FastifyInstance {
    audit: AuditTrail
  }
}

/**
 * docs/spec.md section 19: the audit trail is a subscriber of the lifecycle — each handoff transition
 * that tells what a person did becomes one entry — never a copy of the state machine.
 */
async function auditPlugin (app: FastifyInstance, opts: { auditFs?: AuditFs }): Promise<void> {
  const trail = new AuditTrail({
    dirOf: (profile) => app.profiles.dir(profile),
    profiles: async () => (await app.profiles.list()).map((p) => p.name),
    keep: app.config.auditKeep,
    log: app.log,
    fs: opts.auditFs
  })
  app.decorate('audit', trail)
  app.lifecycle.onAny((t) => {
    const entry = auditEntryOf(t)
    if (entry) trail.record(entry)
  })
  // After the handoffs plugin revoked every hold at shutdown (its preClose), the endings are flushed.
  app.addHook('onClose', () => trail.close())
}

export default fp(auditPlugin, { name: 'afhttp-audit', dependencies: ['afhttp-lifecycle', 'afhttp-profiles'] })
