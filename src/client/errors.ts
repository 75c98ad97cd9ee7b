import type { ErrorCode } from '../errors.js'

/**
 * Codes the client raises itself, beside the host's SPEC codes:
 * - `host_unreachable`: no connection could be made (refused, DNS, unroutable, connect timeout).
 *   Nothing reached the host, so retrying is safe.
 * - `connection_lost`: the connection broke after the request was sent. The request may have
 *   taken effect; read state (tab inventory, handoff summary) before repeating a POST.
 * - `request_timeout`: no complete answer within the call's `timeoutMs`. Like `connection_lost`,
 *   the host may still be working on it.
 * - `invalid_response`: the answer was not the JSON the API promises (e.g. a proxy's HTML error page).
 * - `takeover_unavailable` is also raised by the client when `/health` says the backend is not
 *   connected or takeover is not ready before a mint.
 */
export type ClientOnlyCode = 'host_unreachable' | 'connection_lost' | 'request_timeout' | 'invalid_response'

/** Any code an `AfhttpClientError` can carry; hosts may add codes, so unknown strings are possible. */
export type ClientErrorCode = ErrorCode | ClientOnlyCode | (string & Record<never, never>)

/** System error codes that mean the request never reached the host. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT'])
/** Codes that mean a connection broke mid-request. */
const LOST = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNABORTED'])

/** The one error type the client throws. `message` is safe to show; it never contains the token. */
export class AfhttpClientError extends Error {
  /** SPEC error code (section 5) or a client code (see `ClientOnlyCode`). */
  readonly code: ClientErrorCode
  /** Whether the same call could succeed later without changes. */
  readonly retryable: boolean
  /** HTTP status of the answer, or undefined when there was none. */
  readonly status: number | undefined
  /** The envelope's `details` (e.g. `{field}` for `invalid_request`), or client context. */
  readonly details: Record<string, unknown>

  constructor (code: ClientErrorCode, message: string, opts: { retryable?: boolean, status?: number, details?: Record<string, unknown>, cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause })
    this.name = 'AfhttpClientError'
    this.code = code
    this.retryable = opts.retryable ?? false
    this.status = opts.status
    this.details = opts.details ?? {}
  }

  /** The SPEC envelope shape, so a CLI or proxy can pass the error on unchanged. */
  toEnvelope (): { error: { code: string, message: string, retryable: boolean, details: Record<string, unknown> } } {
    return { error: { code: this.code, message: this.message, retryable: this.retryable, details: this.details } }
  }
}

/** Maps a transport failure (undici or system error) onto a client error. */
export function transportError (err: unknown, target: string, method: string): AfhttpClientError {
  const code = (err as { code?: string })?.code ?? ''
  const detail = (err as Error)?.message ?? String(err)
  if (UNREACHABLE.has(code)) {
    return new AfhttpClientError('host_unreachable', `cannot reach the afhttp host at ${target} (${detail})`, { retryable: true, details: { cause_code: code }, cause: err })
  }
  if (LOST.has(code)) {
    // A GET has no effects, so repeating it is harmless; anything else may already have happened.
    return new AfhttpClientError('connection_lost', `the connection to ${target} broke during ${method} (${detail}); the request may have taken effect`, {
      retryable: method === 'GET', details: { cause_code: code, may_have_taken_effect: method !== 'GET' }, cause: err
    })
  }
  return new AfhttpClientError('host_unreachable', `request to ${target} failed (${detail})`, { retryable: true, details: { cause_code: code || undefined }, cause: err })
}

/** Builds the error for a non-2xx answer from its status and (possibly empty or non-JSON) body. */
export function answerError (status: number, body: unknown, rawText: string): AfhttpClientError {
  const env = (body as { error?: { code?: unknown, message?: unknown, retryable?: unknown, details?: unknown } } | undefined)?.error
  if (env && typeof env.code === 'string') {
    return new AfhttpClientError(env.code, typeof env.message === 'string' ? env.message : env.code, {
      status,
      retryable: env.retryable === true,
      details: env.details && typeof env.details === 'object' ? env.details as Record<string, unknown> : {}
    })
  }
  // Not our envelope: a proxy, a load balancer or another service answered.
  const snippet = rawText.replace(/\s+/g, ' ').trim().slice(0, 160)
  return new AfhttpClientError('invalid_response', `HTTP ${status} without an afhttp error envelope${snippet ? `: ${snippet}` : ''}`, {
    status, retryable: status >= 500, details: {}
  })
}
