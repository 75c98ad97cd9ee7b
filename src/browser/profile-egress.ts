// docs/spec.md section 21: whether a profile's browser goes through the host's forwarder, and
// starting it. A launch (src/browser/browser-launch.ts) asks this before Chromium starts.
import { AfhttpError } from '../errors.js'
import { redactProxy } from '../core/network-identity.js'
import type { ProfileMetadata } from '../core/profile-metadata.js'
import type { UrlDeny } from '../core/url-deny.js'
import { Egress } from './egress.js'

export interface EgressLogger {
  info (obj: object, msg: string): void
  warn (obj: object, msg: string): void
}

/**
 * A forwarder when the profile names a proxy or the host denies addresses. A `cdp` profile's
 * browser connects on its own, so on a host with AFHTTP_URL_DENY it is refused.
 */
export async function startProfileEgress (profile: string, meta: ProfileMetadata, deny: UrlDeny | undefined, log: EgressLogger): Promise<Egress | undefined> {
  if (meta.backend === 'cdp') {
    if (deny) throw new AfhttpError('backend_unavailable', `Profile "${profile}" attaches to a browser the host does not launch, so AFHTTP_URL_DENY cannot be enforced on it; cdp profiles are refused while it is set.`)
    return undefined
  }
  if (meta.proxy === undefined && !deny) return undefined
  const egress = await Egress.start({
    upstream: meta.proxy,
    deny,
    onRefusal: (r) => {
      if (r.kind === 'url_not_allowed') log.info({ profile, target: r.target, address: r.address }, 'refused a request to an address AFHTTP_URL_DENY names')
      else log.warn({ profile, target: r.target, ...(meta.proxy ? { proxy: redactProxy(meta.proxy) } : {}) }, meta.proxy ? 'the profile\'s proxy did not carry a request' : 'could not connect to a site')
    }
  })
  log.info({ profile, forwarder: egress.proxyServer, ...(meta.proxy ? { proxy: redactProxy(meta.proxy) } : {}), url_deny: deny?.ranges }, 'egress forwarder started')
  return egress
}
