import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { parseFetchBody } from '../fetch/request.js'
import { runFetch, type FetchDeps } from '../fetch/pipeline.js'
import { idempotent } from '../plugins/idempotency.js'
import { isAfhttpError } from '../errors.js'
import { answers, FetchBody, FetchResult } from '../schemas/index.js'

/** POST /v1/fetch: HTTP 200 whenever a page loaded, whatever its status (docs/spec.md section 6). */
export default async function fetchRoutes (app: FastifyInstance): Promise<void> {
  // The services are decorated before the routes register and never replaced; the default
  // profile is the same in the config withBoundPort makes once the server listens.
  const deps: FetchDeps = {
    tabs: app.tabs,
    handoffs: app.handoffs,
    clock: app.clock,
    defaultProfile: app.config.defaultProfile,
    egress: (profile) => app.browsers.egress(profile)
  }
  app.withTypeProvider<TypeBoxTypeProvider>().post('/v1/fetch', {
    schema: { summary: 'Fetch a page, or hand it to a person (docs/spec.md section 6)', body: FetchBody, response: answers({ 200: FetchResult }) }
  }, async (req, reply) => idempotent(app, req, reply, async () => {
    const started = performance.now()
    const seconds = (): number => (performance.now() - started) / 1000
    try {
      const result = await runFetch(deps, parseFetchBody(req.body))
      app.metrics.fetchDone(result.ok ? 'ok' : 'not_ok', result.page_kind, seconds())
      return result
    } catch (err) {
      app.metrics.fetchDone(isAfhttpError(err) ? err.code : 'internal', undefined, seconds())
      throw err
    }
  }))
}
