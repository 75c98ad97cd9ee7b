// docs/spec.md section 21: what a failed or refused page load means when a profile's browser goes
// through the host's egress forwarder (src/browser/egress.ts). Pure; the fetch pipeline feeds it.

/** The header the forwarder puts on the answers it makes itself, naming why. */
export const EGRESS_MARKER = 'x-afhttp-egress'

export type RefusalKind = 'url_not_allowed' | 'proxy_unreachable' | 'unreachable'

export interface EgressRefusal {
  seq: number
  kind: RefusalKind
  /** `host:port`, as targetKey spells it. */
  target: string
  /** The denied address (url_not_allowed only). */
  address?: string
}

/** One spelling of a connection target for both sides: the forwarder's request and the page's URL. */
export function targetKey (hostname: string, port: number): string {
  return `${hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase()}:${port}`
}

export function targetOfUrl (url: string): string | undefined {
  try {
    const u = new URL(url)
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined
    return targetKey(u.hostname, u.port !== '' ? Number(u.port) : u.protocol === 'https:' ? 443 : 80)
  } catch {
    return undefined
  }
}

/** Chromium's net errors for a proxy that would not carry the request (net/base/net_error_list.h). */
export const PROXY_NET_ERRORS = [
  'ERR_PROXY_CONNECTION_FAILED', 'ERR_TUNNEL_CONNECTION_FAILED', 'ERR_SOCKS_CONNECTION_FAILED',
  'ERR_SOCKS_CONNECTION_HOST_UNREACHABLE', 'ERR_PROXY_AUTH_UNSUPPORTED', 'ERR_PROXY_AUTH_REQUESTED',
  'ERR_PROXY_CERTIFICATE_INVALID', 'ERR_NO_SUPPORTED_PROXIES', 'ERR_MANDATORY_PROXY_CONFIGURATION_FAILED',
  'ERR_PROXY_HTTP_1_1_REQUIRED'
] as const

export interface LoadOutcome {
  /** `net::ERR_…` when the navigation failed. */
  netError?: string
  /** The main document's status and the forwarder's marker on it, when one arrived. */
  status?: number
  marker?: string
  /** The targets the main frame's navigation requests went to (the first URL and every redirect). */
  navigationTargets: string[]
  refusals: EgressRefusal[]
  hasUpstream: boolean
}

export interface EgressVerdict {
  code: 'url_not_allowed' | 'proxy_unreachable' | 'navigation_failed'
  message: string
  details: Record<string, unknown>
}

/** Why the page did not load, when the egress forwarder is the reason; undefined otherwise. */
export function egressVerdict (o: LoadOutcome): EgressVerdict | undefined {
  const denied = o.refusals.find((r) => r.kind === 'url_not_allowed' && o.navigationTargets.includes(r.target))
  if (o.marker === 'url_not_allowed' || denied) {
    const target = denied?.target ?? o.navigationTargets.at(-1)
    return {
      code: 'url_not_allowed',
      message: `The page was not loaded: ${target ?? 'its address'} resolves to an address AFHTTP_URL_DENY refuses; nothing was sent to it.`,
      details: { field: 'url', ...(target ? { target } : {}), reason: 'url_deny' }
    }
  }
  const net = /net::(ERR_[A-Z0-9_]+)/.exec(o.netError ?? '')?.[1]
  const proxyError = net !== undefined && (PROXY_NET_ERRORS as readonly string[]).includes(net)
  const ownFailure = o.marker === 'proxy_unreachable' || o.marker === 'unreachable' || (o.status !== undefined && o.status >= 590 && o.status <= 599)
  const failed = o.refusals.some((r) => r.kind !== 'url_not_allowed')
  if (!(proxyError || (ownFailure && (failed || o.marker !== undefined)))) return undefined
  if (o.hasUpstream) {
    return {
      code: 'proxy_unreachable',
      message: `The profile's proxy did not carry the request${net ? ` (${net})` : ''}: it refused the connection, is down, or refused the host's credentials.`,
      details: net ? { net_error: net } : {}
    }
  }
  return {
    code: 'navigation_failed',
    message: `Loading the page failed: the host could not connect to ${o.navigationTargets.at(-1) ?? 'the site'}.`,
    details: net ? { net_error: net } : {}
  }
}
