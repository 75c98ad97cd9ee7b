// Push services are reached from the host itself, at an address an operator's browser chose when
// it subscribed: AFHTTP_URL_DENY (docs/spec.md sections 3 and 21) holds for them as it does for
// every page a browser of this host loads. The check is made on the address actually connected to
// (after DNS), so a name that resolves into a denied range is refused too.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns'
import { Agent } from 'node:https'
import { isIP } from 'node:net'
import type { UrlDeny } from '../core/url-deny.js'

/** The error a refused push carries; the sender counts it as a failure and logs the origin only. */
export class DeniedAddressError extends Error {
  readonly code = 'EAFHTTPDENIED'
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

/** Whether `hostname` is an IP literal that `deny` refuses (no lookup happens for those). */
export function literalDenied (hostname: string, deny: UrlDeny | undefined): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '')
  return deny !== undefined && isIP(bare) !== 0 && deny.denies(bare)
}

/** An HTTPS agent whose connections never reach a denied address. */
export function guardedAgent (deny: UrlDeny): Agent {
  const lookup = (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) { callback(err, []); return }
      const allowed = addresses.filter((a) => !deny.denies(a.address))
      if (allowed.length === 0) {
        callback(new DeniedAddressError(`${hostname} resolves only to addresses AFHTTP_URL_DENY refuses`), [])
        return
      }
      if (options.all === true) callback(null, allowed)
      else callback(null, allowed[0].address, allowed[0].family)
    })
  }
  return new Agent({ lookup: lookup as unknown as NonNullable<ConstructorParameters<typeof Agent>[0]>['lookup'] })
}
