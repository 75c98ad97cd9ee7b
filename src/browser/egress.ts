// docs/spec.md section 21: the host's own forward proxy in front of one profile's Chromium. Chromium is
// pointed at it (loopback included) and never sees a credential; it answers the upstream proxy's
// authentication, and it applies AFHTTP_URL_DENY by the address it actually connects to.
// Why a local forwarder rather than CDP Fetch.authRequired per target: docs/decisions.md, issue 29.
import { lookup } from 'node:dns/promises'
import type { LookupAddress } from 'node:dns'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { isIP, type Socket } from 'node:net'
import { RequestError, Server, type PrepareRequestFunctionOpts, type PrepareRequestFunctionResult } from 'proxy-chain'
import type { UrlDeny } from '../core/url-deny.js'
import { EGRESS_MARKER, targetKey, type EgressRefusal } from '../core/egress-verdict.js'

export interface EgressOptions {
  /** The profile's proxy URL, credentials included; it never leaves this object. */
  upstream?: string
  deny?: UrlDeny
  /** Told about every refusal (for the log); never given the upstream URL. */
  onRefusal?: (refusal: EgressRefusal) => void
}

/** Refusals kept for the fetches that ask about them; older ones are dropped. */
const KEEP = 256

/** proxy-chain answers its own connection failures with these statuses (590 Non Successful … 599). */
const isOwnFailure = (status: number): boolean => status >= 590 && status <= 599

/**
 * proxy-chain's server, told about the answers it makes on its own: a connection it could not
 * make (through the upstream, or to the target) is a 59x status it writes itself.
 */
class Forwarder extends Server {
  constructor (private readonly failed: (target: string) => string, options: ConstructorParameters<typeof Server>[0]) {
    super(options)
  }

  override async onRequest (request: IncomingMessage, response: ServerResponse): Promise<void> {
    const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse
    response.end = ((...args: unknown[]) => {
      if (!response.headersSent && isOwnFailure(response.statusCode)) response.setHeader(EGRESS_MARKER, this.failed(targetOf(request)))
      return end(...args)
    }) as typeof response.end
    return super.onRequest(request, response)
  }

  override failRequest (request: IncomingMessage, error: NodeJS.ErrnoException): void {
    // proxy-chain turns an upstream's 407 into its own 597: the upstream refused our credentials.
    if (error instanceof RequestError && isOwnFailure(error.statusCode)) {
      error.headers = { ...error.headers, [EGRESS_MARKER]: this.failed(targetOf(request)) }
    }
    super.failRequest(request, error)
  }

  override async onConnect (request: IncomingMessage, socket: Socket, head: Buffer): Promise<void> {
    // A tunnel's answer is written straight to the socket: its first bytes say whether it opened.
    let first = true
    const sniff = (chunk: unknown): void => {
      if (!first) return
      first = false
      const status = /^HTTP\/1\.1 (\d{3})/.exec(Buffer.isBuffer(chunk) ? chunk.subarray(0, 16).toString('latin1') : String(chunk).slice(0, 16))
      if (status && isOwnFailure(Number(status[1]))) this.failed(targetOf(request))
    }
    const write = socket.write.bind(socket) as (...args: unknown[]) => boolean
    const endSocket = socket.end.bind(socket) as (...args: unknown[]) => Socket
    socket.write = ((...args: unknown[]) => { sniff(args[0]); return write(...args) }) as typeof socket.write
    socket.end = ((...args: unknown[]) => { if (typeof args[0] !== 'function' && args[0] !== undefined) sniff(args[0]); return endSocket(...args) }) as typeof socket.end
    return super.onConnect(request, socket as never, head)
  }
}

export class Egress {
  readonly #server: Server
  readonly #opts: EgressOptions
  readonly #refusals: EgressRefusal[] = []
  #seq = 0

  private constructor (opts: EgressOptions) {
    this.#opts = opts
    this.#server = new Forwarder((target) => this.#failed(target), { port: 0, host: '127.0.0.1', verbose: false, prepareRequestFunction: (o) => this.#prepare(o) })
  }

  static async start (opts: EgressOptions): Promise<Egress> {
    const egress = new Egress(opts)
    await egress.#server.listen()
    return egress
  }

  /** What Chromium's --proxy-server names. */
  get proxyServer (): string { return `http://127.0.0.1:${this.#server.port}` }
  get hasUpstream (): boolean { return this.#opts.upstream !== undefined }

  /** A point in the refusal record; refusalsSince(mark) is what happened after it. */
  mark (): number { return this.#seq }
  refusalsSince (mark: number): EgressRefusal[] { return this.#refusals.filter((r) => r.seq > mark) }

  async close (): Promise<void> {
    await this.#server.close(true).catch(() => undefined)
  }

  #record (refusal: Omit<EgressRefusal, 'seq'>): EgressRefusal {
    const r = { ...refusal, seq: ++this.#seq }
    this.#refusals.push(r)
    if (this.#refusals.length > KEEP) this.#refusals.splice(0, this.#refusals.length - KEEP)
    this.#opts.onRefusal?.(r)
    return r
  }

  /** A connection proxy-chain could not make: through the upstream, or (without one) to the target. */
  #failed (target: string): string {
    const kind = this.hasUpstream ? 'proxy_unreachable' : 'unreachable'
    this.#record({ kind, target })
    return kind
  }

  #deny (target: string, address: string): never {
    this.#record({ kind: 'url_not_allowed', target, address })
    throw new RequestError(`afhttp refused ${target}: its address is in AFHTTP_URL_DENY`, 403, { [EGRESS_MARKER]: 'url_not_allowed' })
  }

  async #prepare (o: PrepareRequestFunctionOpts): Promise<PrepareRequestFunctionResult> {
    const upstreamProxyUrl = this.#opts.upstream ?? null
    const deny = this.#opts.deny
    if (!deny) return { upstreamProxyUrl }
    const host = o.hostname.replace(/^\[(.*)\]$/, '$1')
    const target = targetKey(host, o.port)
    if (isIP(host)) {
      if (deny.denies(host)) this.#deny(target, host)
      return { upstreamProxyUrl }
    }
    let addresses: LookupAddress[]
    try {
      addresses = await lookup(host, { all: true })
    } catch {
      // With an upstream the name is its to resolve; without one there is nothing to connect to.
      if (upstreamProxyUrl) return { upstreamProxyUrl }
      this.#record({ kind: 'unreachable', target })
      throw new RequestError(`afhttp could not resolve ${host}`, 502, { [EGRESS_MARKER]: 'unreachable' })
    }
    const denied = addresses.find((a) => deny.denies(a.address))
    if (denied) this.#deny(target, denied.address)
    if (upstreamProxyUrl) return { upstreamProxyUrl }
    // The connection goes to exactly the addresses just checked: a second lookup could answer
    // differently (DNS rebinding), so there is none.
    return { upstreamProxyUrl, dnsLookup: pinnedLookup(addresses) }
  }
}

function targetOf (request: IncomingMessage): string {
  try {
    const url = request.method === 'CONNECT' ? new URL(`connect://${request.url ?? ''}`) : new URL(request.url ?? '')
    const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80
    return targetKey(url.hostname.replace(/^\[(.*)\]$/, '$1'), port)
  } catch {
    return '(unparseable target)'
  }
}

/** A dns.lookup that answers with addresses already resolved and checked. */
function pinnedLookup (addresses: LookupAddress[]): PrepareRequestFunctionResult['dnsLookup'] {
  const fn = (_host: string, options: unknown, callback?: unknown): void => {
    const cb = (typeof options === 'function' ? options : callback) as (...args: unknown[]) => void
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all === true
    const family = typeof options === 'object' && options !== null ? (options as { family?: number }).family : undefined
    const usable = family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : addresses
    if (usable.length === 0) {
      process.nextTick(() => cb(Object.assign(new Error('no address of the requested family'), { code: 'ENOTFOUND' })))
      return
    }
    process.nextTick(() => all ? cb(null, usable) : cb(null, usable[0].address, usable[0].family))
  }
  return fn as unknown as PrepareRequestFunctionResult['dnsLookup']
}
