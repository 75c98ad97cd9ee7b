import { EXIT, printJson, printLines } from '../output.js'
import { positionals } from '../args.js'
import type { HostCommand } from './command.js'

export const closeCommand: HostCommand = {
  name: 'close',
  summary: 'close a tab (also revokes its handoff)',
  help: `usage: afhttp close TAB [--json]

Closes a tab through the host's window-anchor guard (DELETE /v1/tabs/TAB).
This is the explicit escape path: it also revokes an open handoff.`,
  access: 'token',
  async run (ctx) {
    const [tab] = positionals('close', ctx.positionals, ['TAB'])
    const res = await ctx.client().closeTab(tab)
    if (ctx.json) printJson(ctx.io, res)
    else printLines(ctx.io, [`closed ${res.tab_id}`])
    return EXIT.ok
  }
}
