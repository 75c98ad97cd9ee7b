// Routing a driver's calls over several hosts (docs/spec.md sections 11 and 14). A profile lives on
// exactly one host; calls that name a profile go to the host rendezvous hashing picks for it,
// and calls that name a tab go to the host that owns the tab.
import { createHash } from 'node:crypto'

/** One host the client talks to: its base URL split into origin and path prefix. */
export interface HostRef {
  /** origin + prefix, without a trailing slash: the host's identity in the routing. */
  readonly base: string
  readonly origin: string
  readonly prefix: string
}

/** The profile a host uses when a call names none (its AFHTTP_DEFAULT_PROFILE default). */
export const DEFAULT_ROUTE_PROFILE = 'default'

/** Splits `AFHTTP_URL`-style input (comma-separated, or a list) into distinct host URLs. */
export function parseHostList (input: string | URL | ReadonlyArray<string | URL>): string[] {
  const items = typeof input === 'string' ? input.split(',') : input instanceof URL ? [input.href] : input.map(String)
  const hosts: string[] = []
  for (const raw of items) {
    const trimmed = raw.trim()
    if (!trimmed) continue
    const ref = hostRef(trimmed)
    if (!hosts.includes(ref.base)) hosts.push(ref.base)
  }
  if (hosts.length === 0) throw new TypeError('no afhttp host URL given')
  return hosts
}

export function hostRef (url: string | URL): HostRef {
  const u = new URL(url)
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new TypeError(`afhttp host URL must be http: or https:, got ${u.protocol}`)
  const prefix = u.pathname.replace(/\/+$/, '')
  return { base: u.origin + prefix, origin: u.origin, prefix }
}

function score (host: string, key: string): bigint {
  return createHash('sha256').update(host).update('\0').update(key).digest().readBigUInt64BE(0)
}

/**
 * Rendezvous (highest random weight) hashing: every host gets a score for the key and the
 * highest wins. The choice does not depend on the order of `hosts`, and adding or removing a
 * host moves only the keys that host wins or held.
 */
export function rendezvousPick (key: string, hosts: readonly string[]): string {
  if (hosts.length === 0) throw new TypeError('no hosts to route to')
  let best = hosts[0]
  let bestScore = -1n
  for (const h of hosts) {
    const s = score(h, key)
    if (s > bestScore || (s === bestScore && h < best)) {
      best = h
      bestScore = s
    }
  }
  return best
}

/** What a call is about, read from its path and body; decides where it goes. */
export type Route =
  | { kind: 'profile', profile: string }
  | { kind: 'tab', tabId: string }
  /** Inventory calls (GET /v1/tabs, GET /v1/profiles): asked of every host and merged. */
  | { kind: 'all' }
  /** Calls about no profile or tab (capabilities, health): the default profile's host. */
  | { kind: 'default' }

function decode (segment: string): string {
  try { return decodeURIComponent(segment) } catch { return segment }
}

export function routeOf (method: string, path: string, body: unknown): Route {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>
  const str = (v: unknown): string | undefined => typeof v === 'string' && v !== '' ? v : undefined
  const bare = path.split('?')[0]
  const tab = /^\/v1\/tabs\/([^/]+)/.exec(bare)
  if (tab) return { kind: 'tab', tabId: decode(tab[1]) }
  const profile = /^\/v1\/profiles\/([^/]+)/.exec(bare)
  if (profile) return { kind: 'profile', profile: decode(profile[1]) }
  if (bare === '/v1/tabs' || (bare === '/v1/profiles' && method === 'GET')) return { kind: 'all' }
  if (bare === '/v1/profiles') return { kind: 'profile', profile: str(b.name) ?? DEFAULT_ROUTE_PROFILE }
  if (bare === '/v1/fetch' || bare === '/v1/cdp') {
    const tabId = str(b.tab_id)
    if (tabId) return { kind: 'tab', tabId }
    return { kind: 'profile', profile: str(b.profile) ?? DEFAULT_ROUTE_PROFILE }
  }
  return { kind: 'default' }
}

/** Tab ids an answer mentions, so follow-ups about them reach the host that answered. */
export function tabIdsIn (body: unknown): string[] {
  const out: string[] = []
  const at = (v: unknown, ...path: string[]): unknown => path.reduce<unknown>((o, k) => (typeof o === 'object' && o !== null ? (o as Record<string, unknown>)[k] : undefined), v)
  const add = (v: unknown): void => { if (typeof v === 'string' && v.startsWith('tab_')) out.push(v) }
  for (const path of [['tab_id'], ['trace', 'retained_tab_id'], ['tab', 'tab_id'], ['surface', 'tab_id'], ['error', 'details', 'tab_id'], ['error', 'details', 'trace', 'retained_tab_id']]) add(at(body, ...path))
  const tabs = at(body, 'tabs')
  if (Array.isArray(tabs)) for (const t of tabs) { add(at(t, 'tab_id')); add(at(t, 'opener_tab_id')) }
  return out
}

/** Where tabs live, learned from answers; bounded so a long-lived client does not grow. */
export class TabDirectory {
  readonly #owner = new Map<string, string>()
  constructor (private readonly limit = 10_000) {}

  learn (tabId: string, host: string): void {
    this.#owner.delete(tabId)
    this.#owner.set(tabId, host)
    if (this.#owner.size > this.limit) this.#owner.delete(this.#owner.keys().next().value as string)
  }

  owner (tabId: string): string | undefined { return this.#owner.get(tabId) }
  forget (tabId: string): void { this.#owner.delete(tabId) }
}

/**
 * The host a panel URL belongs to: the one whose base URL it starts with. A host's minted
 * URLs start with its AFHTTP_PUBLIC_URL; list that URL among the hosts (or rely on the tab id).
 */
export function hostForUrl (url: string, hosts: readonly string[]): string | undefined {
  let u: URL
  try { u = new URL(url) } catch { return undefined }
  const target = u.origin + u.pathname
  return hosts
    .filter((h) => target === h || target.startsWith(h + '/'))
    .sort((a, b) => b.length - a.length)[0]
}
