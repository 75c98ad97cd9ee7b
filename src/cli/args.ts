import { parseHostList } from '../client/routing.js'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import type { Capture, WaitStrategy } from '../client/index.js'

/** A mistake in how the command was called: exit code 2 with a pointer to `--help`. */
export class UsageError extends Error {
  constructor (message: string, readonly command?: string) {
    super(message)
    this.name = 'UsageError'
  }
}

export type OptionSpec = NonNullable<ParseArgsConfig['options']>
export type Values = Record<string, string | boolean | Array<string | boolean> | undefined>

export const DEFAULT_URL = 'http://127.0.0.1:8787'

/** Options every command understands. */
export const GLOBAL_OPTIONS: OptionSpec = {
  url: { type: 'string' },
  token: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' }
}

export const GLOBAL_HELP = `global options:
  --url URL        host base URL (default: AFHTTP_URL, else ${DEFAULT_URL})
  --token TOKEN    API token (default: AFHTTP_TOKEN; prefer the variable: flags show up in ps)
  --json           print the host's exact JSON answer
  -h, --help       show this help`

/** Parses a command's arguments with `node:util` parseArgs; unknown flags are usage errors. */
export function parseCommandArgs (command: string, argv: string[], options: OptionSpec = {}): { values: Values, positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: { ...GLOBAL_OPTIONS, ...options }, allowPositionals: true, strict: true })
    return { values: values as Values, positionals }
  } catch (err) {
    // parseArgs messages are precise ("Unknown option '--x'"); keep them, drop its advice to use "--" which does not apply here.
    throw new UsageError((err as Error).message.replace(/\. To specify a positional argument.*$/s, ''), command)
  }
}

export function str (values: Values, name: string): string | undefined {
  const v = values[name]
  return typeof v === 'string' ? v : undefined
}

export function bool (values: Values, name: string): boolean {
  return values[name] === true
}

export function list (values: Values, name: string): string[] {
  const v = values[name]
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : []
}

/** Where to connect and with what; the token is never echoed anywhere. */
export interface Target { url: string, token: string | undefined, urlFromFlag: boolean }

export function resolveTarget (values: Values, env: Record<string, string | undefined>): Target {
  const flagUrl = str(values, 'url')
  const url = flagUrl ?? (env.AFHTTP_URL || DEFAULT_URL)
  try {
    // Several hosts, comma-separated, are routed by profile (docs/spec.md section 11).
    parseHostList(url)
  } catch {
    throw new UsageError(`--url/AFHTTP_URL must be an http(s) URL (or several, comma-separated), got "${url}"`)
  }
  return { url, token: str(values, 'token') ?? (env.AFHTTP_TOKEN || undefined), urlFromFlag: flagUrl !== undefined }
}

/** Checks exact positional counts: `names` are required, `optional` may follow. */
export function positionals (command: string, given: string[], names: string[], optional: string[] = []): string[] {
  if (given.length < names.length) throw new UsageError(`missing ${names.slice(given.length).join(' ')}`, command)
  if (given.length > names.length + optional.length) throw new UsageError(`unexpected argument "${given[names.length + optional.length]}"`, command)
  return given
}

export function positiveInt (command: string, flag: string, raw: string | undefined, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (raw === undefined) return undefined
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max) throw new UsageError(`${flag} must be a whole number from 1 to ${max}, got "${raw}"`, command)
  return Number(raw)
}

const CAPTURES: readonly Capture[] = ['html', 'text', 'screenshot']

export function parseCapture (command: string, raw: string | undefined): Capture[] | undefined {
  if (raw === undefined) return undefined
  const items = raw.split(',').map((s) => s.trim()).filter(Boolean)
  const bad = items.find((i) => !CAPTURES.includes(i as Capture))
  if (bad !== undefined || items.length === 0) throw new UsageError(`--capture takes a comma list of ${CAPTURES.join(', ')}${bad ? `; "${bad}" is not one` : ''}`, command)
  return [...new Set(items)] as Capture[]
}

const WAIT_RE = /^(load|domcontentloaded|networkidle|selector:.+|selector-stable:.+)$/s

export function parseWait (command: string, raw: string | undefined): WaitStrategy | undefined {
  if (raw === undefined) return undefined
  if (!WAIT_RE.test(raw)) throw new UsageError(`--wait must be load, domcontentloaded, networkidle, selector:<css> or selector-stable:<css>, got "${raw}"`, command)
  return raw as WaitStrategy
}

/** Quotes one word for a POSIX shell, for the command lines the CLI prints. */
export function shellQuote (word: string): string {
  return /^[A-Za-z0-9_./:=,@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}

/**
 * Finds the command word, letting global flags come first (`afhttp --url U health`).
 * Returns the command (or undefined) and every other argument in order.
 */
export function splitCommand (argv: string[]): { command: string | undefined, rest: string[] } {
  const lead: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--url' || arg === '--token') {
      lead.push(arg, ...argv.slice(i + 1, i + 2))
      i++
      continue
    }
    if (arg.startsWith('-')) {
      lead.push(arg)
      continue
    }
    return { command: arg, rest: [...lead, ...argv.slice(i + 1)] }
  }
  return { command: undefined, rest: lead }
}
