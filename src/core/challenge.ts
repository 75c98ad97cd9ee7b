// Challenge and page-kind recognition (SPEC §6). Pure: the fetch route hands in
// what the browser observed (status, headers, rendered HTML, visible text) and
// gets back what kind of page it is. Nothing here touches a page or the network.
//
// Recognition is mechanical: script/iframe sources, element ids and classes,
// response headers and exact interstitial titles, never "does the page talk
// about CAPTCHAs". Many provider markers also appear on ordinary pages (sensor
// scripts, invisible widgets, CDN headers), so each marker says whether it is
// sufficient on its own or only on a page shaped like a block: a short notice
// or a status that WAFs answer challenges with.

export interface PageObservation {
  status: number | null
  url: string
  title: string
  html: string
  text: string
  headers?: Record<string, string>
}

export type PageKind = 'content' | 'challenge' | 'denied' | 'http_error' | 'empty'

export interface Recognition {
  page_kind?: PageKind
  challenge?: { provider: string; evidence: string[] }
  widget_selector?: string
}

// Interstitials and denial notices run to a few dozen words (Cloudflare's block
// page, the longest common one, is ~120 but has a decisive title); a page with
// more visible words than this is treated as a document, not a notice.
const SHORT_NOTICE_MAX_WORDS = 80
// "Real content": at least this many words, so "Loading…" or a lone spinner
// label is not taken as the page a driver asked for.
const CONTENT_MIN_WORDS = 3
const PLACEHOLDER_MAX_WORDS = 8
const PLACEHOLDER_TEXT = /^\W*(?:loading|please wait|one moment|redirecting|just a moment|processing)\b/i

/** Statuses that are a denial when no challenge is recognized (SPEC §6). */
export const DENIAL_STATUSES: ReadonlySet<number> = new Set([401, 403, 407, 429, 451])
// Statuses providers serve their challenges with: the denials plus AWS WAF's
// CAPTCHA (405), Akamai sec-cpt (428) and Cloudflare's legacy JS check (503).
const CHALLENGE_STATUSES = new Set([...DENIAL_STATUSES, 405, 428, 503])

const DENIAL_TEXT = /\baccess (?:is |has been )?denied\b|\bforbidden\b|\byou (?:do not|don't|don’t) have permission\b|\bnot authori[sz]ed\b|\b(?:you have been|you've been|you are|your ip(?: address)? (?:has been|is)) blocked\b|\brequest (?:was |has been )?(?:blocked|rejected)\b/i
const BROWSER_CHECK_TEXT = /checking (?:if the site connection is secure|your browser)|please wait while we (?:verify|check)|verify(?:ing)? (?:that )?you are (?:a )?human|are you a robot\?/i

interface Tag { name: string; attrs: Record<string, string> }

/** What the detectors look at, computed once per observation. */
interface PageFacts {
  status: number | null
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
}

interface Hit { evidence: string; sufficient: boolean }
interface Detection { hits: Hit[]; widget?: string }

export function recognizePage (obs: PageObservation): Recognition {
  const facts = factsOf(obs)
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
// not a loading placeholder and do not merely surround a sign-in form.
// Everything else stays unclassified: the host cannot tell.
function classifyPage (f: PageFacts): PageKind | undefined {
  if (f.status !== null && DENIAL_STATUSES.has(f.status)) return 'denied'
  if (f.status !== null && f.status >= 400) return 'http_error'
  if (f.text.trim() === '') return 'empty'
  if (f.short && (DENIAL_TEXT.test(f.text) || DENIAL_TEXT.test(f.title))) return 'denied'
  if (f.status === null || f.status < 200 || f.status > 299) return undefined
  // A short page built around a password field is a login wall: the driver
  // did not get the content it asked for, and a person may have to sign in.
  if (f.short && f.tags.some(tag => tag.name === 'input' && tag.attrs.type?.toLowerCase() === 'password' && !looksHidden(tag))) return undefined
  if (f.words < CONTENT_MIN_WORDS) return undefined
  if (f.words <= PLACEHOLDER_MAX_WORDS && PLACEHOLDER_TEXT.test(f.text)) return undefined
  return 'content'
}

// Infrastructure providers come first: when a WAF's page embeds a CAPTCHA
// vendor's widget, the WAF is the one blocking.
const DETECTORS: ReadonlyArray<readonly [string, (f: PageFacts) => Detection]> = [
  ['cloudflare', cloudflare], ['aws_waf', awsWaf], ['datadome', datadome], ['perimeterx', perimeterx],
  ['akamai', akamai], ['imperva', imperva], ['ddos_guard', ddosGuard], ['vercel', vercel], ['sucuri', sucuri],
  ['turnstile', turnstile], ['hcaptcha', hcaptcha], ['recaptcha', recaptcha], ['generic', generic]
]

function detectChallenge (f: PageFacts): { provider: string; evidence: string[]; widget?: string } | undefined {
  const recognized: Array<{ provider: string } & Detection> = []
  for (const [provider, detect] of DETECTORS) {
    if (provider === 'generic' && recognized.length > 0) break
    const detection = detect(f)
    if (detection.hits.some(hit => hit.sufficient)) recognized.push({ provider, ...detection })
  }
  if (recognized.length === 0) return undefined
  const evidence = [...new Set(recognized.flatMap(r => r.hits.map(hit => hit.evidence)))]
  return { provider: recognized[0].provider, evidence, widget: recognized.find(r => r.widget !== undefined)?.widget }
}

// ---- providers -------------------------------------------------------------

function cloudflare (f: PageFacts): Detection {
  const hits: Hit[] = []
  if (headerIs(f, 'cf-mitigated', 'challenge')) hits.push(sure('header cf-mitigated: challenge'))
  if (f.inlineScript.includes('_cf_chl_opt')) hits.push(sure('inline script window._cf_chl_opt'))
  if (hasSrc(f, /\/cdn-cgi\/challenge-platform\/(?:h\/\w+\/)?orchestrate\//)) hits.push(sure('script /cdn-cgi/challenge-platform/…/orchestrate/'))
  if (hasClass(f, 'cf-browser-verification')) hits.push(sure('element .cf-browser-verification'))
  for (const id of ['challenge-form', 'challenge-running', 'challenge-stage']) {
    if (hasId(f, id)) hits.push({ evidence: `element #${id}`, sufficient: f.blocking })
  }
  if (titleIs(f, 'Attention Required! | Cloudflare')) hits.push(sure('title "Attention Required! | Cloudflare"'))
  if (titleIs(f, 'Just a moment...') && f.blocking) hits.push(sure('title "Just a moment..."'))
  if (f.headers.server?.toLowerCase() === 'cloudflare' && (f.status === 403 || f.status === 503) &&
      f.short && /\bray id\b/i.test(f.text) && /you have been blocked|verify(?:ing)? you are human|security of your connection|checking your browser/i.test(f.text)) {
    hits.push(sure(`status ${f.status} + server: cloudflare + Ray ID challenge notice`))
  }
  return { hits, widget: firstId(f, ['turnstile-wrapper', 'challenge-stage']) }
}

function awsWaf (f: PageFacts): Detection {
  const hits: Hit[] = []
  const action = f.headers['x-amzn-waf-action']?.trim().toLowerCase()
  if (action === 'challenge' || action === 'captcha') hits.push(sure(`header x-amzn-waf-action: ${action}`))
  if (f.inlineScript.includes('gokuProps')) hits.push(sure('inline script window.gokuProps'))
  // The JS SDK (challenge.js, AwsWafIntegration) also runs on ordinary pages;
  // only a blank page or a challenge status makes it the page itself.
  const sdkIsThePage = f.blank || f.challengeStatus
  if (hasSrc(f, /awswaf\.com\/.*challenge\.js/)) hits.push({ evidence: 'script token.awswaf.com challenge.js', sufficient: sdkIsThePage })
  if (f.inlineScript.includes('AwsWafIntegration')) hits.push({ evidence: 'inline script AwsWafIntegration', sufficient: sdkIsThePage })
  const captchaApi = hasSrc(f, /captcha\.awswaf\.com\//)
  if (captchaApi) hits.push({ evidence: 'script captcha.awswaf.com', sufficient: f.blocking })
  return { hits, widget: captchaApi ? firstId(f, ['captcha-container']) : firstId(f, ['challenge-container']) }
}

function datadome (f: PageFacts): Detection {
  const hits: Hit[] = []
  const frame = f.tags.some(tag => tag.name === 'iframe' && /captcha-delivery\.com/.test(tag.attrs.src ?? ''))
  if (frame) hits.push(sure('iframe captcha-delivery.com'))
  if (hasSrc(f, /captcha-delivery\.com/, ['script'])) hits.push(sure('script captcha-delivery.com'))
  if (f.inlineScript.includes('captcha-delivery.com')) hits.push(sure('inline script captcha-delivery.com host'))
  // x-datadome is sent on every response of a protected site; DataDome blocks are 403.
  for (const name of ['x-datadome', 'x-dd-b']) {
    if (f.headers[name] !== undefined) hits.push({ evidence: `header ${name}`, sufficient: f.status === 403 && f.short })
  }
  return { hits, widget: frame ? 'iframe[src*="captcha-delivery.com"]' : undefined }
}

function perimeterx (f: PageFacts): Detection {
  const hits: Hit[] = []
  const widget = hasId(f, 'px-captcha')
  if (widget) hits.push(sure('element #px-captcha'))
  if (hasSrc(f, /px-(?:cdn|cloud)\.net\/.*captcha|\/captcha\/captcha\.js/)) hits.push(sure('script PerimeterX captcha.js'))
  if (f.short && /press (?:&|and) hold/i.test(f.text)) hits.push(sure('text "Press & Hold"'))
  // _pxAppId is the sensor snippet every protected page carries.
  if (f.inlineScript.includes('_pxAppId')) hits.push({ evidence: 'inline script window._pxAppId', sufficient: f.challengeStatus && f.short })
  return { hits, widget: widget ? '#px-captcha' : undefined }
}

function akamai (f: PageFacts): Detection {
  const hits: Hit[] = []
  const cpt = hasId(f, 'sec-if-cpt-container')
  if (cpt) hits.push(sure('element #sec-if-cpt-container'))
  if (hasSrc(f, /\/_sec\/cp_challenge\//)) hits.push(sure('iframe/script /_sec/cp_challenge/'))
  if (f.short && /reference\s*#\s*\d+\.[0-9a-f]+\.\d+\.[0-9a-f]+/i.test(f.text)) hits.push(sure('text "Reference #…" (Akamai edge reference)'))
  if (f.short && f.text.includes('errors.edgesuite.net')) hits.push(sure('text errors.edgesuite.net'))
  if (/^akamai/i.test(f.headers.server ?? '')) {
    hits.push({ evidence: `header server: ${f.headers.server}`, sufficient: f.status === 403 && f.short && /access denied/i.test(f.title + ' ' + f.text) })
  }
  return { hits, widget: cpt ? '#sec-if-cpt-container' : undefined }
}

function imperva (f: PageFacts): Detection {
  const hits: Hit[] = []
  const frame = f.tags.some(tag => tag.name === 'iframe' && (tag.attrs.src ?? '').includes('_Incapsula_Resource'))
  if (frame) hits.push(sure('iframe /_Incapsula_Resource'))
  if (f.tags.some(tag => tag.name === 'form' && (tag.attrs.action ?? '').includes('_Incapsula_Resource'))) hits.push(sure('form action /_Incapsula_Resource'))
  if (f.short && /incapsula incident id/i.test(f.text)) hits.push(sure('text "Incapsula incident ID"'))
  // Imperva injects its resource script into ordinary pages; alone on a blank page it is the cookie check.
  if (hasSrc(f, /_Incapsula_Resource/, ['script'])) hits.push({ evidence: 'script /_Incapsula_Resource', sufficient: f.blank })
  if (f.headers['x-iinfo'] !== undefined) hits.push(hint('header x-iinfo'))
  return { hits, widget: frame ? 'iframe[src*="_Incapsula_Resource"]' : undefined }
}

function ddosGuard (f: PageFacts): Detection {
  const hits: Hit[] = []
  if (hasSrc(f, /\/\.well-known\/ddos-guard\/js-challenge\//)) hits.push(sure('script /.well-known/ddos-guard/js-challenge/'))
  else if (hasSrc(f, /ddos-guard/)) hits.push({ evidence: 'script ddos-guard', sufficient: f.blocking })
  if (titleIs(f, 'DDoS-Guard')) hits.push(sure('title "DDoS-Guard"'))
  if (f.headers.server?.toLowerCase() === 'ddos-guard') {
    hits.push({ evidence: 'header server: ddos-guard', sufficient: f.challengeStatus && f.short && /ddos-guard/i.test(f.text) })
  }
  return { hits }
}

function vercel (f: PageFacts): Detection {
  const hits: Hit[] = []
  if (headerIs(f, 'x-vercel-mitigated', 'challenge')) hits.push(sure('header x-vercel-mitigated: challenge'))
  if (titleIs(f, 'Vercel Security Checkpoint')) hits.push(sure('title "Vercel Security Checkpoint"'))
  if (hasSrc(f, /\/\.well-known\/vercel\/security\//)) hits.push(sure('script /.well-known/vercel/security/'))
  return { hits }
}

function sucuri (f: PageFacts): Detection {
  const hits: Hit[] = []
  if (titleIs(f, 'Sucuri WebSite Firewall - Access Denied')) hits.push(sure('title "Sucuri WebSite Firewall - Access Denied"'))
  if (f.headers['x-sucuri-block'] !== undefined) hits.push(sure('header x-sucuri-block'))
  if (f.inlineScript.includes('sucuri_cloudproxy_uuid')) hits.push(sure('inline script sucuri_cloudproxy_uuid cookie'))
  // x-sucuri-id marks every response through the firewall; its blocks are 403.
  if (f.headers['x-sucuri-id'] !== undefined) hits.push({ evidence: 'header x-sucuri-id', sufficient: f.status === 403 })
  return { hits }
}

function turnstile (f: PageFacts): Detection {
  const script = hasSrc(f, /challenges\.cloudflare\.com\/turnstile\//, ['script'])
  const widget = findVisibleWidget(f, 'cf-turnstile')
  return captchaWidget(f, script, widget, 'script challenges.cloudflare.com/turnstile', 'widget .cf-turnstile', '.cf-turnstile')
}

function hcaptcha (f: PageFacts): Detection {
  const script = hasSrc(f, /hcaptcha\.com\/1\/api\.js/, ['script'])
  const frame = findVisible(f, tag => tag.name === 'iframe' && /hcaptcha\.com\/.*#frame=checkbox(?!-invisible)/.test(tag.attrs.src ?? ''))
  const div = findVisibleWidget(f, 'h-captcha')
  const evidence = div !== undefined ? 'widget .h-captcha' : 'iframe hcaptcha.com checkbox'
  const selector = div !== undefined ? '.h-captcha' : 'iframe[src*="hcaptcha.com"][src*="frame=checkbox"]'
  return captchaWidget(f, script || frame !== undefined, div ?? frame, 'script hcaptcha.com/1/api.js', evidence, selector)
}

function recaptcha (f: PageFacts): Detection {
  const script = hasSrc(f, /\/recaptcha\/(?:api|enterprise)\.js/, ['script'])
  // The anchor iframe also renders inside the invisible v3 badge, with size=invisible.
  const anchor = findVisible(f, tag => tag.name === 'iframe' && /\/recaptcha\/(?:api2|enterprise)\/anchor\?/.test(tag.attrs.src ?? '') && !/[?&]size=invisible/.test(tag.attrs.src ?? ''))
  const div = findVisibleWidget(f, 'g-recaptcha')
  const evidence = div !== undefined ? 'widget .g-recaptcha' : 'iframe recaptcha anchor'
  const selector = div !== undefined ? '.g-recaptcha' : 'iframe[src*="/recaptcha/"][src*="/anchor?"]:not([src*="size=invisible"])'
  return captchaWidget(f, script || anchor !== undefined, div ?? anchor, 'script recaptcha api.js', evidence, selector)
}

// A CAPTCHA vendor's widget gates the page only on a block-shaped page: the same
// widget in an article's comment form does not keep the driver from the article.
function captchaWidget (f: PageFacts, loader: boolean, widget: Tag | undefined, loaderEvidence: string, widgetEvidence: string, selector: string): Detection {
  if (!loader || widget === undefined) return { hits: [] }
  const sufficient = f.blocking
  return { hits: [{ evidence: loaderEvidence, sufficient }, { evidence: widgetEvidence, sufficient }], widget: selector }
}

function generic (f: PageFacts): Detection {
  const phrase = f.short ? BROWSER_CHECK_TEXT.exec(f.text) : null
  return { hits: phrase === null ? [] : [sure(`text "${phrase[0].toLowerCase()}" on a short page`)] }
}

// ---- facts and HTML scanning -----------------------------------------------

function factsOf (obs: PageObservation): PageFacts {
  const words = countWords(obs.text)
  const challengeStatus = obs.status !== null && CHALLENGE_STATUSES.has(obs.status)
  const short = words <= SHORT_NOTICE_MAX_WORDS
  const { tags, inlineScript } = scanHtml(obs.html)
  return {
    status: obs.status,
    title: obs.title.replace(/\s+/g, ' ').trim(),
    text: obs.text,
    words,
    blank: words === 0,
    short,
    blocking: short || challengeStatus,
    challengeStatus,
    headers: Object.fromEntries(Object.entries(obs.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)])),
    tags,
    inlineScript
  }
}

// Ideographic scripts do not separate words with spaces: count each character.
const WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[^\s\p{P}\p{S}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+/gu

export function countWords (text: string): number {
  return text.match(WORD)?.length ?? 0
}

const TAG = /<([a-zA-Z][\w:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g
const ATTR = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g
// Bodies whose markup is not elements of the page: script source, style, and
// fallbacks a script-enabled Chromium does not render.
const OPAQUE_BODY = /<(script|style|textarea|title|template|noscript)\b((?:[^>"']|"[^"]*"|'[^']*')*)>([\s\S]*?)<\/\1\s*>/gi

function scanHtml (html: string): { tags: Tag[]; inlineScript: string } {
  const scripts: string[] = []
  const stripped = html.replace(/<!--[\s\S]*?-->/g, '').replace(OPAQUE_BODY, (_m, name: string, attrs: string, body: string) => {
    if (name.toLowerCase() === 'script' && !/type\s*=\s*["']?application\/(?:ld\+)?json/i.test(attrs)) scripts.push(body)
    return `<${name}${attrs}></${name}>`
  })
  const tags: Tag[] = []
  for (const [, name, rawAttrs] of stripped.matchAll(TAG)) {
    const attrs: Record<string, string> = {}
    for (const [, key, dq, sq, bare] of rawAttrs.matchAll(ATTR)) attrs[key.toLowerCase()] = decodeEntities(dq ?? sq ?? bare ?? '')
    tags.push({ name: name.toLowerCase(), attrs })
  }
  return { tags, inlineScript: scripts.join('\n') }
}

function decodeEntities (s: string): string {
  return s.replace(/&(?:#(\d+)|#x([0-9a-f]+)|(amp|quot|apos|lt|gt));/gi, (m, dec?: string, hex?: string, named?: string) => {
    if (dec !== undefined) return String.fromCodePoint(Number(dec))
    if (hex !== undefined) return String.fromCodePoint(parseInt(hex, 16))
    return ({ amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' } as Record<string, string>)[named!.toLowerCase()] ?? m
  })
}

// ---- small predicates --------------------------------------------------------

function sure (evidence: string): Hit { return { evidence, sufficient: true } }
function hint (evidence: string): Hit { return { evidence, sufficient: false } }

function headerIs (f: PageFacts, name: string, value: string): boolean {
  return f.headers[name]?.trim().toLowerCase() === value
}

function titleIs (f: PageFacts, title: string): boolean {
  return f.title.replace(/…/g, '...').toLowerCase() === title.toLowerCase()
}

function hasSrc (f: PageFacts, pattern: RegExp, names = ['script', 'iframe']): boolean {
  return f.tags.some(tag => names.includes(tag.name) && pattern.test(tag.attrs.src ?? ''))
}

function hasId (f: PageFacts, id: string): boolean {
  return f.tags.some(tag => tag.attrs.id === id)
}

function firstId (f: PageFacts, ids: string[]): string | undefined {
  const id = ids.find(candidate => hasId(f, candidate))
  return id === undefined ? undefined : `#${id}`
}

function hasClass (f: PageFacts, name: string): boolean {
  return f.tags.some(tag => hasClassName(tag, name))
}

function hasClassName (tag: Tag, name: string): boolean {
  return (tag.attrs.class ?? '').split(/\s+/).includes(name)
}

function findVisible (f: PageFacts, match: (tag: Tag) => boolean): Tag | undefined {
  return f.tags.find(tag => match(tag) && !looksHidden(tag))
}

// CAPTCHA vendors render a visible widget into a container; the same class on
// a button or link binds an invisible check to that control (reCAPTCHA v3,
// invisible hCaptcha), which shows nothing to solve.
function findVisibleWidget (f: PageFacts, className: string): Tag | undefined {
  return findVisible(f, tag => hasClassName(tag, className) && !['button', 'input', 'a'].includes(tag.name))
}

// Only what the markup itself says; stylesheet-hidden elements look visible
// here, which is why the route should confirm widget_selector in the page.
function looksHidden (tag: Tag): boolean {
  const style = (tag.attrs.style ?? '').toLowerCase().replace(/\s+/g, '')
  return tag.attrs.hidden !== undefined || tag.attrs['data-size']?.toLowerCase() === 'invisible' ||
    style.includes('display:none') || style.includes('visibility:hidden')
}
