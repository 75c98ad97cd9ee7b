import fp from 'fastify-plugin'
import type { FastifyError, FastifyInstance } from 'fastify'
import { AfhttpError, isAfhttpError } from '../errors.js'
import { isBrowserGone } from '../browser/browser-gone.js'

/** Maps framework errors (validation, body size, bad JSON) onto the SPEC envelope. */
export function toAfhttpError (err: FastifyError | Error): AfhttpError {
  if (isAfhttpError(err)) return err
  const fe = err as FastifyError
  if (fe.validation) {
    const first = fe.validation[0]
    const params = (first?.params ?? {}) as Record<string, unknown>
    const path = (first?.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.')
    const field = params.additionalProperty
      ? [path, String(params.additionalProperty)].filter(Boolean).join('.')
      : params.missingProperty ? [path, String(params.missingProperty)].filter(Boolean).join('.') : path || fe.validationContext || 'body'
    const why = params.additionalProperty ? 'is not a known field' : first?.message ?? 'is not valid'
    return new AfhttpError('invalid_request', `${field}: ${why}`, { field })
  }
  if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || fe.statusCode === 413) return new AfhttpError('payload_too_large')
  if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return new AfhttpError('invalid_request', 'Send the body as application/json.', { field: 'content-type' })
  if (fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return new AfhttpError('invalid_request', 'The JSON body is empty.', { field: 'body' })
  if (fe.statusCode === 400 && (fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError)) {
    return new AfhttpError('invalid_request', 'The body is not valid JSON.', { field: 'body' })
  }
  if (fe.statusCode === 429) return new AfhttpError('rate_limited')
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) return new AfhttpError('invalid_request', fe.message)
  if (isBrowserGone(err)) {
    return new AfhttpError('backend_unavailable', 'The browser (or the tab this request used) went away while the request ran; a retry starts the browser again.', {}, { cause: err })
  }
  return new AfhttpError('internal', undefined, {}, { cause: err })
}

async function errorEnvelope (app: FastifyInstance): Promise<void> {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const coded = toAfhttpError(err)
    if (coded.statusCode >= 500) req.log.error({ err }, 'request failed')
    else req.log.info({ code: coded.code }, 'request refused')
    return reply.status(coded.statusCode).send(coded.toEnvelope())
  })
  app.setNotFoundHandler((req, reply) => {
    const err = new AfhttpError('route_not_found', `No route ${req.method} ${req.url.split('?')[0].replace(/\/takeover\/[^/]+/, '/takeover/…')}.`)
    return reply.status(404).send(err.toEnvelope())
  })
}

export default fp(errorEnvelope, { name: 'afhttp-error-envelope' })
