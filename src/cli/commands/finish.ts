import { EXIT, printJson, printLines } from '../output.js'
import { UsageError, positionals, str } from '../args.js'
import type { HostCommand } from './command.js'

export const finishCommand: HostCommand = {
  name: 'finish',
  summary: 'end a handoff from the driver side',
  help: `usage: afhttp finish TAB --fence FENCE [--json]

Ends the tab's open handoff (POST /v1/tabs/TAB/handoff/finish). FENCE is the
handoff_fence from the fetch result or "afhttp handoff"; a fence that is not
the current one is refused (handoff_fence_stale). Afterwards re-fetch or
snapshot the tab: observations from before are void.`,
  options: { fence: { type: 'string' } },
  access: 'token',
  async run (ctx) {
    const [tab] = positionals('finish', ctx.positionals, ['TAB'])
    const fence = str(ctx.values, 'fence')
    if (!fence) throw new UsageError('--fence FENCE is required', 'finish')
    const res = await ctx.client().finishHandoff(tab, fence)
    if (ctx.json) printJson(ctx.io, res)
    else printLines(ctx.io, [`finished handoff on ${tab}${res.state ? ` (state ${res.state}${res.finish_reason ? `, ${res.finish_reason}` : ''})` : ''}`])
    return EXIT.ok
  }
}
