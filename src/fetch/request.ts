import { PROFILE_NAME_RE } from '../config.js'
import { AfhttpError, invalidRequest } from '../errors.js'
import { parseWaitStrategy, type WaitStrategy } from '../core/wait-strategy.js'
import type { CaptureName } from './capture.js'
import { INSTRUCTIONS_MAX_CHARS } from '../core/handoff.js'

import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS } from '../limits.js'
export { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS }
const ALLOWED_SCHEMES = new Set(['http:', 'https:'])

/** The body of POST /v1/fetch as the JSON schema admits it. */
export interface FetchBody {
  url?: string
  profile?: string
  tab_id?: string
  takeover?: boolean
  wait?: string
  timeout_ms?: number
  capture?: CaptureName[]
  region?: string
  /** Plain text for the person if the fetch hands the tab off (SPEC section 10). */
  instructions?: string
}

export interface FetchRequest {
  url?: string
  profile?: string
  tabId?: string
  takeover: boolean
  wait: WaitStrategy
  waitText: string
  timeoutMs: number
  capture: CaptureName[]
  region?: string
  instructions?: string
}

export const fetchBodySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    url: { type: 'string', minLength: 1, maxLength: 8192 },
    profile: { type: 'string', pattern: PROFILE_NAME_RE.source },
    tab_id: { type: 'string', minLength: 1, maxLength: 64 },
    takeover: { type: 'boolean' },
    wait: { type: 'string', minLength: 1, maxLength: 1100 },
    timeout_ms: { type: 'integer', minimum: 1, maximum: MAX_TIMEOUT_MS },
    capture: { type: 'array', maxItems: 3, uniqueItems: true, items: { type: 'string', enum: ['html', 'text', 'screenshot'] } },
    region: { type: 'string', minLength: 1, maxLength: 1024 },
    instructions: { type: 'string', maxLength: INSTRUCTIONS_MAX_CHARS }
  }
} as const

/** Semantic checks the schema cannot express; returns the normalized request. */
export function parseFetchBody (body: FetchBody): FetchRequest {
  if (body.url === undefined && body.tab_id === undefined) throw invalidRequest('url', 'is required unless tab_id is given')
  if (body.url !== undefined) {
    let parsed: URL
    try { parsed = new URL(body.url) } catch { throw invalidRequest('url', 'is not an absolute URL') }
    if (!ALLOWED_SCHEMES.has(parsed.protocol)) {
      throw new AfhttpError('url_not_allowed', `url: the scheme ${parsed.protocol} is not allowed; only http: and https: are fetched`, { field: 'url', scheme: parsed.protocol })
    }
  }
  let wait: WaitStrategy
  try {
    wait = parseWaitStrategy(body.wait ?? 'load')
  } catch (err) {
    throw invalidRequest('wait', (err as Error).message)
  }
  return {
    url: body.url,
    profile: body.profile,
    tabId: body.tab_id,
    takeover: body.takeover ?? false,
    wait,
    waitText: body.wait ?? 'load',
    timeoutMs: body.timeout_ms ?? DEFAULT_TIMEOUT_MS,
    capture: body.capture ?? ['html', 'text'],
    region: body.region,
    ...(body.instructions !== undefined ? { instructions: body.instructions } : {})
  }
}
