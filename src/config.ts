import { accessSync, constants } from 'node:fs'
import { delimiter, join, resolve } from 'node:path'
import { envSchema } from 'env-schema'
import { parseUrlDeny, type UrlDeny } from './core/url-deny.js'
import { BROWSER_MODES, planBrowserMode, type BrowserMode, type BrowserModePlan } from './core/browser-mode.js'

/** One frozen, typed view of the environment (docs/spec.md section 3). */
export interface Config {
  readonly host: string
  readonly port: number
  /** The configured token; undefined means "generate one in the profiles dir". */
  readonly token: string | undefined
  readonly profilesDir: string
  readonly publicUrl: string
  /** True when AFHTTP_PUBLIC_URL was set; otherwise publicUrl follows the bound address. */
  readonly publicUrlExplicit: boolean
  readonly chromiumPath: string
  /** True when AFHTTP_CHROMIUM named the executable explicitly. */
  readonly chromiumExplicit: boolean
  readonly defaultProfile: string
  readonly tabIdleMs: number
  readonly handoffHoldMs: number
  /** AFHTTP_OPS_TOKEN: reads only GET /health and GET /metrics (docs/spec.md section 12). */
  readonly opsToken?: string
  /** AFHTTP_WEBHOOK_URL / AFHTTP_WEBHOOK_SECRET: where events are POSTed and their HMAC key (docs/spec.md section 15). */
  readonly webhookUrl?: string
  readonly webhookSecret?: string
  /** AFHTTP_OPERATOR_TOKEN: exchanged at /inbox/login for the inbox cookie (docs/spec.md section 20); unset: no inbox. */
  readonly operatorToken?: string
  /** AFHTTP_PUSH_SUBJECT: the VAPID `sub` claim (mailto: or https:); default the https public URL, else a mailto. */
  readonly pushSubject?: string
  readonly logLevel: string
  /** docs/spec.md section 13: what was asked for (AFHTTP_BROWSER_MODE) ... */
  readonly browserModeConfigured: BrowserMode
  /** ... and what runs, resolved against this machine's display and Xvfb. */
  readonly browser: BrowserModePlan
  /** Unused windows kept open per running profile (docs/spec.md section 14). */
  readonly tabPool: number
  /** AFHTTP_URL_DENY: addresses no browser of this host may connect to (docs/spec.md section 21); undefined denies nothing. */
  readonly urlDeny?: UrlDeny
  /** Handoffs whose audit trail each profile keeps (docs/spec.md section 19); older ones are dropped. */
  readonly auditKeep: number
}

import { AUDIT_KEEP_DEFAULT, AUDIT_KEEP_MAX, MAX_HANDOFF_HOLD_MS, MAX_TAB_POOL } from './limits.js'
export { MAX_HANDOFF_HOLD_MS, MAX_TAB_POOL }
import { PROFILE_NAME_RE } from './vocabulary/profile.js'
export { PROFILE_NAME_RE }

const schema = {
  type: 'object',
  properties: {
    AFHTTP_HOST: { type: 'string', minLength: 1, default: '127.0.0.1' },
    AFHTTP_PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 8787 },
    AFHTTP_TOKEN: { type: 'string', minLength: 16 },
    AFHTTP_PROFILES_DIR: { type: 'string', minLength: 1, default: './profiles' },
    AFHTTP_PUBLIC_URL: { type: 'string', pattern: '^https?://[^\\s]+$' },
    AFHTTP_CHROMIUM: { type: 'string', minLength: 1 },
    AFHTTP_DEFAULT_PROFILE: { type: 'string', pattern: PROFILE_NAME_RE.source, default: 'default' },
    AFHTTP_TAB_IDLE_MS: { type: 'integer', minimum: 1000, default: 600_000 },
    AFHTTP_HANDOFF_HOLD_MS: { type: 'integer', minimum: 1000, maximum: MAX_HANDOFF_HOLD_MS, default: MAX_HANDOFF_HOLD_MS },
    AFHTTP_OPS_TOKEN: { type: 'string', minLength: 16 },
    AFHTTP_WEBHOOK_URL: { type: 'string', pattern: '^https?://[^\\s]+$' },
    AFHTTP_WEBHOOK_SECRET: { type: 'string', minLength: 16 },
    AFHTTP_OPERATOR_TOKEN: { type: 'string', minLength: 16 },
    AFHTTP_PUSH_SUBJECT: { type: 'string', pattern: '^(mailto:[^\\s]+|https://[^\\s]+)$' },
    AFHTTP_LOG_LEVEL: { type: 'string', enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
    AFHTTP_BROWSER_MODE: { type: 'string', enum: BROWSER_MODES, default: 'auto' },
    AFHTTP_TAB_POOL: { type: 'integer', minimum: 0, maximum: MAX_TAB_POOL, default: 2 },
    AFHTTP_URL_DENY: { type: 'string', minLength: 1 },
    AFHTTP_AUDIT_KEEP: { type: 'integer', minimum: 1, maximum: AUDIT_KEEP_MAX, default: AUDIT_KEEP_DEFAULT }
  }
} as const

interface RawEnv {
  AFHTTP_HOST: string
  AFHTTP_PORT: number
  AFHTTP_TOKEN?: string
  AFHTTP_PROFILES_DIR: string
  AFHTTP_PUBLIC_URL?: string
  AFHTTP_CHROMIUM?: string
  AFHTTP_DEFAULT_PROFILE: string
  AFHTTP_TAB_IDLE_MS: number
  AFHTTP_HANDOFF_HOLD_MS: number
  AFHTTP_OPS_TOKEN?: string
  AFHTTP_WEBHOOK_URL?: string
  AFHTTP_WEBHOOK_SECRET?: string
  AFHTTP_OPERATOR_TOKEN?: string
  AFHTTP_PUSH_SUBJECT?: string
  AFHTTP_LOG_LEVEL: string
  AFHTTP_BROWSER_MODE: BrowserMode
  AFHTTP_TAB_POOL: number
  AFHTTP_URL_DENY?: string
  AFHTTP_AUDIT_KEEP: number
}

/** A configuration problem, phrased as the one line an operator sees at start. */
export class ConfigError extends Error {
  constructor (readonly variable: string, why: string) {
    super(`invalid configuration: ${variable} ${why}`)
    this.name = 'ConfigError'
  }
}

function isExecutable (path: string): boolean {
  try { accessSync(path, constants.X_OK); return true } catch { return false }
}

/** The first executable called `name` on PATH. */
function onPath (name: string, pathEnv: string): string | undefined {
  return pathEnv.split(delimiter).filter(Boolean).map((dir) => join(dir, name)).find(isExecutable)
}

/** SPEC order: /usr/bin/chromium, then chromium, chromium-browser, google-chrome on PATH. */
export function findChromium (pathEnv = process.env.PATH ?? ''): string | undefined {
  if (isExecutable('/usr/bin/chromium')) return '/usr/bin/chromium'
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    const found = onPath(name, pathEnv)
    if (found) return found
  }
  return undefined
}

function isLoopback (host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host)
}

export function loadConfig (env: Record<string, string | undefined> = process.env): Config {
  const relevant = Object.fromEntries(Object.entries(env).filter(([k, v]) => k.startsWith('AFHTTP_') && v !== ''))
  let raw: RawEnv
  try {
    raw = envSchema<RawEnv>({ schema, data: relevant, dotenv: false, env: false })
  } catch (err) {
    const errors = (err as { errors?: Array<{ instancePath?: string, message?: string }> }).errors
    const first = errors?.[0]
    const variable = first?.instancePath?.replace(/^\//, '') || 'environment'
    throw new ConfigError(variable, first?.message ?? String(err))
  }

  // AFHTTP_CHROMIUM is a path, or a bare command name looked up on PATH.
  let chromiumPath = raw.AFHTTP_CHROMIUM
  if (chromiumPath !== undefined && !isExecutable(chromiumPath)) {
    const found = chromiumPath.includes('/') ? undefined : onPath(chromiumPath, env.PATH ?? '')
    if (!found) throw new ConfigError('AFHTTP_CHROMIUM', `is not an executable file: ${chromiumPath}`)
    chromiumPath = found
  }
  const browser = planBrowserMode({ configured: raw.AFHTTP_BROWSER_MODE, display: env.DISPLAY || undefined, xvfbPath: onPath('Xvfb', env.PATH ?? '') })
  if ('error' in browser) throw new ConfigError('AFHTTP_BROWSER_MODE', browser.error)
  // A shared value would make the ops token a full API token.
  if (raw.AFHTTP_OPS_TOKEN !== undefined && raw.AFHTTP_OPS_TOKEN === raw.AFHTTP_TOKEN) throw new ConfigError('AFHTTP_OPS_TOKEN', 'must differ from AFHTTP_TOKEN')
  // The operator cookie must never be worth an API (or ops) token: the same value would make it one.
  if (raw.AFHTTP_OPERATOR_TOKEN !== undefined && raw.AFHTTP_OPERATOR_TOKEN === raw.AFHTTP_TOKEN) throw new ConfigError('AFHTTP_OPERATOR_TOKEN', 'must differ from AFHTTP_TOKEN')
  if (raw.AFHTTP_OPERATOR_TOKEN !== undefined && raw.AFHTTP_OPERATOR_TOKEN === raw.AFHTTP_OPS_TOKEN) throw new ConfigError('AFHTTP_OPERATOR_TOKEN', 'must differ from AFHTTP_OPS_TOKEN')
  // Unsigned events would let anyone who can reach the receiver forge a handoff.
  if (raw.AFHTTP_WEBHOOK_URL !== undefined && raw.AFHTTP_WEBHOOK_SECRET === undefined) throw new ConfigError('AFHTTP_WEBHOOK_SECRET', 'must be set (at least 16 characters) when AFHTTP_WEBHOOK_URL is set')
  let urlDeny: UrlDeny | undefined
  try {
    urlDeny = raw.AFHTTP_URL_DENY === undefined ? undefined : parseUrlDeny(raw.AFHTTP_URL_DENY)
  } catch (err) {
    throw new ConfigError('AFHTTP_URL_DENY', `${(err as Error).message}: give CIDRs (e.g. 10.0.0.0/8) or "private", separated by commas`)
  }
  const publicHost = raw.AFHTTP_HOST === '0.0.0.0' || raw.AFHTTP_HOST === '::' ? '127.0.0.1' : raw.AFHTTP_HOST
  const hostForUrl = publicHost.includes(':') ? `[${publicHost}]` : publicHost

  return Object.freeze({
    host: raw.AFHTTP_HOST,
    port: raw.AFHTTP_PORT,
    token: raw.AFHTTP_TOKEN,
    profilesDir: resolve(raw.AFHTTP_PROFILES_DIR),
    publicUrl: (raw.AFHTTP_PUBLIC_URL ?? `http://${hostForUrl}:${raw.AFHTTP_PORT}`).replace(/\/+$/, ''),
    publicUrlExplicit: raw.AFHTTP_PUBLIC_URL !== undefined,
    chromiumPath: chromiumPath ?? findChromium(env.PATH) ?? '/usr/bin/chromium',
    chromiumExplicit: raw.AFHTTP_CHROMIUM !== undefined,
    defaultProfile: raw.AFHTTP_DEFAULT_PROFILE,
    tabIdleMs: raw.AFHTTP_TAB_IDLE_MS,
    handoffHoldMs: raw.AFHTTP_HANDOFF_HOLD_MS,
    opsToken: raw.AFHTTP_OPS_TOKEN,
    webhookUrl: raw.AFHTTP_WEBHOOK_URL,
    webhookSecret: raw.AFHTTP_WEBHOOK_SECRET,
    operatorToken: raw.AFHTTP_OPERATOR_TOKEN,
    pushSubject: raw.AFHTTP_PUSH_SUBJECT,
    logLevel: raw.AFHTTP_LOG_LEVEL,
    browserModeConfigured: raw.AFHTTP_BROWSER_MODE,
    browser,
    tabPool: raw.AFHTTP_TAB_POOL,
    auditKeep: raw.AFHTTP_AUDIT_KEEP,
    ...(urlDeny ? { urlDeny } : {})
  })
}

export { isLoopback }

/**
 * The path AFHTTP_PUBLIC_URL mounts the host under ('' or e.g. '/r/afhttp-2'), behind a proxy
 * that strips it: minted URLs, redirects and cookie paths carry it (docs/spec.md section 14).
 */
export function publicPathPrefix (config: Pick<Config, 'publicUrl'>): string {
  return new URL(config.publicUrl).pathname.replace(/\/+$/, '')
}

/** With port 0 the OS picks the port: minted panel URLs must name the one actually bound. */
export function withBoundPort (config: Config, port: number): Config {
  if (config.port !== 0 || config.publicUrlExplicit) return config
  const url = new URL(config.publicUrl)
  url.port = String(port)
  return Object.freeze({ ...config, port, publicUrl: url.origin })
}
