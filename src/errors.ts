/**
 * The one table of coded errors. Codes are public (docs/spec.md section 5): extend, never rename.
 * docs/errors.md is generated from this table by scripts/generate-errors-doc.mjs.
 */
export interface ErrorSpec {
  status: number
  retryable: boolean
  message: string
}

export const ERRORS = {
  unauthorized: { status: 401, retryable: false, message: 'Missing or wrong bearer token.' },
  forbidden: { status: 403, retryable: false, message: 'This token may not use this route.' },
  invalid_request: { status: 400, retryable: false, message: 'The request is not valid.' },
  idempotency_key_reused: { status: 422, retryable: false, message: 'This Idempotency-Key was used with a different request.' },
  payload_too_large: { status: 413, retryable: false, message: 'The request body is larger than allowed.' },
  url_not_allowed: { status: 400, retryable: false, message: 'This URL may not be fetched: only http: and https: URLs are, and none whose address AFHTTP_URL_DENY refuses.' },
  route_not_found: { status: 404, retryable: false, message: 'No such route.' },
  profile_not_found: { status: 404, retryable: false, message: 'No such profile.' },
  profile_exists: { status: 409, retryable: false, message: 'A profile with this name already exists.' },
  profile_metadata_invalid: { status: 409, retryable: false, message: 'The profile metadata file is not valid.' },
  profile_metadata_write_failed: { status: 507, retryable: true, message: 'The profile metadata could not be written.' },
  profile_lock_write_failed: { status: 507, retryable: true, message: 'The profile lock file could not be written.' },
  profile_locked: { status: 423, retryable: true, message: 'Another host process owns this profile.' },
  backend_unavailable: { status: 503, retryable: true, message: 'The browser backend is not available.' },
  tab_not_found: { status: 404, retryable: false, message: 'No such tab.' },
  tab_under_human_control: { status: 409, retryable: true, message: 'A person holds this tab; only observations are allowed.' },
  tab_busy: { status: 409, retryable: true, message: 'Another agent operation is working this tab.' },
  navigation_failed: { status: 502, retryable: true, message: 'The page could not be loaded.' },
  proxy_unreachable: { status: 502, retryable: true, message: "The profile's egress proxy refused the connection or is down." },
  navigation_timeout: { status: 504, retryable: true, message: 'The page did not load in time.' },
  handoff_not_found: { status: 404, retryable: false, message: 'This tab has no handoff.' },
  handoff_fence_stale: { status: 409, retryable: false, message: 'The handoff fence is not the current one.' },
  handoff_expired: { status: 410, retryable: false, message: 'The handoff hold has expired.' },
  handoff_secret_invalid: { status: 410, retryable: false, message: 'This panel link was already used, revoked or has expired.' },
  handoff_capacity: { status: 409, retryable: false, message: 'This tab has reached its limit of finished handoffs.' },
  takeover_unavailable: { status: 503, retryable: true, message: 'Takeover is not available right now.' },
  anchor_guard_failed: { status: 500, retryable: true, message: 'The window anchor could not be ensured; the page was left open.' },
  cdp_command_failed: { status: 400, retryable: false, message: 'The browser rejected the CDP command.' },
  rate_limited: { status: 429, retryable: true, message: 'Too many requests.' },
  panel_lease_invalid: { status: 401, retryable: false, message: 'This panel has no valid lease; open a fresh panel link.' },
  panel_origin_refused: { status: 403, retryable: false, message: 'The panel only accepts requests from its own origin.' },
  panel_control_held: { status: 409, retryable: true, message: 'Another viewer is driving this tab.' },
  panel_view_only: { status: 403, retryable: false, message: 'This is a view-only panel link: it cannot take control, press Done, decline or send input.' },
  operator_unauthorized: { status: 401, retryable: false, message: 'The inbox needs its operator cookie; open the inbox login link again.' },
  inbox_not_configured: { status: 404, retryable: false, message: 'This host has no operator inbox: AFHTTP_OPERATOR_TOKEN is not set.' },
  inbox_origin_refused: { status: 403, retryable: false, message: 'The inbox only accepts requests from its own origin.' },
  handoff_in_use: { status: 409, retryable: true, message: 'Someone is already working this handoff; ask for a view link instead.' },
  internal: { status: 500, retryable: true, message: 'Internal error.' }
} as const satisfies Record<string, ErrorSpec>

export type ErrorCode = keyof typeof ERRORS

export interface ErrorEnvelope {
  error: { code: ErrorCode, message: string, retryable: boolean, details: Record<string, unknown> }
  /** Present when a failed fetch left a tab open: `trace.retained_tab_id` (docs/spec.md section 6). */
  trace?: { retained_tab_id: string }
}

/** A failure with a stable public code. Its message is always safe to show to the caller. */
export class AfhttpError extends Error {
  readonly code: ErrorCode
  readonly statusCode: number
  readonly retryable: boolean
  readonly details: Record<string, unknown>

  constructor (code: ErrorCode, message?: string, details: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super(message ?? ERRORS[code].message, options)
    this.name = 'AfhttpError'
    this.code = code
    this.statusCode = ERRORS[code].status
    this.retryable = ERRORS[code].retryable
    this.details = details
  }

  toEnvelope (): ErrorEnvelope {
    const envelope: ErrorEnvelope = { error: { code: this.code, message: this.message, retryable: this.retryable, details: this.details } }
    const trace = this.details.trace as { retained_tab_id?: string } | undefined
    if (trace?.retained_tab_id) envelope.trace = { retained_tab_id: trace.retained_tab_id }
    return envelope
  }
}

export function isAfhttpError (err: unknown): err is AfhttpError {
  return err instanceof AfhttpError
}

/** Shorthand for the most common failure: a bad field in a request. */
export function invalidRequest (field: string, why: string): AfhttpError {
  return new AfhttpError('invalid_request', `${field}: ${why}`, { field })
}
