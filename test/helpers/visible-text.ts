// A small stand-in for Chromium's `document.body.innerText` and `document.title`,
// good enough for the hand-written fixtures in test/fixtures/challenges: it drops
// what a script-enabled browser does not render (head, scripts, styles,
// noscript fallbacks, iframe fallbacks) and keeps the rest as collapsed text.

const NOT_RENDERED = /<(head|script|style|noscript|template|iframe|textarea|title)\b[^>]*>[\s\S]*?<\/\1\s*>/gi
const LINE_BREAKING = /<\/?(?:address|article|aside|blockquote|br|center|dd|div|dl|dt|fieldset|figure|footer|form|h[1-6]|header|hr|li|main|nav|ol|p|pre|section|table|td|th|tr|ul)\b[^>]*>/gi

const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', hellip: '…', bull: '•', mdash: '—', ndash: '–', euro: '€'
}

export function decodeEntities (s: string): string {
  return s.replace(/&(?:#(\d+)|#x([0-9a-f]+)|([a-z]+));/gi, (m, dec?: string, hex?: string, name?: string) => {
    if (dec !== undefined) return String.fromCodePoint(Number(dec))
    if (hex !== undefined) return String.fromCodePoint(parseInt(hex, 16))
    return NAMED[name!.toLowerCase()] ?? m
  })
}

export function visibleText (html: string): string {
  const body = html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(NOT_RENDERED, ' ')
    .replace(LINE_BREAKING, '\n')
    .replace(/<[^>]*>/g, '')
  return decodeEntities(body)
    .split('\n')
    .map(line => line.replace(/[ \t\r\f\u00a0]+/g, ' ').trim())
    .filter(line => line !== '')
    .join('\n')
}

export function documentTitle (html: string): string {
  const match = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html)
  return match === null ? '' : decodeEntities(match[1]).replace(/\s+/g, ' ').trim()
}
