import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Teardown } from './teardown.js'

export interface FixtureRoute {
  status?: number
  headers?: Record<string, string>
  body: string | ((req: IncomingMessage) => string)
  /** Milliseconds to wait before answering (for timeouts and networkidle). */
  delayMs?: number
}

export interface FixtureServer {
  url: string
  /** Adds or replaces a route; pages are served only on 127.0.0.1. */
  route: (path: string, route: FixtureRoute) => void
  hits: (path: string) => number
  close: () => Promise<void>
}

/** A real HTTP server on 127.0.0.1 serving the pages a test needs, with real status codes. */
export async function startFixtureServer (t: Teardown, routes: Record<string, FixtureRoute> = {}): Promise<FixtureServer> {
  const table = new Map(Object.entries(routes))
  const counts = new Map<string, number>()
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]
    counts.set(path, (counts.get(path) ?? 0) + 1)
    const route = table.get(path)
    const send = (): void => {
      if (!route) {
        res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' })
        res.end('<!doctype html><title>Not found</title><h1>Not found</h1><p>No fixture is served at this path.</p>')
        return
      }
      const etag = route.headers?.etag
      if (etag && req.headers['if-none-match'] === etag) {
        res.writeHead(304, { etag })
        res.end()
        return
      }
      const body = typeof route.body === 'function' ? route.body(req) : route.body
      res.writeHead(route.status ?? 200, {
        'content-type': 'text/html; charset=utf-8',
        // Nothing a fixture references may leave the machine.
        'content-security-policy': "default-src 'self' 'unsafe-inline' data: blob:",
        ...route.headers
      })
      res.end(body)
    }
    if (route?.delayMs) setTimeout(send, route.delayMs)
    else send()
  })
  server.keepAliveTimeout = 1000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const close = (): Promise<void> => new Promise((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })
  t.teardown(close)
  return {
    url: `http://127.0.0.1:${port}`,
    route: (path, route) => { table.set(path, route) },
    hits: (path) => counts.get(path) ?? 0,
    close
  }
}
