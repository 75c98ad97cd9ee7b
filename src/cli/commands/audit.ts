import { EXIT, printJson, printLines } from '../output.js'
import { UsageError, str } from '../args.js'
import type { HostCommand } from './command.js'
import type { AuditEntry } from '../../client/types.js'

/** One line per entry: time, fence, kind, then what the kind carries (never text or full URLs). */
export function auditLine (e: AuditEntry): string {
  const { at, handoff_fence: fence, kind, tab_id: tab, profile: _p, ...rest } = e
  const detail = Object.entries(rest).map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`).join(' ')
  return `${at}  ${fence}  ${tab}  ${kind}${detail ? `  ${detail}` : ''}`
}

export const auditCommand: HostCommand = {
  name: 'audit',
  summary: 'print the audit trail of a tab\'s handoffs or of a profile',
  help: `usage: afhttp audit TAB [--json]
       afhttp audit --profile NAME [--since ISO] [--limit N] [--json]

Prints who worked a handoff and what they did there (docs/spec.md section 19), oldest
first: minted, exchanged (the viewer's address and browser), control, navigated
(origin only), popup_opened, dialog_answered, file_uploaded, finished (reason,
by, outcome), expired, revoked. A tab's trail is readable after the tab is gone
and after a restart. The trail never holds typed text, cookie values, secrets
or full URLs.

  --profile NAME  the profile's trail across its handoffs (GET /v1/profiles/NAME/audit)
  --since ISO     only entries at or after this time
  --limit N       at most N entries (default 100)`,
  options: { profile: { type: 'string' }, since: { type: 'string' }, limit: { type: 'string' } },
  access: 'token',
  async run (ctx) {
    const profile = str(ctx.values, 'profile')
    const [tab] = ctx.positionals
    if ((profile === undefined) === (tab === undefined) || ctx.positionals.length > 1) throw new UsageError('give a TAB or --profile NAME (one of them)', 'audit')
    const limitText = str(ctx.values, 'limit')
    if (limitText !== undefined && !/^\d{1,7}$/.test(limitText)) throw new UsageError('--limit takes a number', 'audit')
    const res = profile !== undefined
      ? await ctx.client().profileAudit(profile, { since: str(ctx.values, 'since'), limit: limitText === undefined ? undefined : Number(limitText) })
      : await ctx.client().handoffAudit(tab as string)
    for (const w of res.warnings ?? []) ctx.io.err(`warning: ${w.code}: ${w.message}\n`)
    if (ctx.json) printJson(ctx.io, res)
    else printLines(ctx.io, [...res.entries.map(auditLine), ...(res.more ? ['(more entries: ask again with --since at the last time shown)'] : [])])
    return EXIT.ok
  }
}
