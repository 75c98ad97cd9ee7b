import type { FastifyInstance } from 'fastify'
import { fetchBodySchema, parseFetchBody, type FetchBody } from '../fetch/request.js'
import { runFetch } from '../fetch/pipeline.js'
import { idempotent } from '../plugins/idempotency.js'
import { isAfhttpError } from '../errors.js'

/** POST /v1/fetch: HTTP 200 whenever a page loaded, whatever its status (SPEC section 6). */
export default async function fetchRoutes (app: FastifyInstance): Promise<void> {
  app.post<{ Body: FetchBody }>('/v1/fetch', { schema: { body: fetchBodySchema } }, idempotent(app, async (req) => {
    const started = performance.now()
    const seconds = (): number => (performance.now() - started) / 1000
    try {
      const result = await runFetch(app, parseFetchBody(req.body))
      app.metrics.fetchDone(result.ok ? 'ok' : 'not_ok', result.page_kind, seconds())
      return result
    } catch (err) {
      app.metrics.fetchDone(isAfhttpError(err) ? err.code : 'internal', undefined, seconds())
      throw err
    }
  }))
}
