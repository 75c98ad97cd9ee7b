// A page's address read the way recognition needs it; an address that does not parse reads as
// nothing (or, resolved, as itself). Pure, like the rest of src/core.

/** `target` parsed, resolved against `base` when given; an address that does not parse is undefined. */
export function urlOf (target: string, base?: string): URL | undefined {
  try { return new URL(target, base) } catch { return undefined }
}

export function resolve (target: string, base: string): string {
  return urlOf(target, base)?.href ?? target
}

/** The address without its query and fragment: what names the file a page loads. */
export function withoutQuery (url: string): string {
  return url.replace(/[?#].*$/, '')
}

export function originOf (url: string): string {
  return urlOf(url)?.origin ?? ''
}

/**
 * An address whose last path segment names a CAPTCHA, a challenge, a "punish" step or an anti-bot
 * check (/errors/validateCaptcha, /challenge?token=…): a check's own page or the address its answer
 * goes to, not a resource under such a directory (…/recaptcha/api.js).
 */
export const CHALLENGE_SEGMENT = /\/(?:[\w-]*captcha|[\w-]*challenges?|punish|anti-?bot)\/?(?:[?#]|$)/i

export function pathOf (url: string): string {
  return urlOf(url)?.pathname ?? ''
}

/**
 * The last two labels of an address's host ("parklogic.com"): near enough to a registered name to
 * tell another site from the page's own (not its www, not its other scheme).
 */
export function siteOf (url: string): string {
  return urlOf(url)?.hostname.split('.').slice(-2).join('.') ?? ''
}

/** `target`, resolved against `url`, is the same document: same origin and path, whatever its query. */
export function samePage (target: string, url: string): boolean {
  const resolved = resolve(target, url)
  return originOf(resolved) !== '' && originOf(resolved) === originOf(url) && pathOf(resolved) === pathOf(url)
}
