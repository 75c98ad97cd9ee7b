import { EXIT, printJson, printLines } from '../output.js'
import { positionals } from '../args.js'
import type { HostCommand } from './command.js'

export const capabilitiesCommand: HostCommand = {
  name: 'capabilities',
  summary: 'what the host is configured to do (public, no token needed)',
  help: `usage: afhttp capabilities [--json]

Asks GET /capabilities: configured support (wait strategies, captures,
limits, takeover). It describes configuration, not live availability; use
"afhttp health" for that.`,
  access: 'public',
  async run (ctx) {
    positionals('capabilities', ctx.positionals, [])
    const c = await ctx.client().capabilities()
    if (ctx.json) {
      printJson(ctx.io, c)
      return EXIT.ok
    }
    printLines(ctx.io, [
      `service         ${c.service} ${c.version} (API ${c.api_version})`,
      `takeover        ${c.takeover.configured ? 'configured' : 'not configured'} (${c.takeover.backend}, ${c.takeover.provider})`,
      `wait strategies ${c.wait_strategies.join(', ')}`,
      `captures        ${c.captures.join(', ')}`,
      `limits          ${Object.entries(c.limits).map(([k, v]) => `${k}=${v}`).join(', ')}`
    ])
    return EXIT.ok
  }
}
