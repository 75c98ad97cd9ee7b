// Whether a page is about to send itself on (docs/spec.md section 6: a fetch follows a page that
// does so at once). Pure; src/fetch/client-redirects.ts watches the browser and asks this.

/** A navigation due at most this far ahead is followed; a longer countdown is a page meant to be read. */
export const FOLLOW_MAX_DELAY_S = 1

/**
 * The delay in seconds of a refresh (`<meta http-equiv="refresh" content>` or a `Refresh` header:
 * "0", "0; url=/next", "1;URL='x'"), or undefined when the value is not one. Browsers read the
 * leading number and ignore the rest of a malformed value; so does this.
 */
export function refreshDelay (value: string | null | undefined): number | undefined {
  const match = /^\s*(\d+(?:\.\d*)?|\.\d+)/.exec(value ?? '')
  return match === null ? undefined : Number(match[1])
}

/** A refresh that will fire soon enough to be a redirect rather than a page to read. */
export function refreshesAtOnce (value: string | null | undefined): boolean {
  const delay = refreshDelay(value)
  return delay !== undefined && delay <= FOLLOW_MAX_DELAY_S
}

/**
 * The address of a refresh ("0;url=/next", "0; URL='/next'", "0, /next"), or '' when it reloads the
 * page itself ("60"): what follows the delay and its separator, with an optional url= and quotes.
 */
export function refreshTarget (value: string): string {
  const rest = /^\s*[\d.]*\s*[;,]?\s*(.*)$/s.exec(value)?.[1] ?? ''
  return rest.replace(/^url\s*=\s*/i, '').replace(/^(['"])(.*)\1$/s, '$2').trim()
}
