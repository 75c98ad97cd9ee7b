// A page's address read the way recognition needs it; an address that does not parse reads as
// nothing (or, resolved, as itself). Pure, like the rest of src/core.

export function resolve (target: string, base: string): string {
  try { return new URL(target, base).href } catch { return target }
}

/** The address without its query and fragment: what names the file a page loads. */
export function withoutQuery (url: string): string {
  return url.replace(/[?#].*$/, '')
}

export function originOf (url: string): string {
  try { return new URL(url).origin } catch { return '' }
}

export function pathOf (url: string): string {
  try { return new URL(url).pathname } catch { return '' }
}

/** `target`, resolved against `url`, is the same document: same origin and path, whatever its query. */
export function samePage (target: string, url: string): boolean {
  const resolved = resolve(target, url)
  return originOf(resolved) !== '' && originOf(resolved) === originOf(url) && pathOf(resolved) === pathOf(url)
}
