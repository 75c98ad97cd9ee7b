import { positionals } from '../args.js'
import { EXIT } from '../output.js'
import type { HostCommand } from './command.js'

export const mcpCommand: HostCommand = {
  name: 'mcp',
  summary: 'serve MCP over stdio: tools for agents that ask a person when a page needs one',
  help: `usage: afhttp mcp

Serves the Model Context Protocol on stdin/stdout (docs/spec.md section 18) for an MCP
client that starts it as a command. Tools: fetch_page, snapshot, list_tabs,
close_tab, wait_for_person. Every call goes to the host(s) named by AFHTTP_URL
(several, comma-separated, are routed by profile) with AFHTTP_TOKEN.

When a page needs a person and the client supports URL elicitation, the person
is shown the panel link by the client and the call returns after their work;
other clients get the link in the result and call wait_for_person.
stdout carries only the protocol; the command ends when stdin closes.
See docs/mcp.md.`,
  access: 'token',
  async run (ctx) {
    positionals('mcp', ctx.positionals, [])
    // Loaded here, not at the top: every other command would pay for the SDK and zod at start.
    const [{ StdioServerTransport }, { createMcpServer }] = await Promise.all([
      import('@modelcontextprotocol/sdk/server/stdio.js'),
      import('../../mcp/server.js')
    ])
    const server = createMcpServer(ctx.client())
    const transport = new StdioServerTransport()
    const closed = new Promise<void>((resolve) => { server.onclose = resolve })
    // The client ends the session by closing our stdin; the SDK transport only watches for data.
    const end = (): void => { void server.close() }
    process.stdin.once('end', end)
    process.stdin.once('close', end)
    await server.connect(transport)
    await closed
    return EXIT.ok
  }
}
