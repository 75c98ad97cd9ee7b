import type { FastifyInstance } from 'fastify'
import { fetchBodySchema, parseFetchBody, type FetchBody } from '../fetch/request.js'
import { runFetch } from '../fetch/pipeline.js'
import { idempotent } from '../plugins/idempotency.js'

/** POST /v1/fetch: HTTP 200 whenever a page loaded, whatever its status (SPEC section 6). */
export default async function fetchRoutes (app: FastifyInstance): Promise<void> {
  app.post<{ Body: FetchBody }>('/v1/fetch', { schema: { body: fetchBodySchema } }, idempotent(app, async (req) => {
    return runFetch(app, parseFetchBody(req.body))
  }))
}
