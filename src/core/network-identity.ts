// A profile's network identity (docs/spec.md section 21): its egress proxy, timezone and locale.
// Pure checks and the redaction every answer uses; no message ever repeats a proxy URL.
import { PROFILE_METADATA_LIMITS as LIMITS } from '../limits.js'

import { NEXT_START_FIELDS, PROXY_SCHEMES, type NextStartField } from '../vocabulary/profile.js'

// The words live once, in src/vocabulary/profile.ts.
export { NEXT_START_FIELDS, PROXY_SCHEMES, type NextStartField }

/** Why a proxy URL is unusable, or undefined. The message never repeats the URL: it may hold a password. */
export function proxyProblem (value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a string'
  if (value.length > LIMITS.proxy) return `must be at most ${LIMITS.proxy} characters`
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'is not a valid URL'
  }
  if (!(PROXY_SCHEMES as readonly string[]).includes(url.protocol)) return 'must be an http://, https:// or socks5:// URL'
  if (url.hostname === '') return 'must name a host'
  if (url.pathname !== '' && url.pathname !== '/') return 'must not have a path'
  if (url.search !== '' || url.hash !== '') return 'must not have a query or a fragment'
  if (url.password !== '' && url.username === '') return 'has a password but no user name'
  return undefined
}

/** IANA names only (Region/City, UTC, Etc/GMT+5): TZ also reaches the browser's environment, where other forms mean other things. */
const TZ_RE = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/

export function timezoneProblem (value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a string'
  if (value.length > 64 || !TZ_RE.test(value)) return 'must be an IANA time zone name such as "Europe/Paris"'
  try {
    new Intl.DateTimeFormat('en', { timeZone: value })
  } catch {
    return 'is not a known IANA time zone'
  }
  return undefined
}

/** Language tags as browsers send them (`fr`, `fr-FR`, `zh-Hant-TW`); they become command-line flags, so nothing else passes. */
const LOCALE_RE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/

export function localeProblem (value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a string'
  if (value.length > 35 || !LOCALE_RE.test(value)) return 'must be a BCP 47 language tag such as "fr-FR"'
  try {
    Intl.getCanonicalLocales(value)
  } catch {
    return 'is not a valid BCP 47 language tag'
  }
  return undefined
}

/** The canonical spelling of a checked locale (`en-us` → `en-US`). */
export function canonicalLocale (value: string): string {
  return Intl.getCanonicalLocales(value)[0] ?? value
}

/** What Accept-Language / navigator.languages carry for a locale: the tag, then its language alone. */
export function acceptLanguages (locale: string): string[] {
  const base = locale.split('-')[0]
  return base === locale ? [locale] : [locale, base]
}

export const REDACTED = 'redacted'

/** A proxy URL fit for an answer or a log line: the password is replaced, the rest kept so an operator recognises it. */
export function redactProxy (value: string): string {
  try {
    const url = new URL(value)
    if (url.password !== '') url.password = REDACTED
    return url.href.replace(/\/$/, '')
  } catch {
    return '(unparseable proxy URL)'
  }
}

/** Metadata as answers show it: the proxy password redacted (docs/spec.md section 21). */
export function redactedMetadata<T extends { proxy?: string }> (meta: T): T {
  return meta.proxy === undefined ? meta : { ...meta, proxy: redactProxy(meta.proxy) }
}
