// The MCP server (docs/spec.md section 18) on the SDK's protocol layer. The low-level `Server` takes the
// tools' JSON Schema as it is, so the TypeBox schemas of src/schemas/mcp.ts are listed, checked
// and documented without a zod copy (McpServer wants zod shapes and would be a second source).
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js'
import { Compile, type Validator } from 'typebox/compile'
import { AfhttpClientError, type AfhttpClient } from '../client/index.js'
import { VERSION } from '../version.js'
import { TOOLS, type ToolDef } from './tools.js'
import { toolCallOf } from './tool-call.js'

const INSTRUCTIONS = 'afhttp fetches web pages in persistent browser profiles and asks a person when a page needs one (a bot check, a login). ' +
  'Use fetch_page; when its result has `person.needed`, either the client already showed the person a link (URL elicitation) or `person.panel_url` must reach a person, then wait_for_person. ' +
  'Errors carry the host\'s error codes (`{"error":{"code":…}}`).'

/** The schema as plain JSON (TypeBox schemas carry non-JSON markers). */
function json (schema: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>
}

interface Listed { def: ToolDef, check: Validator, tool: Tool }

const LISTED: ReadonlyMap<string, Listed> = new Map(TOOLS.map((def) => [def.name, {
  def,
  check: Compile(def.args),
  tool: {
    name: def.name,
    title: def.title,
    description: def.description,
    inputSchema: json(def.args) as Tool['inputSchema'],
    outputSchema: json(def.result) as Tool['outputSchema'],
    annotations: def.annotations
  }
}]))

/** A tool failure as a result the model reads (`isError`), carrying the SPEC envelope. */
export function toolError (code: string, message: string, details: Record<string, unknown> = {}, retryable = false): CallToolResult {
  const envelope = { error: { code, message, retryable, details } }
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(envelope) }] }
}

/** The first argument problem as the HTTP API words it: `invalid_request` naming the field. */
function argumentError (check: Validator, args: unknown): CallToolResult | undefined {
  if (check.Check(args)) return undefined
  const first = check.Errors(args)[0] as { instancePath?: string, keyword?: string, message?: string, params?: Record<string, unknown> } | undefined
  const path = (first?.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.')
  const extra = first?.params?.additionalProperties as string[] | undefined
  const missing = first?.params?.requiredProperties as string[] | undefined
  const field = extra?.length ? [path, extra[0]].filter(Boolean).join('.') : missing?.length ? [path, missing[0]].filter(Boolean).join('.') : path || 'arguments'
  const why = extra?.length ? 'is not a known argument' : missing?.length ? 'is required' : first?.message ?? 'is not valid'
  return toolError('invalid_request', `${field}: ${why}`, { field })
}

/** An MCP server whose tools call the host(s) `client` points at. */
export function createMcpServer (client: AfhttpClient): Server {
  const server = new Server({ name: 'afhttp', title: 'afhttp takeover host', version: VERSION }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS })
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...LISTED.values()].map((l) => l.tool) }))
  server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
    const listed = LISTED.get(req.params.name)
    if (!listed) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${req.params.name}`)
    const args = req.params.arguments ?? {}
    // Bad arguments are refused before anything reaches a host: nothing is opened.
    const refused = argumentError(listed.check, args)
    if (refused) return refused
    const call = toolCallOf(server, extra)
    try {
      const result = await listed.def.run(client, call, args as never) as Record<string, unknown>
      return { structuredContent: result, content: [{ type: 'text', text: JSON.stringify(result) }] }
    } catch (err) {
      if (call.signal.aborted) throw err
      if (err instanceof AfhttpClientError) return toolError(String(err.code), err.message, err.details, err.retryable)
      if (err instanceof McpError) return toolError('internal', `The MCP client failed a request: ${err.message}`, {}, true)
      throw err
    }
  })
  return server
}
