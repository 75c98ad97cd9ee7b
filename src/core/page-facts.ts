// What the challenge detectors look at: facts computed once per observation from the
// rendered HTML, visible text and headers, plus the small predicates the detectors share.
// Pure, like the rest of src/core.
import { refreshesAtOnce, refreshTarget } from './client-redirect.js'
import { replaceElements, textOf } from './markup-elements.js'
import { builtAsApp } from './app-markup.js'
import type { Tag } from './tag.js'
import { tagsOf } from './markup-tags.js'

// Interstitials and denial notices run to a few dozen words (Cloudflare's block
// page, the longest common one, is ~120 but has a decisive title); a page with
// more visible words than this is treated as a document, not a notice.
export const SHORT_NOTICE_MAX_WORDS = 80
/** Words a page may carry and still be "little else": a gate's explanation, not a document. */
export const GATE_MAX_WORDS = 160

/** A caption's words at most: "Загрузка...", "Loading, please wait". */
export const CAPTION_MAX_WORDS = 3
/** A loading caption's words at most, the caption itself named (LOADING_CAPTION): "Loading, please wait while we get your page". */
export const LOADING_CAPTION_MAX_WORDS = 8
/** A loading caption and one sentence saying what is being fetched (STILL_LOADING), at most: "Just a moment! We're finding great stays for your dates and destination." */
export const LOADING_NOTE_MAX_WORDS = 16

// A few words in double quotation marks (never apostrophes: "you're"): a notice that quotes a
// check's words is about it, not it; but not the label a request tells to click or tick (Click
// "I'm not a robot" to continue).
const QUOTED = /(?<!\b(?:click|tick|check|select|press)(?: on| the)?\s)["“„«][^"“”„«»\n]{1,80}["”“»]/gi
/** The text with its quoted phrases left out. */
export function withoutQuotes (text: string): string {
  return text.replace(QUOTED, ' ')
}

/** A script that moves the page on (not one that merely reads where it is). */
export const NAVIGATES = /\blocation(?:\.href)?\s*=(?!=)|\blocation\.(?:replace|assign|reload)\s*\(/

/**
 * A loading caption at the start of a page's text, in the languages of the sites the corpus
 * holds and their neighbours ("Loading…", "Загрузка...", "加载中，请稍候"). Whole words where words
 * are spaced ("Aguardente" is no "aguarde"); Chinese and Japanese have no spaces to hold to, and
 * Korean adds its endings to the word ("로딩 중입니다"). \s also takes the no-break space that
 * innerText keeps.
 */
export const LOADING_CAPTION = new RegExp('^[^\\p{L}\\p{N}]*(?:(?:' + [
  'loading', 'please\\s+wait', 'one\\s+moment', 'redirecting', 'just\\s+a\\s+moment', 'processing',
  'cargando', 'espere', 'carregando', 'aguarde', 'chargement', 'veuillez\\s+patienter', 'merci\\s+de\\s+patienter', 'patientez',
  'caricamento', 'attendere', 'wird\\s+geladen', 'bitte\\s+warten', 'загрузка', 'подождите', 'перенаправление'
].join('|') + ')(?![\\p{L}\\p{N}])|加载中|载入中|載入中|请稍候|請稍候|请稍等|请稍后|読み込み中|ロード中|お待ちください|로딩|잠시만\\s*기다려)', 'iu')

// What follows a loading caption when the site says it is at work on the request ("We're finding
// great stays for your dates": Agoda's results page before its script draws them; twenty-eighth review).
export const STILL_LOADING = /\bwe(?:'|’| a)re (?:finding|searching|looking|loading|getting|preparing|fetching|gathering)\b/i

/** Statuses that are a denial when no challenge is recognized (SPEC §6). */
export const DENIAL_STATUSES: ReadonlySet<number> = new Set([401, 403, 407, 429, 451])
/** The statuses a security layer refuses a visitor with (Cloudflare's blocks, a WAF's block page). */
export const REFUSAL_STATUSES: ReadonlySet<number> = new Set([403, 429])

/** Answered with a status a security layer refuses a visitor with (REFUSAL_STATUSES). */
export function answeredRefusal (f: { status: number | null }): boolean {
  return f.status !== null && REFUSAL_STATUSES.has(f.status)
}
// Statuses providers serve their challenges with: the denials plus AWS WAF's and Distil's
// CAPTCHA (405), go-away's check (418, its default), Akamai sec-cpt (428), Cloudflare's legacy JS
// check (503), and Distil's block (416) and drop (456) pages — Distil's documented statuses
// ("Creating Custom Threat Response Pages"); a top-level navigation sends no Range header, so a
// document answered 416 is no range error. And 202: AWS WAF's challenge action answers it (its
// documented status), as DuckDuckGo's, SiteGround's and a Chinese government WAF's (WZWS) checks
// do; "accepted, not done yet" is no answer a page of content is served with.
const CHALLENGE_STATUSES = new Set([...DENIAL_STATUSES, 202, 405, 416, 418, 428, 456, 503])

/** What is observed of a page: the input of recognition (src/core/challenge.ts). */
export interface PageObservation {
  status: number | null
  url: string
  title: string
  html: string
  text: string
  headers?: Record<string, string>
}

export type { Tag } from './tag.js'
// Where the detectors have always found it.
export { tagsOf } from './markup-tags.js'

/** What the detectors look at, computed once per observation. */
export interface PageFacts {
  status: number | null
  /** The document's URL (after redirects): a challenge path says where the page came back. */
  url: string
  title: string
  text: string
  words: number
  /** No visible words at all. */
  blank: boolean
  /** A notice rather than a document (see SHORT_NOTICE_MAX_WORDS). */
  short: boolean
  /** Short, or served with a status providers challenge with. */
  blocking: boolean
  challengeStatus: boolean
  headers: Record<string, string>
  tags: Tag[]
  inlineScript: string
  /** The inline script lower-cased, once: where vendors' code is looked for (challenge-vendors.ts). */
  inlineScriptLower: string
  /** The markup as served, lower-cased: where weak vendor markers (names in URLs) are looked for. */
  markup: string
  /** The markup as a page shows it, lower-cased: comments gone; scripts, styles, templates and the like emptied. */
  shown: string
  /**
   * A blank page that is an application's shell (a mount point, or scripts from more than one
   * place): what a single-page app looks like before it renders, not an interstitial.
   */
  appShell: boolean
  /** Built like an application (a mount point, or scripts from several places), whatever it shows yet. */
  appMarkup: boolean
  /**
   * Where the page's fallback for browsers without JavaScript sends them at once
   * (`<noscript><meta http-equiv=refresh content="0;url=…">`): a page that exists to run its script
   * first says so here, and the address may name whose check it is.
   */
  noscriptAway: string[]
  /**
   * The words of that fallback (`<noscript>`), which a script-enabled Chromium does not show: a
   * check that runs its script first may say there what it is ("we need to make sure that you
   * are not a robot").
   */
  fallbackText: string
}

export interface Hit {
  evidence: string
  sufficient: boolean
  /**
   * Sufficient only as the one thing a blank page runs (a bot manager's sensor, which rides on
   * every page of a site it protects): where another vendor's own marker decides too, that vendor
   * names the page (DataDome's check behind Cloudflare's snippet: twenty-ninth review).
   */
  passive?: boolean
}
export interface Detection { hits: Hit[]; widget?: string }

// ---- facts and HTML scanning -----------------------------------------------

export function factsOf (obs: PageObservation): PageFacts {
  const words = countWords(obs.text)
  const challengeStatus = obs.status !== null && CHALLENGE_STATUSES.has(obs.status)
  const short = words <= SHORT_NOTICE_MAX_WORDS
  const { tags, inlineScript, noscriptAway, fallbackText, shown } = scanHtml(obs.html)
  const appMarkup = builtAsApp(tags)
  // The served markup and the inline script are lower-cased only when a detector reads them, once:
  // most pages never need the whole markup so, and lower-casing a large page that holds any
  // character past Latin-1 is slow (a tenth of the corpus's recognition time went to it).
  let markup: string | undefined
  let inlineScriptLower: string | undefined
  return {
    status: obs.status,
    url: obs.url,
    title: obs.title.replace(/\s+/g, ' ').trim(),
    text: obs.text,
    words,
    blank: words === 0,
    short,
    blocking: short || challengeStatus,
    challengeStatus,
    headers: Object.fromEntries(Object.entries(obs.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)])),
    tags,
    inlineScript,
    get inlineScriptLower () { return (inlineScriptLower ??= inlineScript.toLowerCase()) },
    get markup () { return (markup ??= obs.html.toLowerCase()) },
    shown: shown.toLowerCase(),
    appShell: words === 0 && appMarkup,
    appMarkup,
    noscriptAway,
    fallbackText
  }
}

// Ideographic scripts do not separate words with spaces. A run of Han, Hiragana or Katakana counts
// as one word for every two characters: a Chinese word is one to two characters and a Japanese one
// two to three, and the word limits here were set on languages that space their words. Counting
// each character as a word made a Chinese or Japanese notice look twice as long as the same
// notice in English (docs/decisions.md, "Ideographs are half a word each").
const IDEOGRAPHS = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}`
const WORD = new RegExp(`([${IDEOGRAPHS}]+)|[^\\s\\p{P}\\p{S}${IDEOGRAPHS}]+`, 'gu')
const IDEOGRAPHS_PER_WORD = 2

export function countWords (text: string): number {
  let words = 0
  for (const [word, ideographs] of text.matchAll(WORD)) words += ideographs === undefined ? 1 : Math.ceil([...word].length / IDEOGRAPHS_PER_WORD)
  return words
}

// Bodies whose markup is not elements of the page: script source, style, and
// fallbacks a script-enabled Chromium does not render.
// The name ends where the tag's name does: <style-swatch> is another element.
const OPAQUE_OPEN = /<(script|style|textarea|title|template|noscript)(?=[\s/>])((?:[^<>"']|"[^"]*"|'[^']*')*)>/gi

function scanHtml (html: string): { tags: Tag[]; inlineScript: string; noscriptAway: string[]; fallbackText: string; shown: string } {
  const scripts: string[] = []
  const fallbacks: string[] = []
  const stripped = replaceElements(html, OPAQUE_OPEN, ([, name, attrs], body) => {
    if (name.toLowerCase() === 'script' && !/type\s*=\s*["']?application\/(?:ld\+)?json/i.test(attrs)) scripts.push(body)
    if (name.toLowerCase() === 'noscript') fallbacks.push(body)
    return `<${name}${attrs}></${name}>`
  })
  const noscriptAway = fallbacks.flatMap(body => tagsOf(body))
    .filter(tag => isRefresh(tag) && refreshesAtOnce(tag.attrs.content))
    .map(tag => refreshTarget(tag.attrs.content ?? '')).filter(target => target !== '')
  const fallbackText = fallbacks.map(textOf).join(' ').replace(/\s+/g, ' ').trim()
  return { tags: tagsOf(stripped), inlineScript: scripts.join('\n'), noscriptAway, fallbackText, shown: stripped }
}


// ---- small predicates --------------------------------------------------------

/** A <meta http-equiv="refresh">: its content is read by client-redirect.ts. */
export function isRefresh (tag: Tag): boolean {
  return tag.name === 'meta' && /^refresh$/i.test(tag.attrs['http-equiv'] ?? '')
}

/** The address of a <link> that loads a stylesheet or preloads a resource for the page. */
export function loadedLink (tag: Tag): string | undefined {
  return tag.name === 'link' && /stylesheet|preload/i.test(tag.attrs.rel ?? '') ? tag.attrs.href : undefined
}

/**
 * A challenge status says a form's fields are the gate's to guard (a provider's page with a
 * CAPTCHA form), except 401: the answer to a sign-in, whose fields are the page; and 503: a
 * server's "back soon" page, whose notify-me form is its own (eleventh review). A CAPTCHA's own
 * answer box is no field (isField), so Amazon's 503 CAPTCHA keeps its shape.
 */
export function statusExcusesFields (f: PageFacts): boolean {
  return f.challengeStatus && f.status !== 401 && f.status !== 503
}

export function sure (evidence: string): Hit { return { evidence, sufficient: true } }
export function hint (evidence: string): Hit { return { evidence, sufficient: false } }

export function headerIs (f: PageFacts, name: string, value: string): boolean {
  return f.headers[name]?.trim().toLowerCase() === value
}

export function titleIs (f: PageFacts, title: string): boolean {
  return f.title.replace(/…/g, '...').toLowerCase() === title.toLowerCase()
}

export function hasSrc (f: PageFacts, pattern: RegExp, names = ['script', 'iframe']): boolean {
  return f.tags.some(tag => names.includes(tag.name) && pattern.test(tag.attrs.src ?? ''))
}

export function hasId (f: PageFacts, id: string): boolean {
  return f.tags.some(tag => tag.attrs.id === id)
}

export function firstId (f: PageFacts, ids: string[]): string | undefined {
  const id = ids.find(candidate => hasId(f, candidate))
  return id === undefined ? undefined : `#${id}`
}

export function hasClass (f: PageFacts, name: string): boolean {
  return f.tags.some(tag => hasClassName(tag, name))
}

function hasClassName (tag: Tag, name: string): boolean {
  return (tag.attrs.class ?? '').split(/\s+/).includes(name)
}

export function findVisible (f: PageFacts, match: (tag: Tag) => boolean): Tag | undefined {
  return f.tags.find(tag => match(tag) && !looksHidden(tag))
}

// CAPTCHA vendors render a visible widget into a container; the same class on
// a button or link binds an invisible check to that control (reCAPTCHA v3,
// invisible hCaptcha), which shows nothing to solve.
export function findVisibleWidget (f: PageFacts, className: string): Tag | undefined {
  return findVisible(f, tag => hasClassName(tag, className) && !['button', 'input', 'a'].includes(tag.name))
}

/** The page says nothing of its own: a word or three, or a loading caption. */
export function saysNothing (f: PageFacts): boolean {
  return saysLittle('', f.text)
}

/**
 * Beyond its title, the text says a word or three (an id, a trace) or a loading caption and little
 * more: a sign-in's "One moment – we sent a notification to your phone" starts with a caption too
 * (thirteenth review). The one measure of a quiet page.
 */
export function saysLittle (title: string, text: string): boolean {
  const rest = (title === '' ? text : text.split(title).join(' ')).trim()
  const words = countWords(rest)
  return words <= CAPTION_MAX_WORDS || (words <= LOADING_CAPTION_MAX_WORDS && LOADING_CAPTION.test(rest))
}

/** Answered as content is (2xx); an unknown status is not. */
export function answeredOk (f: PageFacts): boolean {
  return f.status !== null && f.status >= 200 && f.status < 300
}

// Only what the markup itself says; stylesheet-hidden elements look visible
// here, which is why the route should confirm widget_selector in the page.
export function looksHidden (tag: Tag): boolean {
  const style = inlineStyle(tag)
  return tag.attrs.hidden !== undefined || tag.attrs['data-size']?.toLowerCase() === 'invisible' ||
    style.includes('display:none') || style.includes('visibility:hidden') || hiddenByItsClass(tag)
}

/**
 * Hidden by a class the common stylesheets hide with, unless its inline style shows it (jQuery's
 * `.show()` leaves the class and sets a display: fifteenth review).
 */
export function hiddenByItsClass (tag: Tag): boolean {
  return hiddenByClass(tag.attrs.class ?? '') && !/(?:^|;)display:(?!none)/.test(inlineStyle(tag))
}

function inlineStyle (tag: Tag): string {
  return (tag.attrs.style ?? '').toLowerCase().replace(/\s+/g, '')
}

// The class names the common stylesheets hide with ("hidden", "hide", Bootstrap's "d-none" and
// "invisible", AngularJS's "ng-hide", Layui's "layui-hide"), unless a screen-size class shows the
// element again ("hidden md:block", "d-none d-md-flex"): VK's check keeps its close button so until
// it is needed.
const HIDING_CLASS = /(?:^|\s)(?:hidden|hide|d-none|is-hidden|invisible|ng-hide|layui-hide)(?:\s|$)/i
const SHOWN_AT_SIZE = /(?:^|\s)(?:[a-z0-9]+:(?!hidden)[a-z-]+|d-[a-z]{2,3}-(?!none)[a-z-]+)(?:\s|$)/i
function hiddenByClass (cls: string): boolean {
  return HIDING_CLASS.test(cls) && !SHOWN_AT_SIZE.test(cls)
}

const FIELD_TYPES = /^(?:|text|email|password|tel|search|number|url)$/

/** An element's type attribute as a browser reads it: trimmed, lower-cased, '' when absent. */
export function typeOf (tag: Tag): string {
  return (tag.attrs.type ?? '').trim().toLowerCase()
}

/** The elements of a form a person presses, picks from or types into. */
export const FORM_CONTROLS: ReadonlySet<string> = new Set(['button', 'input', 'select', 'textarea'])

/** A form's hidden value (<input type="hidden">): it carries a token, and is never shown. */
export function isHiddenInput (tag: Tag): boolean {
  return tag.name === 'input' && typeOf(tag) === 'hidden'
}

/** An input that is a button to press (type submit, button or image). */
export function isButtonInput (tag: Tag): boolean {
  return tag.name === 'input' && /^(?:submit|button|image)$/.test(typeOf(tag))
}

/** A visible field a person types into (a sign-in's, a search's, a contact form's); a CAPTCHA's own answer box is none. */
export function isField (tag: Tag): boolean {
  return typesInto(tag) && !captchaNamed(tag)
}

/** The page asks for a password in a field it shows: a sign-in page, whatever its banner says. */
export function asksForPassword (f: PageFacts): boolean {
  return f.tags.some(tag => tag.name === 'input' && typeOf(tag) === 'password' && !looksHidden(tag))
}

/** A CAPTCHA's own answer box: a visible field named for the CAPTCHA ("captcha_resp_txt"). */
export function isCaptchaAnswer (tag: Tag): boolean {
  return typesInto(tag) && captchaNamed(tag)
}

function typesInto (tag: Tag): boolean {
  return !looksHidden(tag) && (tag.name === 'textarea' || (tag.name === 'input' && FIELD_TYPES.test(typeOf(tag))) || isFieldElement(tag))
}

/** A CAPTCHA's own name for its parts: the word, or "seccode" (Discuz!'s and Sogou's security code). */
export const CAPTCHA_NAME = /captcha|seccode/i

function captchaNamed (tag: Tag): boolean {
  return CAPTCHA_NAME.test(`${tag.attrs.id ?? ''} ${tag.attrs.name ?? ''} ${tag.attrs.class ?? ''}`)
}

// A design system's own field (Material's <md-outlined-text-field>, <sl-input>, <ion-input>): its
// input lives in a shadow root the markup does not show (twelfth review).
const FIELD_ELEMENT = /-(?:input|text-?field|textarea)$/i
function isFieldElement (tag: Tag): boolean {
  return tag.name.includes('-') && FIELD_ELEMENT.test(tag.name) && FIELD_TYPES.test(typeOf(tag))
}

/** A visible box to tick: a radio button, a checkbox (a poll's answers, a form's options). */
export function isTickBox (tag: Tag): boolean {
  return !looksHidden(tag) && tag.name === 'input' && /^(?:radio|checkbox)$/.test(typeOf(tag))
}

/** A visible choice to make: a list or a box to tick. */
export function isChoice (tag: Tag): boolean {
  return (tag.name === 'select' && !looksHidden(tag)) || isTickBox(tag)
}
