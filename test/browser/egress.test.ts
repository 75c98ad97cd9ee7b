// The egress forwarder on its own (docs/spec.md section 21), driven by raw HTTP proxy requests:
// CONNECT tunnels (what https and wss use) and plain requests, through a real upstream proxy
// that requires authentication, to real servers on loopback addresses.
import t from 'tap'
import { createServer, request, type Server as HttpServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Server as ProxyServer } from 'proxy-chain'
import { Egress, type EgressOptions } from '../../src/browser/egress.js'
import { parseUrlDeny } from '../../src/core/url-deny.js'
import { EGRESS_MARKER } from '../../src/core/egress-verdict.js'
import type { Teardown } from '../helpers/teardown.js'

async function site (t: Teardown, host: string): Promise<{ port: number, connections: () => number }> {
  const server: HttpServer = createServer((_req, res) => { res.end('hello') })
  let connections = 0
  server.on('connection', () => { connections++ })
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  t.teardown(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }))
  return { port: (server.address() as AddressInfo).port, connections: () => connections }
}

async function upstream (t: Teardown): Promise<{ port: number, seen: string[] }> {
  const seen: string[] = []
  const server = new ProxyServer({
    port: 0,
    host: '127.0.0.1',
    prepareRequestFunction: ({ username, password, hostname, port }) => {
      if (username !== 'u' || password !== 'p4ss') return { requestAuthentication: true }
      seen.push(`${hostname}:${port}`)
      return {}
    }
  })
  await server.listen()
  t.teardown(() => server.close(true))
  return { port: server.port, seen }
}

async function start (t: Teardown, opts: EgressOptions): Promise<Egress> {
  const egress = await Egress.start(opts)
  t.teardown(() => egress.close())
  return egress
}

/** One proxy request: CONNECT answers with its status line's code; a plain GET with status, marker and body. */
function viaProxy (proxy: string, method: 'CONNECT' | 'GET', target: string): Promise<{ status: number, marker?: string, body: string }> {
  const { port } = new URL(proxy)
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: Number(port), method, path: target, headers: method === 'CONNECT' ? { host: target } : {} })
    req.on('connect', (res, socket) => { socket.destroy(); resolve({ status: res.statusCode ?? 0, body: '' }) })
    req.on('response', (res) => {
      let body = ''
      res.on('data', (c: Buffer) => { body += c.toString() })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, marker: res.headers[EGRESS_MARKER] as string | undefined, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

t.test('deny rules: refused by address, literal or resolved; allowed names connect to the address checked', async (t) => {
  const inside = await site(t, '127.0.0.2')
  const outside = await site(t, '127.0.0.1')
  const egress = await start(t, { deny: parseUrlDeny('127.0.0.2/32') })
  const mark = egress.mark()
  const tunnel = await viaProxy(egress.proxyServer, 'CONNECT', `127.0.0.2:${inside.port}`)
  t.equal(tunnel.status, 403, 'a CONNECT to a denied address is refused')
  const plain = await viaProxy(egress.proxyServer, 'GET', `http://127.0.0.2:${inside.port}/`)
  t.equal(plain.status, 403)
  t.equal(plain.marker, 'url_not_allowed', 'and marked as the forwarder\'s own answer')
  t.equal(inside.connections(), 0, 'the denied address was never contacted')
  t.match(egress.refusalsSince(mark), [{ kind: 'url_not_allowed', target: `127.0.0.2:${inside.port}`, address: '127.0.0.2' }, { kind: 'url_not_allowed' }])

  const ok = await viaProxy(egress.proxyServer, 'GET', `http://localhost:${outside.port}/`)
  t.equal(ok.status, 200, 'a name resolving to an allowed address is carried')
  t.equal(ok.body, 'hello')
  t.equal((await viaProxy(egress.proxyServer, 'CONNECT', `localhost:${outside.port}`)).status, 200, 'and tunnelled')
  t.equal(egress.hasUpstream, false)

  const byName = await start(t, { deny: parseUrlDeny('127.0.0.1/32') })
  const refused = await viaProxy(byName.proxyServer, 'GET', `http://localhost:${outside.port}/x`)
  t.equal(refused.marker, 'url_not_allowed', 'a name resolving to a denied address is refused')
})

t.test('an upstream proxy: credentials answered by the host; a down or refusing upstream is recorded and marked', async (t) => {
  const target = await site(t, '127.0.0.1')
  const up = await upstream(t)
  const good = await start(t, { upstream: `http://u:p4ss@127.0.0.1:${up.port}` })
  t.equal((await viaProxy(good.proxyServer, 'CONNECT', `127.0.0.1:${target.port}`)).status, 200)
  t.equal((await viaProxy(good.proxyServer, 'GET', `http://127.0.0.1:${target.port}/`)).body, 'hello')
  t.same(up.seen, [`127.0.0.1:${target.port}`, `127.0.0.1:${target.port}`], 'both went through the upstream, authenticated')

  const wrong = await start(t, { upstream: `http://u:wrong@127.0.0.1:${up.port}` })
  const m1 = wrong.mark()
  const plain = await viaProxy(wrong.proxyServer, 'GET', `http://127.0.0.1:${target.port}/`)
  t.equal(plain.marker, 'proxy_unreachable', 'refused credentials')
  t.ok(plain.status >= 590 && plain.status <= 599)
  const tunnel = await viaProxy(wrong.proxyServer, 'CONNECT', `127.0.0.1:${target.port}`)
  t.ok(tunnel.status >= 590 && tunnel.status <= 599, 'a tunnel the upstream refused')
  t.equal(wrong.refusalsSince(m1).filter((r) => r.kind === 'proxy_unreachable').length, 2, 'both recorded')

  const closed = createServer()
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
  const downPort = (closed.address() as AddressInfo).port
  await new Promise((resolve) => closed.close(resolve))
  const down = await start(t, { upstream: `socks5://u:p4ss@127.0.0.1:${downPort}` })
  const m2 = down.mark()
  const viaSocks = await viaProxy(down.proxyServer, 'CONNECT', `127.0.0.1:${target.port}`)
  t.ok(viaSocks.status >= 590, 'a socks5 upstream that is down')
  t.match(down.refusalsSince(m2), [{ kind: 'proxy_unreachable' }])
})
