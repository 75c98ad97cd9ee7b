// The opening tags of raw markup with their attributes, read without a parser: what recognition
// (src/core/page-facts.ts and the detectors) looks at an element by. Pure, like the rest of src/core.
import type { Tag } from './tag.js'
import { decodeCharReferences } from './char-reference.js'

// A tag ends at its first '>' outside quotes, and no '<' stands outside quotes in it: an unclosed
// tag is then read only up to the next one, so a page of unclosed tags costs one pass, not a pass
// for each.
const TAG = /<([a-zA-Z][\w:-]*)((?:[^<>"']|"[^"]*"|'[^']*')*)>/g
const ATTR = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g

/** The elements' opening tags in a stretch of markup, with their attributes. */
export function tagsOf (markup: string): Tag[] {
  const tags: Tag[] = []
  // exec loops rather than matchAll: a large page has tens of thousands of tags, and the iterators
  // and destructured arrays cost more than the matching; a value without "&" has nothing to decode.
  const tag = new RegExp(TAG.source, TAG.flags)
  const attr = new RegExp(ATTR.source, ATTR.flags)
  for (let m = tag.exec(markup); m !== null; m = tag.exec(markup)) {
    const attrs: Record<string, string> = {}
    const raw = m[2]
    attr.lastIndex = 0
    for (let a = attr.exec(raw); a !== null; a = attr.exec(raw)) {
      const value = a[2] ?? a[3] ?? a[4] ?? ''
      attrs[a[1].toLowerCase()] = value.includes('&') ? decodeCharReferences(value) : value
    }
    tags.push({ name: m[1].toLowerCase(), attrs })
  }
  return tags
}
