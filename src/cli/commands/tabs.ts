import { EXIT, formatDuration, printJson, printLines, table } from '../output.js'
import { positionals } from '../args.js'
import type { HostCommand } from './command.js'

export const tabsCommand: HostCommand = {
  name: 'tabs',
  summary: 'list open tabs with their controller and handoff',
  help: `usage: afhttp tabs [--json]

Lists the host's tabs (GET /v1/tabs): id, profile, controller, whether the
tab is retained, idle time, handoff state and URL.`,
  access: 'token',
  async run (ctx) {
    positionals('tabs', ctx.positionals, [])
    const res = await ctx.client().listTabs()
    if (ctx.json) {
      printJson(ctx.io, res)
      return EXIT.ok
    }
    if (res.tabs.length === 0) {
      printLines(ctx.io, ['no tabs'])
      return EXIT.ok
    }
    const rows = res.tabs.map((t) => [
      t.tab_id, t.profile, t.controller, t.retained ? 'retained' : '-', formatDuration(t.idle_ms),
      t.handoff ? t.handoff.state : '-', t.url
    ])
    printLines(ctx.io, table([['TAB', 'PROFILE', 'CONTROLLER', 'RETAINED', 'IDLE', 'HANDOFF', 'URL'], ...rows]))
    return EXIT.ok
  }
}
