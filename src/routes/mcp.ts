import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AfhttpClient } from '../client/index.js'
import { createMcpServer } from '../mcp/server.js'
import { McpSessions } from '../mcp/sessions.js'
import { McpMessage } from '../schemas/index.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** The open /mcp sessions (docs/spec.md section 18). */
    mcpSessions: McpSessions
  }
}

/** The host's own address as the tools reach it: loopback for a wildcard bind. */
export function selfUrl (address: ReturnType<FastifyInstance['server']['address']>): string {
  if (!address || typeof address !== 'object') throw new Error('the host is not listening on a TCP port')
  const host = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address
  return `http://${address.family === 'IPv6' || host.includes(':') ? `[${host}]` : host}:${address.port}`
}

/**
 * /mcp: the MCP server over Streamable HTTP (docs/spec.md section 18), behind the API token like /v1.
 * Its tools are the same code as `afhttp mcp`: the driver library, pointed at this host's own
 * listening address with its own token (docs/decisions.md, issue 25).
 */
async function mcpRoutes (app: FastifyInstance, opts: { token: string }): Promise<void> {
  let client: AfhttpClient | undefined
  const sessions = new McpSessions(() => {
    client ??= new AfhttpClient({ url: selfUrl(app.server.address()), token: opts.token })
    return createMcpServer(client)
  })
  app.decorate('mcpSessions', sessions)
  // Open streams would hold the server's close: end them first, then the client's keep-alive pool.
  app.addHook('preClose', async () => { await sessions.closeAll() })
  app.addHook('onClose', async () => { await client?.close() })

  const handle = async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    reply.hijack()
    await sessions.handle(req.raw, reply.raw, req.body)
  }
  const doc = 'MCP Streamable HTTP transport (docs/spec.md section 18): POST JSON-RPC messages (initialize first; the answer names `mcp-session-id`), GET the notification stream, DELETE to end the session. Tools: fetch_page, snapshot, list_tabs, close_tab, wait_for_person; see docs/mcp.md.'
  app.post('/mcp', { schema: { summary: 'MCP over Streamable HTTP: a JSON-RPC message', description: doc, body: McpMessage } }, handle)
  app.get('/mcp', { schema: { summary: 'MCP over Streamable HTTP: the session\'s server-to-client stream', description: doc } }, handle)
  app.delete('/mcp', { schema: { summary: 'MCP over Streamable HTTP: end the session', description: doc } }, handle)
}

// fastify-plugin only to expose `mcpSessions` (tests and shutdown read it); the routes are its own.
export default fp(mcpRoutes, { name: 'afhttp-mcp' })
