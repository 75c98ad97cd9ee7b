import { dirname } from 'node:path'
import { BACKENDS, LABEL_KEY_RE, PROFILE_NAME_RE, SCHEMA_VERSION, type Backend } from '../vocabulary/profile.js'
import { AfhttpError } from '../errors.js'
import { permissionsProblem } from './permissions.js'
import { canonicalLocale, localeProblem, proxyProblem, timezoneProblem } from './network-identity.js'
import { METADATA_KEYS, type ProfileCreateBody, type ProfileMetadata } from '../schemas/profiles.js'

/** docs/spec.md section 4: the metadata file inside every profile directory. */
export const METADATA_FILE = 'afhttp-profile.json'
export { BACKENDS, LABEL_KEY_RE, SCHEMA_VERSION, type Backend }

// The public shapes live once, in src/schemas/profiles.ts.
export type { ProfileMetadata }

/** Bounds shared by the HTTP schemas and the file parser, so the API can never write what the parser rejects. */
import { PROFILE_METADATA_LIMITS as LIMITS } from '../limits.js'
export { LIMITS }
export const CDP_URL_RE = /^(wss?|https?):\/\//i

const KEYS: ReadonlySet<string> = new Set(METADATA_KEYS)
const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/

/** Why a cdp_url is unusable, or undefined when it is fine. */
export function cdpUrlProblem (url: unknown): string | undefined {
  if (typeof url !== 'string') return 'must be a string'
  if (url.length > LIMITS.cdpUrl) return `must be at most ${LIMITS.cdpUrl} characters`
  if (!CDP_URL_RE.test(url)) return 'must be a ws://, wss://, http:// or https:// URL'
  try {
    new URL(url)
  } catch {
    return 'is not a valid URL'
  }
  return undefined
}

/** Why a label map is unacceptable, or undefined when it is fine. */
export function labelsProblem (labels: unknown): string | undefined {
  if (typeof labels !== 'object' || labels === null || Array.isArray(labels)) return 'must be an object of strings'
  const entries = Object.entries(labels)
  if (entries.length > LIMITS.labels) return `must have at most ${LIMITS.labels} entries`
  for (const [key, value] of entries) {
    if (!LABEL_KEY_RE.test(key)) return `key "${key.slice(0, 80)}" must match ${LABEL_KEY_RE.source}`
    if (typeof value !== 'string') return `"${key}" must be a string`
    if (value.length > LIMITS.labelValue) return `"${key}" must be at most ${LIMITS.labelValue} characters`
  }
  return undefined
}

/**
 * docs/spec.md section 21: the network identity fields, as `<field> <why>`. A proxy, timezone or locale is
 * applied by launching Chromium, so a `cdp` profile (a browser someone else started) has none.
 */
export function networkIdentityProblem (doc: { backend?: unknown, proxy?: unknown, timezone?: unknown, locale?: unknown }): string | undefined {
  const checks = [['proxy', proxyProblem], ['timezone', timezoneProblem], ['locale', localeProblem]] as const
  for (const [field, problemOf] of checks) {
    if (doc[field] === undefined) continue
    if (doc.backend === 'cdp') return `${field} applies only to profiles with backend "chromium"`
    const problem = problemOf(doc[field])
    if (problem) return `${field} ${problem}`
  }
  return undefined
}

function isIso (value: unknown): value is string {
  return typeof value === 'string' && ISO_RE.test(value) && !Number.isNaN(Date.parse(value))
}

/** The first schema violation in a parsed object, or undefined. */
function schemaProblem (doc: Record<string, unknown>): string | undefined {
  const unknown = Object.keys(doc).find((k) => !KEYS.has(k))
  if (unknown !== undefined) return `unknown field "${unknown.slice(0, 80)}"`
  if (doc.schema_version !== SCHEMA_VERSION) return `schema_version is ${JSON.stringify(doc.schema_version)}, expected ${SCHEMA_VERSION}`
  if (typeof doc.name !== 'string' || !PROFILE_NAME_RE.test(doc.name)) return 'name is missing or not a valid profile name'
  if (!BACKENDS.includes(doc.backend as Backend)) return `backend is ${JSON.stringify(doc.backend)}, expected "chromium" or "cdp"`
  if (doc.backend === 'cdp') {
    if (doc.cdp_url === undefined) return 'backend is "cdp" but cdp_url is missing'
    const problem = cdpUrlProblem(doc.cdp_url)
    if (problem) return `cdp_url ${problem}`
  } else if (doc.cdp_url !== undefined) {
    return 'cdp_url is set but backend is "chromium"'
  }
  const labels = labelsProblem(doc.labels)
  if (labels) return `labels ${labels}`
  const permissions = doc.permissions === undefined ? undefined : permissionsProblem(doc.permissions)
  if (permissions) return `permissions ${permissions}`
  const identity = networkIdentityProblem(doc)
  if (identity) return identity
  if (!isIso(doc.created_at)) return 'created_at is not an ISO 8601 time'
  if (!isIso(doc.updated_at)) return 'updated_at is not an ISO 8601 time'
  return undefined
}

/** A parse error at the very end of the text means the file was cut short (V8 words this several ways). */
function endsEarly (text: string, message: string): boolean {
  if (/end of (JSON )?input/i.test(message)) return true
  const at = /at position (\d+)/.exec(message)
  return at !== null && Number(at[1]) >= text.trimEnd().length
}

export interface ParseOptions {
  /**
   * The backend the directory itself shows (e.g. 'chromium' when browser/
   * holds a Chromium user-data-dir); undefined when the directory says nothing.
   */
  directoryBackend?: Backend
}

/**
 * The error an operator reads. It must say which file, that the cookies are
 * not known to be damaged, and how to repair by hand: the host never deletes
 * or recreates a profile to "fix" its metadata.
 */
export function metadataInvalid (filePath: string, dirName: string, problem: string, backend?: Backend): AfhttpError {
  const actualBackend = backend ? `"${backend}"` : 'its actual backend ("chromium" or "cdp")'
  return new AfhttpError('profile_metadata_invalid',
    `Profile metadata file ${filePath} is not valid: ${problem}. ` +
    'The browser data in this profile is not shown to be corrupt, and the host has changed nothing. ' +
    `Back up the profile directory ${dirname(filePath)}, then repair ${filePath} with its actual name "${dirName}" and backend ${actualBackend}.`,
    { file: filePath, problem, expected_name: dirName, ...(backend ? { expected_backend: backend } : {}) })
}

/** Reads metadata bytes for the profile directory `dirName`; throws profile_metadata_invalid on any defect. */
export function parseMetadata (bytes: Uint8Array | string, dirName: string, filePath: string, opts: ParseOptions = {}): ProfileMetadata {
  const fail = (problem: string): AfhttpError => metadataInvalid(filePath, dirName, problem, opts.directoryBackend)
  let text: string
  try {
    text = typeof bytes === 'string' ? bytes : new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw fail('the file is not UTF-8 text')
  }
  if (text.trim() === '') throw fail('the file is empty')
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch (err) {
    throw fail(endsEarly(text, (err as Error).message) ? 'the file ends before the JSON is complete (truncated)' : 'the file is not valid JSON')
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw fail('the file is not a JSON object')
  const record = doc as Record<string, unknown>
  const problem = schemaProblem(record)
  if (problem) throw fail(problem)
  if (record.name !== dirName) throw fail(`name is "${record.name}" but the directory is "${dirName}"`)
  if (opts.directoryBackend && record.backend !== opts.directoryBackend) {
    throw fail(`backend is "${record.backend}" but the directory holds ${opts.directoryBackend} browser data`)
  }
  return record as unknown as ProfileMetadata
}

/** Stable key order and a trailing newline, so files diff cleanly and hand edits stay easy. */
export function serializeMetadata (meta: ProfileMetadata): string {
  // The schema's field order; optional fields only when set; nothing the schema does not name.
  const ordered: Record<string, unknown> = {}
  for (const key of METADATA_KEYS) {
    if (key === 'schema_version') ordered[key] = SCHEMA_VERSION
    else if (meta[key] !== undefined) ordered[key] = meta[key]
  }
  return `${JSON.stringify(ordered, null, 2)}\n`
}

/** The `POST /v1/profiles` body. */
export type NewProfileInput = ProfileCreateBody

/** Metadata for a new profile; the caller has validated the input. */
export function newMetadata (input: NewProfileInput, now: Date = new Date()): ProfileMetadata {
  const at = now.toISOString()
  return {
    schema_version: SCHEMA_VERSION,
    name: input.name,
    backend: input.backend ?? 'chromium',
    ...(input.cdp_url !== undefined ? { cdp_url: input.cdp_url } : {}),
    labels: { ...(input.labels ?? {}) },
    ...(input.proxy !== undefined ? { proxy: input.proxy } : {}),
    ...(input.timezone !== undefined ? { timezone: input.timezone } : {}),
    ...(input.locale !== undefined ? { locale: canonicalLocale(input.locale) } : {}),
    created_at: at,
    updated_at: at
  }
}
