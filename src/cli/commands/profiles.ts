import type { ProfileBackend, ProfileCreateRequest, ProfileListing, Warning } from '../../client/index.js'
import { EXIT, printJson, printLines, table } from '../output.js'
import { UsageError, list, positionals, str } from '../args.js'
import type { HostCommand, CommandContext } from './command.js'

function labelsFrom (raw: string[]): Record<string, string> | undefined {
  if (raw.length === 0) return undefined
  const labels: Record<string, string> = {}
  for (const item of raw) {
    const eq = item.indexOf('=')
    if (eq < 1) throw new UsageError(`--label takes KEY=VALUE, got "${item}"`, 'profiles')
    labels[item.slice(0, eq)] = item.slice(eq + 1)
  }
  return labels
}

function row (p: ProfileListing): string[] {
  if ('error' in p) return [p.name, '-', `INVALID: ${p.error.code}`, p.error.message]
  const labels = Object.entries(p.labels ?? {}).map(([k, v]) => `${k}=${v}`).join(',')
  return [p.name, p.backend, p.updated_at, labels || '-']
}

function warningLines (warnings: Warning[]): string[] {
  return warnings.map((w) => `warning: ${w.code}: ${w.message}`)
}

async function create (ctx: CommandContext, name: string): Promise<number> {
  const backend = str(ctx.values, 'backend')
  if (backend !== undefined && backend !== 'chromium' && backend !== 'cdp') throw new UsageError(`--backend is chromium or cdp, got "${backend}"`, 'profiles')
  const input: ProfileCreateRequest = {
    name,
    backend: backend as ProfileBackend | undefined,
    cdp_url: str(ctx.values, 'cdp-url'),
    labels: labelsFrom(list(ctx.values, 'label')),
    // The network identity (docs/spec.md section 21); the host checks them and never echoes a proxy password.
    proxy: str(ctx.values, 'proxy'),
    timezone: str(ctx.values, 'timezone'),
    locale: str(ctx.values, 'locale')
  }
  const res = await ctx.client().createProfile(input)
  if (ctx.json) printJson(ctx.io, res)
  else printLines(ctx.io, [`created profile ${res.profile.name} (${res.profile.backend})`])
  if (!ctx.json && res.warnings.length) ctx.io.err(`${warningLines(res.warnings).join('\n')}\n`)
  return EXIT.ok
}

async function show (ctx: CommandContext, name: string): Promise<number> {
  const res = await ctx.client().getProfile(name)
  if (ctx.json) {
    printJson(ctx.io, res)
    return EXIT.ok
  }
  const p = res.profile
  const running = p.running === null ? 'unknown' : p.running.running ? `running${p.running.connected ? ', connected' : ', NOT connected'}` : 'not running'
  printLines(ctx.io, [
    `name      ${p.name}`,
    `backend   ${p.backend}${p.cdp_url ? ` (${p.cdp_url})` : ''}`,
    `browser   ${running}${p.running?.error ? ` (${p.running.error})` : ''}`,
    `labels    ${Object.entries(p.labels).map(([k, v]) => `${k}=${v}`).join(', ') || '-'}`,
    ...(p.proxy !== undefined ? [`proxy     ${p.proxy}`] : []),
    ...(p.timezone !== undefined ? [`timezone  ${p.timezone}`] : []),
    ...(p.locale !== undefined ? [`locale    ${p.locale}`] : []),
    `created   ${p.created_at}`,
    `updated   ${p.updated_at}`
  ])
  return EXIT.ok
}

export const profilesCommand: HostCommand = {
  name: 'profiles',
  summary: 'list, create or show browser profiles',
  help: `usage: afhttp profiles [--json]
       afhttp profiles create NAME [--backend chromium|cdp] [--cdp-url URL] [--label KEY=VALUE]...
                              [--proxy URL] [--timezone ZONE] [--locale TAG]
       afhttp profiles show NAME

Profiles are persistent browser data directories (cookies, storage) on the
host. Names match ^[a-z0-9][a-z0-9._-]{0,62}$. A profile whose metadata
cannot be read is listed as INVALID with the reason, never hidden.

A chromium profile may carry one network identity, used by every page it
loads from its browser's next start: --proxy (http://, https:// or socks5://,
optionally with user:password@; answers show the password as "redacted"),
--timezone (IANA, e.g. Europe/Paris) and --locale (BCP 47, e.g. fr-FR).`,
  options: { backend: { type: 'string' }, 'cdp-url': { type: 'string' }, label: { type: 'string', multiple: true }, proxy: { type: 'string' }, timezone: { type: 'string' }, locale: { type: 'string' } },
  access: 'token',
  async run (ctx) {
    const [sub, name] = ctx.positionals
    if (sub === 'create' || sub === 'show') {
      positionals('profiles', ctx.positionals, [sub, 'NAME'])
      return sub === 'create' ? create(ctx, name) : show(ctx, name)
    }
    if (sub !== undefined) throw new UsageError(`unknown profiles subcommand "${sub}" (use create or show)`, 'profiles')
    const res = await ctx.client().listProfiles()
    if (ctx.json) printJson(ctx.io, res)
    else if (res.profiles.length === 0) printLines(ctx.io, ['no profiles'])
    else printLines(ctx.io, table([['NAME', 'BACKEND', 'UPDATED', 'LABELS'], ...res.profiles.map(row)]))
    return EXIT.ok
  }
}
