// AFHTTP_URL_DENY (docs/spec.md sections 3 and 21): address ranges no browser of this host may connect
// to. Pure: parsing the variable and matching an address; the egress forwarder applies it.
import { BlockList, isIP } from 'node:net'

/**
 * What `private` stands for: loopback, private, link-local and unique-local ranges. 0.0.0.0/8 and
 * `::` are in it because connecting to them reaches this machine on Linux, as loopback does.
 */
export const PRIVATE_RANGES = [
  '127.0.0.0/8', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16', '0.0.0.0/8',
  '::1/128', '::/128', 'fc00::/7', 'fe80::/10'
] as const

export interface UrlDeny {
  /** The ranges as configured, `private` expanded (for logs and /capabilities-style reporting). */
  readonly ranges: readonly string[]
  /** True when a connection to this IP address is refused. */
  denies (address: string): boolean
}

/** An IPv4-mapped IPv6 address (::ffff:10.0.0.1) is the IPv4 address it carries. */
function unmapped (address: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  return m ? m[1] : address
}

/** Parses the variable: CIDRs (or bare addresses) and `private`, separated by commas or spaces. Throws with the reason. */
export function parseUrlDeny (text: string): UrlDeny {
  const list = new BlockList()
  const ranges: string[] = []
  const items = text.split(/[\s,]+/).filter(Boolean)
  if (items.length === 0) throw new Error('names no range')
  for (const item of items) {
    for (const range of item.toLowerCase() === 'private' ? PRIVATE_RANGES : [item]) {
      const [ip, bits, extra] = range.split('/')
      const family = isIP(ip)
      if (family === 0 || extra !== undefined) throw new Error(`"${range.slice(0, 80)}" is neither a CIDR nor "private"`)
      const max = family === 4 ? 32 : 128
      const prefix = bits === undefined ? max : Number(bits)
      if (!/^\d{1,3}$/.test(bits ?? String(max)) || prefix > max) throw new Error(`"${range.slice(0, 80)}" has a prefix length outside 0-${max}`)
      list.addSubnet(ip, prefix, family === 4 ? 'ipv4' : 'ipv6')
      ranges.push(`${ip}/${prefix}`)
    }
  }
  return {
    ranges,
    denies (address) {
      const a = unmapped(address)
      const family = isIP(a)
      // Not an address at all: nothing to connect to, so nothing is allowed either.
      if (family === 0) return true
      return list.check(a, family === 4 ? 'ipv4' : 'ipv6')
    }
  }
}
