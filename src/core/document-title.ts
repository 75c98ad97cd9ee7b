// A captured document's title, near enough to `document.title`: the first <title>'s text,
// character references decoded, white space (a no-break space too) collapsed and trimmed. One
// reader for the MCP page summary (src/mcp/page.ts, where a page without a title says null) and
// for the tests that recognize captures without a browser (where it is '', as `document.title` is).
import { decodeCharReferences } from './char-reference.js'

const TITLE = /<title(?=[\s/>])[^>]*>([\s\S]*?)<\/title\s*>/i

/** The title's text, or null when the document has no title element. */
export function titleElementText (html: string): string | null {
  const match = TITLE.exec(html)
  return match === null ? null : decodeCharReferences(match[1]).replace(/\s+/g, ' ').trim()
}

/** `document.title`: '' when there is no title element. */
export function documentTitle (html: string): string {
  return titleElementText(html) ?? ''
}
