// A small stand-in for Chromium's `document.body.innerText` and `document.title`,
// good enough for the hand-written fixtures in test/fixtures/challenges: it drops
// what a script-enabled browser does not render (head, scripts, styles,
// noscript fallbacks, iframe fallbacks) and keeps the rest as collapsed text.
import { decodeCharReferences } from '../../src/core/char-reference.js'
import { replaceElements } from '../../src/core/markup-elements.js'

// Comments and raw-text elements, read in one pass as the browser's tokenizer reads them, by the
// recognizer's own reader (replaceElements): a "<!--" inside a stylesheet is its text, a "</style>"
// inside a comment closes nothing, an element never closed (a capture cut off inside its last
// script) runs to the end of the page, and inline SVG's self-closing <style/> is empty.
const NOT_RENDERED = /<(script|style|noscript|template|iframe|textarea|title)(?=[\s/>])(?:[^<>"']|"[^"]*"|'[^']*')*>/gi
// The head, once those are gone: its elements are tokens, so a "</head>" in its comment is none.
const HEAD = /<head(?=[\s/>])[^>]*>[\s\S]*?<\/head\s*>/gi
const LINE_BREAKING = /<\/?(?:address|article|aside|blockquote|br|center|dd|div|dl|dt|fieldset|figure|footer|form|h[1-6]|header|hr|li|main|nav|ol|p|pre|section|table|td|th|tr|ul)\b[^>]*>/gi

// Elements innerText leaves out with everything inside them: hidden by an inline style (a page's
// other languages, waiting for its script to pick one) or by a stylesheet rule for their id or one
// of their classes (X keeps its "Something went wrong" so, until its script fails), unless their
// own style shows them. Not
// the hidden attribute: streamed server-rendered pages park their content in <div hidden> until
// their inline script moves it in.
const DISPLAY_NONE = /(?:^|;)\s*display\s*:\s*none\b/i
const ATTRIBUTE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g

const DISPLAY_SHOWN = /(?:^|;)\s*display\s*:\s*(?!none\b)[a-z]/i

function isHidden (attrs: string, hiddenBy: ReadonlySet<string>): boolean {
  let ruled = false
  for (const [, name, ...values] of attrs.matchAll(ATTRIBUTE)) {
    const key = name.toLowerCase()
    const value = values.find(v => v !== undefined) ?? ''
    if (key === 'style' && DISPLAY_NONE.test(value)) return true
    if (key === 'style' && DISPLAY_SHOWN.test(value)) return false
    if (key === 'id' && hiddenBy.has(`#${value}`)) ruled = true
    if (key === 'class' && value.split(/\s+/).some(name => name !== '' && hiddenBy.has(`.${name}`))) ruled = true
  }
  return ruled
}

// Ids and classes the page's own stylesheet hides by a rule of their own, outside any @media block
// (`#loading-error { display: none }`: an error a check keeps for when its script fails). A
// stylesheet inside <noscript> is text to a script-enabled browser (X hides its `#react-root`
// there for browsers without script), so it hides nothing.
const STYLE_BLOCK = /<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi
const NOSCRIPT = /<noscript\b[^>]*>[\s\S]*?<\/noscript\s*>/gi

function hiddenByStyle (html: string): Set<string> {
  const hidden = new Set<string>()
  for (const [, css] of html.replace(NOSCRIPT, '').matchAll(STYLE_BLOCK)) {
    for (const [selectors, body] of rulesOf(outsideAtRules(css))) {
      if (!DISPLAY_NONE.test(body)) continue
      for (const selector of selectors.split(',')) {
        const alone = /^\s*([#.][\w-]+)\s*$/.exec(selector)
        if (alone !== null) hidden.add(alone[1])
      }
    }
  }
  return hidden
}

// Every `selectors { body }` of a stylesheet with no brace inside either part, in one pass: the
// selectors are all the text since the last brace. (A regular expression that says the same,
// /([^{}]+)\{([^{}]*)\}/g, retries from every character of a long run that no rule closes, and
// took most of the corpus test's time.)
function * rulesOf (css: string): Generator<[string, string]> {
  let runStart = 0
  for (let i = 0; i < css.length; i++) {
    if (css[i] === '}') {
      runStart = i + 1
      continue
    }
    if (css[i] !== '{') continue
    let close = i + 1
    while (close < css.length && css[close] !== '{' && css[close] !== '}') close++
    if (i > runStart && css[close] === '}') {
      yield [css.slice(runStart, i), css.slice(i + 1, close)]
      i = close
    }
    runStart = i + 1
  }
}

// A stylesheet without its at-rules (@media, @supports, @font-face blocks and @import
// statements): what is left applies on every screen.
function outsideAtRules (css: string): string {
  let out = ''
  let at = 0
  for (let i = css.indexOf('@'); i !== -1; i = css.indexOf('@', at)) {
    out += css.slice(at, i)
    const open = css.indexOf('{', i)
    const end = css.indexOf(';', i)
    if (open === -1 || (end !== -1 && end < open)) {
      at = end === -1 ? css.length : end + 1
      continue
    }
    let depth = 0
    let j = open
    for (; j < css.length; j++) {
      if (css[j] === '{') depth++
      else if (css[j] === '}' && --depth === 0) break
    }
    at = j + 1
  }
  return out + css.slice(Math.min(at, css.length))
}
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr'])

// Where a hidden element ends: its own closing tag, counting only its own name on the way (authors
// leave <p> and <li> unclosed, but not the <div> or <section> they hide), or, as the browser's
// parser has it, the closing tag of an element it sits in (one not opened inside it), which closes
// it too: a hidden element its author never closed hides the rest of its parent, not the page.
function dropHidden (html: string, hiddenBy: ReadonlySet<string>): string {
  let out = ''
  let at = 0
  let hidden: { name: string, opened: Map<string, number> } | undefined
  for (const m of html.matchAll(/<(\/?)([a-zA-Z][\w:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g)) {
    const [tag, closing, rawName, attrs] = m
    const name = rawName.toLowerCase()
    if (VOID.has(name) || attrs.endsWith('/')) continue
    if (hidden === undefined) {
      if (closing === '' && isHidden(attrs, hiddenBy)) {
        out += html.slice(at, m.index)
        hidden = { name, opened: new Map([[name, 1]]) }
      }
      continue
    }
    const open = hidden.opened.get(name) ?? 0
    if (closing === '') hidden.opened.set(name, open + 1)
    else if (open === 0) {
      at = m.index
      hidden = undefined
    } else {
      hidden.opened.set(name, open - 1)
      if (name === hidden.name && open === 1) {
        at = m.index + tag.length
        hidden = undefined
      }
    }
  }
  return hidden === undefined ? out + html.slice(at) : out
}

// A <details> element without the open attribute shows its <summary> only.
const CLOSED_DETAILS = /<details(?![^>]*\sopen(?![\w-]))[^>]*>([\s\S]*?)<\/details\s*>/gi
const SUMMARY = /<summary\b[^>]*>[\s\S]*?<\/summary\s*>/i

function closeDetails (html: string): string {
  return html.replace(CLOSED_DETAILS, (_, inside: string) => `<div>${SUMMARY.exec(inside)?.[0] ?? ''}</div>`)
}

export function visibleText (html: string): string {
  const hiddenBy = hiddenByStyle(html)
  const body = dropHidden(closeDetails(replaceElements(html, NOT_RENDERED, () => ' ')
    .replace(HEAD, ' ')), hiddenBy)
    .replace(LINE_BREAKING, '\n')
    // A '<' that does not open a tag ("< 3703…>", "a < b") is text, as the browser's tokenizer has it.
    .replace(/<(?:\/?[a-zA-Z]|[!?])[^>]*>/g, '')
    // The tree builder drops NUL characters in the body's text (a check's page padded with them).
    .replaceAll('\u0000', '')
  return decodeCharReferences(body)
    .split('\n')
    .map(line => line.replace(/[ \t\r\f\u00a0]+/g, ' ').trim())
    .filter(line => line !== '')
    .join('\n')
}

export { documentTitle } from '../../src/core/document-title.js'
