// The MCP SDK's own client against the host: over Streamable HTTP (/mcp) or over stdio (the
// built `afhttp mcp`), optionally declaring URL elicitation and answering it as a test says.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ElicitationCompleteNotificationSchema, ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { Teardown } from './teardown.js'

export const ROOT = new URL('../..', import.meta.url).pathname

export interface Elicited { elicitationId: string, url: string, message: string }

export interface McpTestClient {
  client: Client
  transport: Transport
  /** URL elicitations received, in order. */
  elicited: Elicited[]
  /** `notifications/elicitation/complete` ids received, in order. */
  completed: string[]
  /** Progress messages received for tool calls made with `call`. */
  progress: string[]
  call: (name: string, args: Record<string, unknown>) => Promise<CallToolResult>
  close: () => Promise<void>
}

export interface McpClientOptions {
  /** Declare `elicitation: {url: {}}` and answer each elicitation with this (default: no URL elicitation). */
  answer?: (e: Elicited) => Promise<'accept' | 'decline' | 'cancel'> | 'accept' | 'decline' | 'cancel'
}

async function connect (t: Teardown, transport: Transport, opts: McpClientOptions): Promise<McpTestClient> {
  const client = new Client({ name: 'afhttp-test', version: '1.0.0' }, { capabilities: opts.answer ? { elicitation: { url: {} } } : {} })
  const elicited: Elicited[] = []
  const completed: string[] = []
  const progress: string[] = []
  if (opts.answer) {
    const answer = opts.answer
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      const p = req.params as { mode?: string, elicitationId: string, url: string, message: string }
      if (p.mode !== 'url') throw new Error(`expected a URL elicitation, got ${p.mode}`)
      const e = { elicitationId: p.elicitationId, url: p.url, message: p.message }
      elicited.push(e)
      return { action: await answer(e) }
    })
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => { completed.push(n.params.elicitationId) })
  }
  await client.connect(transport)
  let closed = false
  const close = async (): Promise<void> => {
    if (closed) return
    closed = true
    await client.close().catch(() => undefined)
  }
  t.teardown(close)
  return {
    client,
    transport,
    elicited,
    completed,
    progress,
    call: async (name, args) => {
      // takeover_unavailable is retryable: /health's bounded live checks (a screencast frame within
      // about a second) can miss on a machine this loaded; an agent retries, and so does the test.
      for (let attempt = 1; ; attempt++) {
        const r = await client.callTool({ name, arguments: args }, undefined, {
          timeout: 180_000,
          resetTimeoutOnProgress: true,
          onprogress: (p) => { if (p.message) progress.push(p.message) }
        }) as CallToolResult
        if (attempt >= 4 || toolError(r)?.code !== 'takeover_unavailable') return r
        await new Promise((resolve) => setTimeout(resolve, 2_000))
      }
    },
    close
  }
}

export async function mcpOverHttp (t: Teardown, url: string, token: string, opts: McpClientOptions = {}): Promise<McpTestClient> {
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', url), { requestInit: { headers: { authorization: `Bearer ${token}` } } })
  return connect(t, transport, opts)
}

export async function mcpOverStdio (t: Teardown, env: Record<string, string>, opts: McpClientOptions = {}): Promise<McpTestClient & { stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['dist/cli/index.js', 'mcp'],
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stderr: 'pipe'
  })
  let stderr = ''
  transport.stderr?.on('data', (d: Buffer) => { stderr += d.toString() })
  const c = await connect(t, transport, opts)
  return { ...c, stderr: () => stderr }
}

/** The structured result of a successful tool call (fails the test's expectations otherwise). */
export function structured (r: CallToolResult): any {
  if (r.isError) throw new Error(`tool error: ${JSON.stringify(r.content)}`)
  return r.structuredContent
}

/** The error envelope of a failed tool call. */
export function toolError (r: CallToolResult): { code: string, message: string, details: Record<string, unknown> } | undefined {
  if (!r.isError) return undefined
  const text = (r.content[0] as { text?: string } | undefined)?.text ?? '{}'
  return (JSON.parse(text) as { error: { code: string, message: string, details: Record<string, unknown> } }).error
}
