import type { Health } from '../../client/index.js'
import { EXIT, printJson, printLines, table } from '../output.js'
import { positionals } from '../args.js'
import type { HostCommand } from './command.js'

function render (h: Health, baseUrl: string): string[] {
  const s = h.status
  const checks = h.takeover?.checks ?? []
  const lines = [
    `host      ${baseUrl}  (${s.host_build}; node ${h.build?.node ?? '?'}; ${h.build?.chromium ?? 'chromium unknown'})`,
    `running   ${s.running ? 'yes' : 'no'}`,
    `backend   ${s.backend_connected ? 'connected' : 'NOT connected'} (profile ${h.profile?.name ?? '?'}, ${h.profile?.backend ?? 'backend unknown'})`,
    `takeover  ${s.takeover_ready ? 'ready' : `NOT ready (${s.takeover_health})`}`
  ]
  if (h.backend_error) lines.push(`error     ${h.backend_error}`)
  if (checks.length) {
    lines.push('checks')
    lines.push(...table(checks.map((c) => ['  ' + c.name, c.ok ? 'ok' : 'FAILED', `${c.ms} ms`, c.error ?? ''])))
  }
  return lines
}

/** Exit 0 when takeover is ready, 4 when the host answers but is not (HTTP 503). */
export const healthCommand: HostCommand = {
  name: 'health',
  summary: 'live health of the host, its browser and takeover',
  help: `usage: afhttp health [--json]

Asks GET /health (a bounded live check of the default profile's browser).
Exit 0 when takeover is ready, 4 when the host or takeover is unavailable.`,
  access: 'token',
  async run (ctx) {
    positionals('health', ctx.positionals, [])
    const client = ctx.client()
    const h = await client.health()
    if (ctx.json) printJson(ctx.io, h)
    else printLines(ctx.io, render(h, client.baseUrl))
    return h.status.takeover_ready && h.status.backend_connected ? EXIT.ok : EXIT.unavailable
  }
}
