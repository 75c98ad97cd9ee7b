import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Lifecycle } from '../core/lifecycle.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** The host's typed transitions (src/schemas/lifecycle.ts): browsers, tabs and handoffs emit, the rest subscribe. */
    lifecycle: Lifecycle
  }
}

/** Registered before the services that emit into it (browsers, tabs, handoffs). */
async function lifecyclePlugin (app: FastifyInstance): Promise<void> {
  app.decorate('lifecycle', new Lifecycle(app.clock, (err, type) => app.log.error({ err, transition: type }, 'a lifecycle listener failed')))
}

export default fp(lifecyclePlugin, { name: 'afhttp-lifecycle' })
