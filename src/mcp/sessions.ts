// The host's /mcp sessions (docs/spec.md section 18): one SDK Streamable HTTP transport and one MCP
// server per client session, found by `mcp-session-id`. A session ends when its client deletes
// it, when its client goes away in the middle of a stream (the tool call waiting on a person is
// then cancelled: the handoff stays, nothing keeps running), or after a long idle time.
import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js'
import { MCP_SESSION_IDLE_MS, MCP_SESSIONS_MAX } from '../limits.js'

interface Session {
  transport: StreamableHTTPServerTransport
  server: Server
  lastSeen: number
  /** Requests of this session whose answer is still being written. */
  active: number
  closed: boolean
}

function rpcError (res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }))
}

export class McpSessions {
  readonly #sessions = new Map<string, Session>()
  readonly #makeServer: () => Server
  readonly #now: () => number
  readonly #sweep: NodeJS.Timeout

  constructor (makeServer: () => Server, now: () => number = Date.now) {
    this.#makeServer = makeServer
    this.#now = now
    this.#sweep = setInterval(() => this.closeIdle(), Math.min(60_000, MCP_SESSION_IDLE_MS))
    this.#sweep.unref()
  }

  /** Open sessions (for tests and metrics). */
  get size (): number { return this.#sessions.size }

  /** Answers one /mcp request (GET, POST or DELETE); the caller has checked the bearer token. */
  async handle (req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const header = req.headers['mcp-session-id']
    const id = Array.isArray(header) ? header[0] : header
    if (id !== undefined) {
      const session = this.#sessions.get(id)
      if (!session) return rpcError(res, 404, -32001, 'Session not found: initialize a new one.')
      return this.#serve(session, req, res, body)
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) return rpcError(res, 400, -32000, 'Bad Request: no valid mcp-session-id; start with an initialize request.')
    if (this.#sessions.size >= MCP_SESSIONS_MAX) return rpcError(res, 429, -32000, `At most ${MCP_SESSIONS_MAX} MCP sessions may be open at once; close one (DELETE /mcp) or wait.`)
    const server = this.#makeServer()
    const session: Session = { transport: undefined as unknown as StreamableHTTPServerTransport, server, lastSeen: this.#now(), active: 0, closed: false }
    session.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => { this.#sessions.set(sid, session) },
      onsessionclosed: (sid) => { this.#sessions.delete(sid) }
    })
    server.onclose = () => {
      session.closed = true
      const sid = session.transport.sessionId
      if (sid !== undefined) this.#sessions.delete(sid)
    }
    await server.connect(session.transport)
    return this.#serve(session, req, res, body)
  }

  async #serve (session: Session, req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    session.lastSeen = this.#now()
    session.active += 1
    res.once('close', () => {
      session.active -= 1
      session.lastSeen = this.#now()
      // The client went away mid-answer (a tool call's stream, the notification stream): end the
      // session, which cancels what it was running. A client that returns initializes again.
      if (!res.writableFinished && !session.closed) void this.#close(session)
    })
    await session.transport.handleRequest(req, res, body)
  }

  async #close (session: Session): Promise<void> {
    if (session.closed) return
    session.closed = true
    const sid = session.transport.sessionId
    if (sid !== undefined) this.#sessions.delete(sid)
    await session.server.close().catch(() => undefined)
  }

  /** Ends sessions nobody used for MCP_SESSION_IDLE_MS (none of their requests is running). */
  closeIdle (): void {
    const now = this.#now()
    for (const s of [...this.#sessions.values()]) if (s.active === 0 && now - s.lastSeen >= MCP_SESSION_IDLE_MS) void this.#close(s)
  }

  /** Host shutdown: every session ends, so no stream holds the server open. */
  async closeAll (): Promise<void> {
    clearInterval(this.#sweep)
    await Promise.all([...this.#sessions.values()].map((s) => this.#close(s)))
  }
}
