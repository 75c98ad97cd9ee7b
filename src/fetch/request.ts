import { AfhttpError, invalidRequest } from '../errors.js'
import { parseWaitStrategy, type WaitStrategy } from '../core/wait-strategy.js'
import type { CaptureName } from './capture.js'
import type { FetchBody } from '../schemas/fetch.js'

import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS } from '../limits.js'
export { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS }
const ALLOWED_SCHEMES = new Set(['http:', 'https:'])

/** The body of POST /v1/fetch as its schema (src/schemas/fetch.ts) admits it. */
export type { FetchBody } from '../schemas/fetch.js'

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
