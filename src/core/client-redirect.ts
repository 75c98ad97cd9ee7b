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
