import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AfhttpError, invalidRequest, isAfhttpError } from '../errors.js'
import { reissuePanelUrls, withoutPanelSecrets } from './idempotency-secrets.js'
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_RE, IdempotencyStore, requestFingerprint, type StoredAnswer } from '../core/idempotency.js'

declare module 'fastify' {
  interface FastifyInstance {
    idempotency: IdempotencyStore
  }
}

/**
 * Whether a failed first attempt is the answer to replay. Success and non-retryable errors are;
 * so is any failure that left a tab behind (a retry must not open a second one). A retryable
 * failure that left nothing is forgotten, so the retry runs again (the browser may be back).
 */
function keepsFailure (err: AfhttpError): boolean {
  const trace = err.details.trace as { retained_tab_id?: string } | undefined
  return !err.retryable || Boolean(trace?.retained_tab_id)
}

/**
 * Runs a route's work so an `Idempotency-Key` header makes it safe to retry (docs/spec.md section 5).
 * Called inside the handler, so the request keeps the type its route schema gives it.
 */
export async function idempotent<T> (app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  const header = req.headers[IDEMPOTENCY_HEADER]
  if (header === undefined) return work()
  if (typeof header !== 'string' || !IDEMPOTENCY_KEY_RE.test(header)) throw invalidRequest('Idempotency-Key', 'must be 1 to 128 printable ASCII characters, sent once')
  // No body and an empty one ask for the same thing (the mint's body is optional).
  const fingerprint = requestFingerprint({ method: req.method, route: req.routeOptions.url, params: req.params, body: req.body ?? {} })
  const admission = app.idempotency.admit(header, fingerprint)
  if (admission.kind === 'mismatch') throw new AfhttpError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request; use a new key for a new request.')
  if (admission.kind === 'replay') {
    const first: StoredAnswer = await admission.answer
    reply.header('idempotent-replayed', 'true')
    // The stored answer has the route's shape: it is what this work answered the first time.
    return reply.code(first.status).send(admission.live ? first.body : await reissuePanelUrls(app, first.body)) as unknown as T
  }
  try {
    const body = await work()
    admission.settle({ status: reply.statusCode, body }, { status: reply.statusCode, body: withoutPanelSecrets(body) })
    return body
  } catch (err) {
    if (isAfhttpError(err) && keepsFailure(err)) admission.settle({ status: err.statusCode, body: err.toEnvelope() })
    else admission.forget(err)
    throw err
  }
}

async function idempotencyPlugin (app: FastifyInstance): Promise<void> {
  app.decorate('idempotency', new IdempotencyStore(app.clock))
}

export default fp(idempotencyPlugin, { name: 'afhttp-idempotency' })
