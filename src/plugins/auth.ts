import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { AfhttpError } from '../errors.js'
import { tokenMatches } from '../store/token.js'

/** Routes that need the bearer token: the API, health, metrics and the MCP endpoint (docs/spec.md sections 5 and 18). */
export function requiresToken (url: string): boolean {
  const path = url.split('?')[0]
  return path.startsWith('/v1/') || path === '/v1' || path === '/health' || path === '/metrics' || path === '/mcp'
}

function safeDecode (url: string): string {
  try { return decodeURIComponent(url.split('?')[0]) } catch { return url }
}

export function bearerFrom (req: FastifyRequest): string | undefined {
  const header = req.headers.authorization
  if (typeof header !== 'string') return undefined
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
  return match?.[1]
}

/** What the ops token (AFHTTP_OPS_TOKEN) may read: probes and scrapers, nothing else (docs/spec.md section 12). */
export function opsTokenMay (method: string, path: string): boolean {
  return (method === 'GET' || method === 'HEAD') && (path === '/health' || path === '/metrics')
}

async function auth (app: FastifyInstance, opts: { token: string, opsToken?: string }): Promise<void> {
  app.addHook('onRequest', async (req) => {
    // Decide on the route the router matched (it decodes %-escapes), never on the raw URL:
    // "/%761/cdp" is /v1/cdp to the router and must be to the guard too.
    const matched = req.routeOptions.url
    const path = matched ?? safeDecode(req.url)
    if (!requiresToken(path)) return
    const presented = bearerFrom(req)
    if (presented !== undefined && opts.opsToken !== undefined && !tokenMatches(presented, opts.token) && tokenMatches(presented, opts.opsToken)) {
      if (opsTokenMay(req.method, path)) return
      throw new AfhttpError('forbidden', `The ops token reads only GET /health and GET /metrics; ${req.method} ${path} needs the API token (AFHTTP_TOKEN).`, { route: path })
    }
    if (presented === undefined || !tokenMatches(presented, opts.token)) {
      throw new AfhttpError('unauthorized', presented === undefined
        ? 'Send "Authorization: Bearer <token>"; the token is AFHTTP_TOKEN or the file .afhttp-token in the profiles directory.'
        : 'The bearer token is wrong.')
    }
  })
}

export default fp(auth, { name: 'afhttp-auth' })
