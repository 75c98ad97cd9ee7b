// docs/spec.md section 13: logins survive crashes. Chromium writes its cookie store about every 30 s,
// so the host keeps its own durable record (afhttp-cookies.json) and, when a browser starts,
// puts back what the store lost. Pure: the plugin reads and writes the file and talks CDP.
import { createHash } from 'node:crypto'

export const COOKIES_FILE = 'afhttp-cookies.json'
export const COOKIE_RECORD_SCHEMA = 1

/** The CDP cookie fields the record keeps (Network.Cookie, minus what Chromium derives). */
export interface RecordedCookie {
  name: string
  value: string
  domain: string
  path: string
  /** Seconds since the epoch; -1 (or absent) for a session cookie. */
  expires: number
  httpOnly: boolean
  secure: boolean
  sameSite?: 'Strict' | 'Lax' | 'None'
  priority?: 'Low' | 'Medium' | 'High'
  sourceScheme?: 'Unset' | 'NonSecure' | 'Secure'
  sourcePort?: number
  partitionKey?: { topLevelSite: string, hasCrossSiteAncestor: boolean }
}

export interface CookieRecord {
  schema_version: number
  recorded_at: string
  cookies: RecordedCookie[]
}

/** What Storage.setCookies takes: host-only cookies go by url, or they would become domain cookies. */
export interface CookieParam {
  name: string
  value: string
  url?: string
  domain?: string
  path: string
  secure: boolean
  httpOnly: boolean
  sameSite?: RecordedCookie['sameSite']
  expires?: number
  priority?: RecordedCookie['priority']
  sourceScheme?: RecordedCookie['sourceScheme']
  sourcePort?: number
  partitionKey?: RecordedCookie['partitionKey']
}

function pick (c: RecordedCookie): RecordedCookie {
  const out: RecordedCookie = {
    name: c.name, value: c.value, domain: c.domain, path: c.path, expires: c.expires ?? -1, httpOnly: c.httpOnly, secure: c.secure
  }
  if (c.sameSite) out.sameSite = c.sameSite
  if (c.priority) out.priority = c.priority
  if (c.sourceScheme) out.sourceScheme = c.sourceScheme
  if (typeof c.sourcePort === 'number') out.sourcePort = c.sourcePort
  if (c.partitionKey && typeof c.partitionKey === 'object') out.partitionKey = c.partitionKey
  return out
}

/** Same identity as Chromium's store: name, domain, path and partition. */
export function cookieKey (c: Pick<RecordedCookie, 'name' | 'domain' | 'path' | 'partitionKey'>): string {
  return JSON.stringify([c.name, c.domain, c.path, c.partitionKey?.topLevelSite ?? ''])
}

/** Order-independent digest, so an unchanged jar is not written again. */
export function cookieDigest (cookies: RecordedCookie[]): string {
  const lines = cookies.map((c) => JSON.stringify(pick(c))).sort()
  return createHash('sha256').update(lines.join('\n')).digest('hex')
}

export function serializeCookieRecord (cookies: RecordedCookie[], now: Date): string {
  const record: CookieRecord = { schema_version: COOKIE_RECORD_SCHEMA, recorded_at: now.toISOString(), cookies: cookies.map(pick) }
  return JSON.stringify(record) + '\n'
}

function isCookie (c: unknown): c is RecordedCookie {
  const o = c as Record<string, unknown>
  return typeof o === 'object' && o !== null && typeof o.name === 'string' && typeof o.value === 'string' &&
    typeof o.domain === 'string' && typeof o.path === 'string' && typeof o.httpOnly === 'boolean' && typeof o.secure === 'boolean'
}

/** The record's cookies, or a reason it cannot be used (the host then restores nothing). */
export function parseCookieRecord (text: string): { cookies: RecordedCookie[] } | { error: string } {
  let doc: unknown
  try { doc = JSON.parse(text) } catch { return { error: 'not JSON' } }
  const rec = doc as Partial<CookieRecord>
  if (typeof rec !== 'object' || rec === null || rec.schema_version !== COOKIE_RECORD_SCHEMA || !Array.isArray(rec.cookies)) {
    return { error: `not a schema_version ${COOKIE_RECORD_SCHEMA} cookie record` }
  }
  return { cookies: rec.cookies.filter(isCookie).map(pick) }
}

export interface RestorePlan {
  /** Recorded cookies the store lacks or holds with another value or expiry. */
  set: CookieParam[]
  /** Cookies the store holds that the record does not: deleted by the site after the store's last write. */
  remove: CookieParam[]
}

/**
 * What makes the browser's jar equal to the record. The record is the newer of the two: it is
 * taken after every fetch, when a handoff ends and every few seconds, while Chromium writes its
 * own store only every ~30 s. So after a crash the store may lack a login (set it) and may still
 * hold a cookie the site deleted (remove it: a deleted cookie never comes back). Expired
 * recorded cookies are not set.
 */
export function planRestore (recorded: RecordedCookie[], current: RecordedCookie[], nowSeconds: number): RestorePlan {
  const live = recorded.filter((c) => c.expires === undefined || c.expires < 0 || c.expires > nowSeconds)
  const inStore = new Map(current.map((c) => [cookieKey(c), c]))
  const inRecord = new Set(live.map(cookieKey))
  const set = live.filter((c) => {
    const have = inStore.get(cookieKey(c))
    return !have || have.value !== c.value || Math.round(have.expires ?? -1) !== Math.round(c.expires ?? -1)
  }).map(toParam)
  // Deleting is setting an expiry in the past, as puppeteer's own deleteCookie does.
  const remove = current.filter((c) => !inRecord.has(cookieKey(c))).map((c) => ({ ...toParam(c), value: '', expires: 1 }))
  return { set, remove }
}

function toParam (c: RecordedCookie): CookieParam {
  const hostOnly = !c.domain.startsWith('.')
  const param: CookieParam = { name: c.name, value: c.value, path: c.path, secure: c.secure, httpOnly: c.httpOnly }
  if (hostOnly) param.url = `${c.secure ? 'https' : 'http'}://${c.domain}${c.path}`
  else param.domain = c.domain
  if (c.expires !== undefined && c.expires >= 0) param.expires = c.expires
  if (c.sameSite) param.sameSite = c.sameSite
  if (c.priority) param.priority = c.priority
  if (c.sourceScheme) param.sourceScheme = c.sourceScheme
  if (typeof c.sourcePort === 'number') param.sourcePort = c.sourcePort
  if (c.partitionKey) param.partitionKey = c.partitionKey
  return param
}
