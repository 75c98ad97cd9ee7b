// Challenge and page-kind recognition (SPEC §6). Pure: the fetch route hands in
// what the browser observed (status, headers, rendered HTML, visible text) and
// gets back what kind of page it is. Nothing here touches a page or the network.
//
// A gate is known by its shape, vendors only name it (docs/decisions.md, "Recognition by what a
// gate is"): a vendor's own markers (script and frame sources, ids, headers, exact titles) decide
// first, each saying whether it is sufficient on its own or only on a page shaped like a block,
// since many also ride on ordinary pages (sensor scripts, invisible widgets, CDN headers); then
// the page's shape (gate-shape.ts), which reads what the page asks in its title, headings and a
// short notice's words, never in a document's; last the generic wording rules.

import { DENIAL_STATUSES, GATE_MAX_WORDS, LOADING_CAPTION, asksForPassword, hasClass, hasId, LOADING_CAPTION_MAX_WORDS, LOADING_NOTE_MAX_WORDS, STILL_LOADING, factsOf, type Detection, type PageFacts, type PageObservation } from './page-facts.js'
import { DETECTORS } from './challenge-providers.js'
import { cloudflareErrorPage } from './challenge-markers.js'
import { genericWording } from './challenge-wording.js'
import { infrastructureNamed, infrastructureOf, isCaptchaVendor, vendorNamedIn, vendorOf } from './challenge-vendors.js'
import { gateShape, type GateShape } from './gate-shape.js'
import { REFUSED } from './gate-words.js'
import type { Challenge, PageKind } from '../schemas/fetch.js'

export { DENIAL_STATUSES, countWords } from './page-facts.js'

// What is observed of a page lives with the facts read from it (src/core/page-facts.ts).
export type { PageObservation } from './page-facts.js'

// The public shapes (page_kind, challenge) live once, in src/schemas/fetch.ts.
export type { PageKind }

export interface Recognition {
  page_kind?: PageKind
  challenge?: Challenge
  widget_selector?: string
}

// "Real content": at least this many words, so "Loading…" or a lone spinner
// label is not taken as the page a driver asked for.
const CONTENT_MIN_WORDS = 3

const DENIAL_TEXT = /\baccess (?:is |has been )?denied\b|\bforbidden\b|\byou (?:do not|don't|don’t) have permission\b|\bnot authori[sz]ed\b|\b(?:you have been|you've been|you are|your ip(?: address)? (?:has been|is)) blocked\b|\brequest (?:is |was |has been )?(?:blocked|rejected)\b|\b(?:this|the) (?:web ?site|site|page|url) (?:is|has been|was) blocked\b|\btoo many requests\b|\brate limit(?:ed| exceeded)\b|\bdoing that too often\b|zu viele anfragen|trop de requêtes|demasiadas solicitudes|请求过于频繁|請求過於頻繁|слишком много запросов/i

// A refusal for where the visitor is: a geo-block, which asks for no step (a betting site's "from
// a country where gambling is restricted … you cannot access", a firewall's "Access from your
// Country was disabled", "not available in your region", Qwant's "not yet available in your
// country"; twenty-seventh and twenty-eighth reviews).
const GEO_DENIAL = /\b(?:not (?:yet |currently |presently )?available|unavailable|not accessible) (?:in|from) your (?:country|region|territory|location)\b|\b(?:blocked|restricted) (?:in|from) your (?:country|region)\b|\baccess from your (?:country|region)\b[^.]{0,30}\b(?:blocked|restricted|disabled|denied|not (?:allowed|permitted))\b|\b(?:from|in) a (?:country|region|territory) where\b[^.]{0,80}\b(?:restricted|prohibited|not (?:allowed|available|permitted))\b/i

// A title that is an error status and its reason phrase (which names the error: a short page titled
// "404 Media" is a newsroom's), and nothing else but the site's name after a bar or a dash
// ("404 Not Found | Viator": thirty-first review).
const ERROR_STATUS_TITLE = /^(?:error )?[45]\d\d\b\s*[:|–—-]?\s*(?=[^]{0,40}?\b(?:not found|error|bad (?:gateway|request)|unavailable|gone|not allowed|not implemented|timed?[ -]?out|nicht gefunden|introuvable|no encontrad|non trovat|não encontrad|nie znalezion)\b)[a-z][a-z .-]{2,40}(?:\s*[|–—]\s*[^|–—]{1,40})?$/i

// A title that calls the page an error page: the word alone beside the site's name ("GetYourGuide –
// Error"), or what failed and the word ("Site Error" on Steam's page served with 200, "Server
// Error", "Application Error": thirty-third review), or "error page" / "system error" in so many
// words in any language ("[에러] 에러페이지 - 시스템오류" on a store's page served with 200;
// thirty-first review). Where a title merely holds the word ("Error handling in Go", "Site Error
// Codes Explained"), the word has company.
const ERROR_PAGE_TITLE = new RegExp([
  String.raw`(?:^|[|:–—-]\s*)(?:(?:site|server|application|internal) )?(?:error|erreur|fehler|oops)(?:\s*(?:[|/:–—-]|$))`,
  String.raw`\berror page\b|\bsystem error\b|에러 ?페이지|오류 ?페이지|시스템 ?오류|エラーページ|システムエラー|系统错误|系統錯誤|错误页面|錯誤頁面|\bpágina de error\b|\bpage d'erreur\b|\bfehlerseite\b|\bsystemfehler\b`
].join('|'), 'i')

// A title that says the site is down for maintenance ("Site under maintenance", "Down for
// Maintenance", "Maintenance Mode", "We'll be back soon!", "Wartungsarbeiten", "メンテナンス中",
// "시스템 점검"), or is that word alone beside the site's name ("Outbrain | Maintenance"): where a
// business's title names the work it sells ("Aircraft Maintenance Solutions"), the word has company.
const MAINTENANCE_TITLE = new RegExp([
  String.raw`\b(?:under(?:going)?(?: scheduled)?|down for|in|during|scheduled|planned|site|system|server) maintenance\b`,
  String.raw`\bmaintenance (?:mode|in progress|work|outage|en cours|notice|page)\b`,
  String.raw`(?:^|[|:–—-]\s*)(?:maintenance|wartung(?:sarbeiten)?|onderhoud|mantenimiento|manutenzione|メンテナンス)(?:\s*(?:[|/:–—-]|$))`,
  String.raw`\b(?:we(?:'|’)?ll|we will) be back soon\b|^back soon\b`,
  String.raw`\bwartungsarbeiten\b|\bin manutenzione\b|\b(?:en|modo de|tareas de|labores de) mantenimiento\b|\bmaintenance en cours\b|メンテナンス中|점검 ?(?:중|공지)|维护中|維護中|технически[ехй] работ`
].join('|'), 'i')

export function recognizePage (obs: PageObservation): Recognition {
  const facts = factsOf(obs)
  // Cloudflare's own error page whose code is an error's, not a block's, is that error, whatever
  // status it came with and however it is signed (1003 "Direct IP access not allowed" at 403,
  // over a Ray ID: thirty-second review): neither a challenge nor a denial.
  if (cloudflareErrorOnly(facts)) return { page_kind: 'http_error' }
  const challenge = detectChallenge(facts)
  if (challenge !== undefined) {
    const { provider, evidence, widget } = challenge
    return { page_kind: 'challenge', challenge: { provider, evidence }, ...(widget !== undefined && { widget_selector: widget }) }
  }
  const pageKind = classifyPage(facts)
  return pageKind === undefined ? {} : { page_kind: pageKind }
}

// Without a challenge: denial statuses, then other errors, then a blank page;
// a short notice with denial wording is a denial whatever its status. Only a
// 2xx page is content, and only with at least CONTENT_MIN_WORDS words that are
// not a loading placeholder.
// Everything else stays unclassified: the host cannot tell.
function classifyPage (f: PageFacts): PageKind | undefined {
  // Chromium's own page for a navigation that got no answer ("This page isn't working …
  // ERR_TOO_MANY_REDIRECTS", "ERR_NETWORK_CHANGED"), which a scraper saves as the page it got:
  // an error, whatever status it is passed with (twenty-ninth review).
  if (isBrowserErrorPage(f)) return 'http_error'
  if (f.status !== null && DENIAL_STATUSES.has(f.status)) return 'denied'
  // A refusal titled as one ("Web Page Blocked", "Access Denied") is a denial whatever error status
  // it comes with: a corporate web filter answers 503 (thirty-second review, batch 74).
  if (f.status !== null && f.status >= 400 && f.words <= GATE_MAX_WORDS && titleSized(f.title) && REFUSED.test(f.title)) return 'denied'
  if (f.status !== null && f.status >= 400) return 'http_error'
  if (f.text.trim() === '') return 'empty'
  // A sign-in page is content (below), even when its banner warns "do not proceed if you are not
  // authorized": the denial's words say what the page refuses only where it asks for nothing.
  if (f.short && !asksForPassword(f) && [DENIAL_TEXT, GEO_DENIAL].some(words => words.test(f.text) || (titleSized(f.title) && words.test(f.title)))) return 'denied'
  if (f.status === null || f.status < 200 || f.status > 299) return undefined
  // A short page titled with an error status and its reason ("500: Internal Server Error", a
  // framework's error page served with 200) is that error (twenty-seventh review: a Next.js 500).
  if (f.short && ERROR_STATUS_TITLE.test(f.title)) return 'http_error'
  // So is a short page whose title says the site is down for maintenance, served with 200 (a
  // shop's "Site Maintenance", a university's "Wartung / Störung"; twenty-eighth review).
  if (f.short && MAINTENANCE_TITLE.test(f.title)) return 'http_error'
  // And a page titled an error page, with no more than a gate's words beside the site's layout.
  if (f.words <= GATE_MAX_WORDS && ERROR_PAGE_TITLE.test(f.title)) return 'http_error'
  // A sign-in page is content too (with or without a CAPTCHA widget in its form): whether it is
  // the content the driver asked for is what selector-stable readiness says.
  if (f.words < CONTENT_MIN_WORDS) return undefined
  if (f.words <= LOADING_CAPTION_MAX_WORDS && LOADING_CAPTION.test(f.text)) return undefined
  if (f.words <= LOADING_NOTE_MAX_WORDS && LOADING_CAPTION.test(f.text) && STILL_LOADING.test(f.text)) return undefined
  return 'content'
}

// A title is a line: one that holds a page's whole list (a price list of 390 KB, with a game
// called "ACCESS DENIED" in it: thirty-first review) says nothing of the page as a title would.
const TITLE_AS_LINE_MAX_CHARS = 200
function titleSized (title: string): boolean {
  return title.length <= TITLE_AS_LINE_MAX_CHARS
}

// Cloudflare's error layout printing a code that is an error's (1003, 1016, 522), not a block's.
function cloudflareErrorOnly (f: PageFacts): boolean {
  const error = cloudflareErrorPage(f)
  return error !== undefined && error.code !== undefined && !error.block
}

// Chromium's network error page: a body of class "neterror" holding its #main-frame-error.
function isBrowserErrorPage (f: PageFacts): boolean {
  return hasClass(f, 'neterror') && hasId(f, 'main-frame-error')
}

// Vendor markers that are sufficient on their own decide first (and name the provider), unless
// the page is a document of its own with the vendor's challenge in one of its panes. Failing
// those, the page's shape (gate-shape.ts) decides, and weak vendor markers only name who put the
// gate there; last, the generic wording rules. The shape's signals go into the evidence either
// way, so a driver can judge a borderline answer.
type Found = { provider: string; evidence: string[]; widget?: string }

function detectChallenge (f: PageFacts): Found | undefined {
  const shape = gateShape(f)
  // A document that carries a vendor's challenge in one of its panes is still the document
  // (docs/spec.md section 6: a page that merely embeds a widget is content).
  if (shape.document) return undefined
  // In the detectors' order, but a vendor decided only by a passive sensor last.
  const decided = DETECTORS.map(([provider, detect]) => ({ provider, ...detect(f) })).filter(decides)
  const recognized = [...decided.filter(r => !onlyPassive(r)), ...decided.filter(onlyPassive)]
  if (recognized.length === 0) return byShape(f, shape) ?? byWording(f, shape)
  const evidence = [...new Set([...recognized.flatMap(r => r.hits.map(hit => hit.evidence)), ...shape.signals])]
  const widget = recognized.find(r => r.widget !== undefined)?.widget
  // A CAPTCHA vendor's widget on a page some infrastructure vendor serves: that vendor put the gate
  // there (a bot manager's CAPTCHA page embeds reCAPTCHA); infrastructureOf says when it does.
  const infrastructure = isCaptchaVendor(recognized[0].provider) ? infrastructureOf(f, recognized[0].provider) : undefined
  if (infrastructure !== undefined) return { provider: infrastructure.provider, evidence: [infrastructure.evidence, ...evidence], widget }
  return { provider: recognized[0].provider, evidence, widget }
}

function decides (detection: Detection): boolean {
  return detection.hits.some(hit => hit.sufficient)
}

function onlyPassive (detection: Detection): boolean {
  return detection.hits.every(hit => !hit.sufficient || hit.passive === true)
}

// A gate by its shape, named by the weak vendor markers on it (challenge-vendors.ts), or generic.
function byShape (f: PageFacts, shape: GateShape): Found | undefined {
  if (!shape.gate) return undefined
  // What covers the page names whose it is first (a PerimeterX frame over an app that also loads
  // DataDome's tag is PerimeterX's: twenty-ninth review).
  const vendor = (shape.cover !== undefined ? vendorNamedIn(shape.cover) : undefined) ?? vendorOf(f)
  return { provider: vendor?.provider ?? 'generic', evidence: [...(vendor !== undefined ? [vendor.evidence] : []), ...shape.signals] }
}

// Last, the generic wording rules; an infrastructure vendor the page names takes the gate.
function byWording (f: PageFacts, shape: GateShape): Found | undefined {
  const generic = genericWording(f)
  if (!decides(generic)) return undefined
  const found = generic.hits.map(hit => hit.evidence)
  const vendor = infrastructureNamed(f)
  if (vendor !== undefined) return { provider: vendor.provider, evidence: [vendor.evidence, ...found, ...shape.signals], widget: generic.widget }
  return { provider: 'generic', evidence: [...new Set([...found, ...shape.signals])], widget: generic.widget }
}
