import { EXIT, printJson, printLines } from '../output.js'
import { positionals, str } from '../args.js'
import type { HostCommand } from './command.js'

export const handoffCommand: HostCommand = {
  name: 'handoff',
  summary: 'mint a panel URL so a person can take over a tab',
  help: `usage: afhttp handoff TAB [--region CSS] [--ready-selector CSS] [--json]

Checks GET /health first (backend connected, takeover ready) and refuses with
exit 4 when takeover is unavailable; a host without /health gets a
liveness_unattested warning instead. Then mints a single-use panel URL for
the tab (POST /v1/tabs/TAB/handoff) and prints it on its own line.
Minting again while the handoff is open keeps its fence and expiry and
revokes the earlier unused URL.

  --region CSS          the part of the page to show the person
  --ready-selector CSS  content whose stable presence means the person is done`,
  options: { region: { type: 'string' }, 'ready-selector': { type: 'string' } },
  access: 'token',
  async run (ctx) {
    const [tab] = positionals('handoff', ctx.positionals, ['TAB'])
    const req = { region: str(ctx.values, 'region'), ready_selector: str(ctx.values, 'ready-selector') }
    const res = await ctx.client().handoff(tab, req)
    for (const w of res.warnings) ctx.io.err(`warning: ${w.code}: ${w.message}\n`)
    if (ctx.json) {
      printJson(ctx.io, res)
      return EXIT.ok
    }
    printLines(ctx.io, [
      `tab       ${tab}`,
      `fence     ${res.handoff_fence}`,
      `expires   ${res.expires_at}`,
      // A repeated request whose handoff has ended gets no URL; the warnings above say why.
      ...(res.takeover_url_secret ? ['open this panel URL (single use):', res.takeover_url_secret] : ['no panel URL: the handoff is no longer open'])
    ])
    return EXIT.ok
  }
}
