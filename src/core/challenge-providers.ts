// One detector per challenge provider (SPEC §6): each names the mechanical markers it saw
// and whether any of them is sufficient on its own (see page-facts.ts for the facts).
// Addresses, scripts and texts come from the page and may be megabytes long: a run between two
// literals of a pattern is bounded ({0,300}, not *), or a string that repeats the first literal is
// read to its end once for each repeat (markup-elements.ts bounds its lookaheads for the same reason).
import {
  answeredRefusal, isHiddenInput, isRefresh, firstId, isField, looksHidden, saysNothing, hasClass, hasId, hasSrc, headerIs, hint, sure, titleIs, withoutQuotes, type Detection, type Hit, type PageFacts, type Tag
} from './page-facts.js'
import { builtAsApp } from './app-markup.js'
import { captchaIsThePage, cloudflareErrorPage, cloudflarePlainBlock, linksTo } from './challenge-markers.js'
import { google, hcaptcha, recaptcha, turnstile } from './challenge-captchas.js'
import { textOf } from './markup-elements.js'
import { fortiWeb, jiasule, modSecurity, queueIt, reblaze, ruishu, wordfence } from './challenge-site-guards.js'
import { BROWSER_CHECK_TEXT } from './challenge-wording.js'
import { VERIFY_STEP } from './gate-words.js'


const RAY_ID = /\bray id\b[^\n]{0,30}?\b[0-9a-f]{16}\b/i
const CLOUDFLARE_BLOCK_WORDS = /\bthis website (?:is using|uses) a security service to protect itself from online attacks\b/i
// Anything of Cloudflare's in the markup: its paths, its names, its ids and classes, a Ray ID.
const CLOUDFLARE_MARK = /\/cdn-cgi\/|cloudflare|\bray id\b|\bcf[-_]/i

// Infrastructure providers come first: when a WAF's page embeds a CAPTCHA
// vendor's widget, the WAF is the one blocking. The generic wording rules are not among them: they
// are read last, only when neither a provider nor the page's shape decided (genericWording).
export const DETECTORS: ReadonlyArray<readonly [string, (f: PageFacts) => Detection]> = [
  ['cloudflare', cloudflare], ['aws_waf', awsWaf], ['cloudfront', cloudfront], ['azure_front_door', azureFrontDoor], ['datadome', datadome], ['perimeterx', perimeterx], ['kasada', kasada],
  ['akamai', akamai], ['f5', f5], ['imperva', imperva], ['ddos_guard', ddosGuard], ['vercel', vercel], ['sucuri', sucuri],
  ['imunify360', imunify360], ['shieldsquare', shieldsquare], ['reblaze', reblaze], ['jiasule', jiasule], ['ruishu', ruishu], ['anubis', anubis], ['queue_it', queueIt], ['wordfence', wordfence],
  ['modsecurity', modSecurity], ['fortiweb', fortiWeb], ['google', google],
  ['turnstile', turnstile], ['hcaptcha', hcaptcha], ['recaptcha', recaptcha]
]

// ---- providers -------------------------------------------------------------

function cloudflare (f: PageFacts): Detection {
  const hits: Hit[] = []
  if (headerIs(f, 'cf-mitigated', 'challenge')) hits.push(sure('header cf-mitigated: challenge'))
  if (f.inlineScript.includes('_cf_chl_opt')) hits.push(sure('inline script window._cf_chl_opt'))
  if (hasSrc(f, /\/cdn-cgi\/challenge-platform\/(?:h\/\w+\/)?orchestrate\//)) hits.push(sure('script /cdn-cgi/challenge-platform/…/orchestrate/'))
  if (hasClass(f, 'cf-browser-verification')) hits.push(sure('element .cf-browser-verification'))
  // Its challenge's form holds hidden answers only: beside a field a person types into, the ids
  // are a site's own (a sign-up "challenge-form": twelfth review).
  const typesIn = f.tags.some(isField)
  for (const id of ['challenge-form', 'challenge-running', 'challenge-stage']) {
    if (hasId(f, id)) hits.push({ evidence: `element #${id}`, sufficient: f.blocking && !typesIn })
  }
  // Cloudflare's form posts to its own path or carries its token; a site's own check may call
  // its form "challenge-form" too (DuckDuckGo's posts to anomaly.js), which says nothing.
  const form = f.tags.find(tag => tag.attrs.id === 'challenge-form')
  if (form?.attrs.action !== undefined && !/\/cdn-cgi\/|cf_chl/i.test(form.attrs.action)) {
    for (const hit of hits) if (hit.evidence === 'element #challenge-form') hit.sufficient = false
  }
  if (titleIs(f, 'Attention Required! | Cloudflare')) hits.push(sure('title "Attention Required! | Cloudflare"'))
  // Its challenge's title, answered with its challenge's status: a site's own page may well be
  // called "Just a moment..." too.
  // A site's own maintenance (503) or rate-limit (429) page may take the title too, over words of
  // its own: only beside a mark of Cloudflare's, a caption or a browser check's words (twelfth review).
  const saysNothingElse = saysNothing(f) || BROWSER_CHECK_TEXT.test(f.text)
  if (titleIs(f, 'Just a moment...') && f.challengeStatus && (CLOUDFLARE_MARK.test(f.markup) || saysNothingElse)) hits.push(sure('title "Just a moment..."'))
  if (f.headers.server?.toLowerCase() === 'cloudflare' && (f.status === 403 || f.status === 503) &&
      f.short && /\bray id\b/i.test(f.text) && /you have been blocked|verify(?:ing)? you are human|security of your connection|checking your browser/i.test(f.text)) {
    hits.push(sure(`status ${f.status} + server: cloudflare + Ray ID challenge notice`))
  }
  // A site's own block page behind Cloudflare prints the Ray ID Cloudflare gave the request
  // (16 hex digits), as the custom pages' ::RAY_ID:: placeholder fills it in, shown or in a
  // details box a button opens; a capture without headers keeps only that.
  const refusal = f.short && answeredRefusal(f)
  const ray = refusal ? RAY_ID.exec(f.text) ?? RAY_ID.exec(textOf(f.markup)) : null
  if (ray !== null) hits.push(sure(`text "${ray[0].replace(/\s+/g, ' ')}" on a short ${f.status ?? ''} page`))
  // Its block page's own words ("This website is using a security service to protect itself from
  // online attacks") over the Ray ID it gave the request: Cloudflare's block, kept in a site's own
  // layout and whatever status the site answers with (twenty-third review: EPFL's and Chime's).
  const template = ray === null && CLOUDFLARE_BLOCK_WORDS.test(f.text) ? RAY_ID.exec(f.text) : null
  if (template !== null) hits.push(sure(`Cloudflare's block wording over "${template[0].replace(/\s+/g, ' ')}"`))
  // Its 1xxx block pages (1005, 1006, 1020…) share the cf-error-details layout with origin
  // errors (522, 1016…): the error code tells a block from an outage, and without one the status.
  const plain = cloudflarePlainBlock(f)
  if (plain !== undefined) hits.push(sure(`Cloudflare's plain answer "error code: ${plain}"`))
  const error = cloudflareErrorPage(f)
  if (error?.block === true) hits.push(sure(error.code === undefined ? `Cloudflare error layout, no code, status ${f.status ?? ''}` : `Cloudflare error page, block code ${error.code}`))
  // Bot Fight Mode / bot management script: on every page of a protected site, the page itself only
  // when blank: not an app's shell, and not a frame or picture shown by a page with no words (an ad
  // slot's document holding its banner's frame, a training page of the twenty-ninth review). Its
  // JavaScript-detections snippet alone (__CF$cv$params, loading …/scripts/jsd/ or invisible.js)
  // decides nothing: Cloudflare puts it in every page it serves and in the blank frame it runs
  // in, which a browser's "Save page as" keeps as a document of its own (twenty-ninth review).
  const botFight = hasSrc(f, /\/cdn-cgi\/bm\/cv\/\d+\/api\.js/, ['script'])
  if (botFight) {
    hits.push({ evidence: `Cloudflare bot-management script /cdn-cgi/bm/cv/${f.blank ? ' on a blank page' : ''}`, sufficient: f.blank && !f.appShell && !showsEmbedded(f), passive: true })
  } else if (f.inlineScript.includes('__CF$cv$params')) {
    hits.push(hint('Cloudflare JavaScript-detections snippet (__CF$cv$params)'))
  }
  return { hits, widget: firstId(f, ['turnstile-wrapper', 'challenge-stage']) }
}

/** Elements that show another document or a picture: what a page with no words of its own shows. */
const EMBEDDING: ReadonlySet<string> = new Set(['iframe', 'img', 'video', 'object', 'embed', 'canvas', 'svg'])
function showsEmbedded (f: PageFacts): boolean {
  return f.tags.some(tag => EMBEDDING.has(tag.name) && !looksHidden(tag))
}

function awsWaf (f: PageFacts): Detection {
  const hits: Hit[] = []
  const action = f.headers['x-amzn-waf-action']?.trim().toLowerCase()
  if (action === 'challenge' || action === 'captcha') hits.push(sure(`header x-amzn-waf-action: ${action}`))
  if (f.inlineScript.includes('gokuProps')) hits.push(sure('inline script window.gokuProps'))
  // Its CAPTCHA also guards a site's own forms (a sign-in that embeds it): captchaIsThePage.
  if (f.inlineScript.includes('awsWafCookieDomainList')) hits.push({ evidence: 'inline script window.awsWafCookieDomainList', sufficient: captchaIsThePage(f) })
  // The JS SDK (challenge.js, AwsWafIntegration) also runs on ordinary pages;
  // only a blank page, or a challenge status on a page that says nothing of its own (a caption at
  // most), makes it the page itself: a maintenance page's template carries it too (twelfth review).
  const sdkIsThePage = (f.blank && !f.appShell) || (f.challengeStatus && saysNothing(f))
  if (hasSrc(f, /awswaf\.com\/.{0,300}challenge\.js/)) hits.push({ evidence: 'script token.awswaf.com challenge.js', sufficient: sdkIsThePage })
  if (f.inlineScript.includes('AwsWafIntegration')) hits.push({ evidence: 'inline script AwsWafIntegration', sufficient: sdkIsThePage })
  const captchaApi = hasSrc(f, /captcha\.awswaf\.com\//)
  if (captchaApi) hits.push({ evidence: 'script captcha.awswaf.com', sufficient: captchaIsThePage(f) })
  return { hits, widget: captchaApi ? firstId(f, ['captcha-container']) : firstId(f, ['challenge-container']) }
}

// CloudFront's own error page; "Request blocked" is what it shows when AWS WAF or a geo
// restriction on the distribution refuses the request.
function cloudfront (f: PageFacts): Detection {
  const hits: Hit[] = []
  const page = titleIs(f, 'ERROR: The request could not be satisfied') || /generated by cloudfront \(cloudfront\)/i.test(f.text)
  if (page && f.short && /\brequest blocked\b/i.test(f.text)) hits.push(sure('CloudFront error page "Request blocked"'))
  return { hits }
}

// Azure Front Door's block page, what its WAF shows when a rule refuses the request: "The request
// is blocked." over Front Door's reference for the request (a UTC timestamp and an id,
// "20240524T054111Z-158c…"), which it also sends as the x-azure-ref header. CloudFront's
// "Request blocked" counterpart, read the same way: the words with the edge's own mark.
const AZURE_REF = /\b\d{8}T\d{6}Z-[0-9a-z]{16,80}\b/i
function azureFrontDoor (f: PageFacts): Detection {
  const hits: Hit[] = []
  const marked = AZURE_REF.test(f.text) || AZURE_REF.test(f.headers['x-azure-ref'] ?? '')
  if (marked && f.short && /\bthe request is blocked\b/i.test(f.text)) hits.push(sure('Azure Front Door block "The request is blocked." with its reference'))
  return { hits }
}

function datadome (f: PageFacts): Detection {
  const hits: Hit[] = []
  const frame = f.tags.some(tag => tag.name === 'iframe' && /captcha-delivery\.com/.test(tag.attrs.src ?? ''))
  if (frame) hits.push(sure('iframe captcha-delivery.com'))
  if (hasSrc(f, /captcha-delivery\.com/, ['script'])) hits.push(sure('script captcha-delivery.com'))
  // The host is often written with its hyphen escaped ('geo.captcha&#x2d;delivery.com').
  if (/captcha(?:-|&#x2d;|&#45;|\\x2d|\\u002d)delivery\.com/i.test(f.inlineScript)) hits.push(sure('inline script captcha-delivery.com host'))
  if (/\bvar dd\s*=\s*\{[^}]{0,1000}'cid'\s*:/.test(f.inlineScript)) hits.push(sure("inline script DataDome 'dd' object"))
  // The captcha document itself (what the iframe shows) styles itself from the captcha host.
  if (linksTo(f, /captcha-delivery\.com\/captcha\//)) hits.push(sure('stylesheet captcha-delivery.com/captcha/'))
  // x-datadome is sent on every response of a protected site; DataDome blocks are 403.
  for (const name of ['x-datadome', 'x-dd-b']) {
    if (f.headers[name] !== undefined) hits.push({ evidence: `header ${name}`, sufficient: f.status === 403 && f.short })
  }
  return { hits, widget: frame ? 'iframe[src*="captcha-delivery.com"]' : undefined }
}

// PerimeterX's captcha script: from its hosts, or its first-party copy, served as
// /<app id>/captcha/captcha.js?a=…; a site's own /js/captcha/captcha.js beside a contact form is
// not it (eleventh review).
const PX_CAPTCHA_SCRIPT = /px-(?:cdn|cloud)\.net\/.{0,300}captcha|\/captcha\/captcha\.js\?a=/

function perimeterx (f: PageFacts): Detection {
  const hits: Hit[] = []
  // Its press-and-hold container is the page where the page is a block's (short, or a challenge
  // status), or where what is on show asks for the step (a dialog over a document). A long page
  // that keeps the container in a modal its own stylesheet hides, for when the sensor asks, is
  // the page it is (ABCmouse's landing page, a training page of the twenty-ninth review).
  const widget = hasId(f, 'px-captcha')
  if (widget) hits.push({ evidence: 'element #px-captcha', sufficient: f.blocking || VERIFY_STEP.test(withoutQuotes(f.text)) || VERIFY_STEP.test(f.title) })
  if (hasSrc(f, PX_CAPTCHA_SCRIPT)) hits.push(sure('script PerimeterX captcha.js'))
  // The same script, loaded by the page's own inline script (its block page adds the tag itself,
  // and falls back to the vendor's host): only a block page loads the captcha; the sensor snippet
  // every protected page carries loads main.min.js (a 406 block on Hanna Andersson's store,
  // batch 156, whose status is no challenge status and whose every word is drawn by that script).
  if (PX_CAPTCHA_SCRIPT.test(f.inlineScript)) hits.push(sure('inline script loads PerimeterX captcha.js'))
  // Its notice says what the hold is for; a voice note's "press and hold the mic button" does not.
  if (f.short && /press (?:&|and) hold to (?:confirm|verify|prove)/i.test(f.text)) hits.push(sure('text "Press & Hold"'))
  // _pxAppId is the sensor snippet every protected page carries.
  if (f.inlineScript.includes('_pxAppId')) hits.push({ evidence: 'inline script window._pxAppId', sufficient: f.challengeStatus && f.short })
  return { hits, widget: widget ? '#px-captcha' : undefined }
}

// Kasada answers a request it wants to look at with 429 and a short notice that boots its SDK
// (KPSDK) and loads ips.js from its per-site path; its SDK rides on every page of a protected
// site (a short 401 or 503 there is the site's), so both signs and the 429 are needed.
function kasada (f: PageFacts): Detection {
  const hits: Hit[] = []
  const boots = /\bKPSDK\s*[.=]/.test(f.inlineScript)
  const loads = hasSrc(f, /\/ips\.js\?(?:[^"']{0,300}&)?KP_UIDz=|\/[\da-f-]{36}\/[\da-f-]{36}\/ips\.js/i, ['script'])
  if (boots || loads) hits.push({ evidence: `Kasada ${[boots && 'KPSDK in inline script', loads && 'script ips.js'].filter(Boolean).join(' + ')}`, sufficient: boots && loads && f.status === 429 && f.short })
  return { hits }
}

const AKAMAI_REFERENCE = /(?<![\w.])(\d{1,2})\.[0-9a-f]{6,8}\.\d{10}\.[0-9a-f]{4,8}(?![\w.])/i
const LABELLED_REFERENCE = /reference\s*(?:(?:#|:|number:?)\s*)?(\d+)\.[0-9a-f]+\.\d+\.[0-9a-f]+/i
const AKAMAI_DENIAL = /\byou don'?t have permission to access\b/i
const CRYPTO_CHALLENGE = /\/_sec\/cp_challenge\//
const SENSOR_INTERSTITIAL = /\bchlgeId\b/

function akamai (f: PageFacts): Detection {
  const hits: Hit[] = []
  const cpt = hasId(f, 'sec-if-cpt-container')
  if (cpt) hits.push(sure('element #sec-if-cpt-container'))
  // The crypto challenge's frame is the challenge drawn; its script only says Bot Manager guards
  // the site: Akamai loads it on every page it guards, ready for when a challenge is due (IBM's and
  // retailers' home pages carry it: twenty-third review).
  if (hasSrc(f, CRYPTO_CHALLENGE, ['iframe'])) hits.push(sure('iframe /_sec/cp_challenge/'))
  else if (hasSrc(f, CRYPTO_CHALLENGE, ['script'])) hits.push(hint('script /_sec/cp_challenge/'))
  // The edge reference's first number is the error class: 18 is a denial; 9 (invalid URL),
  // 11 (DNS failure), 30, 97 (origin errors) are errors that no person can pass. The reference is
  // read wherever a short page prints it ("reference number #18.…", a site's "ref-id: (18.…)"),
  // by its own shape (class, hex, a ten-digit time, hex). Under the edge's own "Access Denied …
  // You don't have permission to access" it is the edge's denial whatever its class
  // (twenty-third review: Delta's "Reference 0.…", Twilio's ref-id, realestate.com.au's "number #18").
  const reference = f.short ? AKAMAI_REFERENCE.exec(f.text) ?? LABELLED_REFERENCE.exec(f.text) : null
  if (reference !== null) {
    const denial = reference[1] === '18' || (/^access denied$/i.test(f.title.trim()) && AKAMAI_DENIAL.test(f.text))
    hits.push(denial ? sure(`text "Reference #${reference[1]}.…" (Akamai edge denial)`) : hint(`text "Reference #${reference[1]}.…" (Akamai edge error)`))
  }
  // Bot Manager's behavioural interstitial: a quiet page whose script posts its proof of work to
  // /_sec/verify?provider=interstitial and whose refresh carries the bm-verify token back to the
  // same address; the address and the token are the vendor's own.
  if (f.short && (f.inlineScript.includes('/_sec/verify?provider=interstitial') || f.tags.some(isBmVerifyRefresh))) {
    hits.push(sure('bm-verify interstitial (/_sec/verify)'))
  }
  // Bot Manager's sensor interstitial: a quiet page whose inline script takes the challenge's id
  // ("chlgeId") from its sensor script's address and reloads the page once the sensor's request
  // comes back with it (Coupang's search, thirty-first review). The page shows nothing, the
  // container of the behavioural step above may be absent, and it is served at 200.
  if (f.short && SENSOR_INTERSTITIAL.test(f.inlineScript) && f.inlineScript.includes('location.reload')) {
    hits.push(sure('sensor interstitial (chlgeId, reload)'))
  }
  if (f.short && f.text.includes('errors.edgesuite.net')) hits.push({ evidence: 'text errors.edgesuite.net', sufficient: /access denied/i.test(f.title + ' ' + f.text) })
  if (/^akamai/i.test(f.headers.server ?? '')) {
    hits.push({ evidence: `header server: ${f.headers.server}`, sufficient: f.status === 403 && f.short && /access denied/i.test(f.title + ' ' + f.text) })
  }
  return { hits, widget: cpt ? '#sec-if-cpt-container' : undefined }
}

function isBmVerifyRefresh (tag: Tag): boolean {
  return isRefresh(tag) && /[?&]bm-verify=/.test(tag.attrs.content ?? '')
}

// F5 BIG-IP ASM / Advanced WAF's default blocking page, by its documented wording: "The requested
// URL was rejected. Please consult with your administrator. Your support ID is: <id>". It is
// served with 200 by default, so only its words say it is a block. A custom page in the site's
// own words usually keeps the support ID the WAF fills in (about 19 digits) beside a refusal,
// named in the site's language where it translated the page (a Polish ministry's "Twój numer
// zgłoszenia to: SG 1276…", Warsaw airport's "ID wyjątku" beside its English one: batch 100), its
// refusal then often only in F5's default title "Request Rejected".
const F5_DEFAULT = /the requested url was rejected\.?\s*please consult with your administrator/i
const SUPPORT_ID_NAMES = ['support[ -]?id(?: is| lautet)?', 'numer zg[łl]oszenia(?: to)?', 'id wyj[ąa]tku', 'id (?:de )?(?:soporte|suporte|support|supporto)', 'identifiant de support', 'id di supporto']
const F5_SUPPORT_ID = new RegExp(`\\b(?:${SUPPORT_ID_NAMES.join('|')})(?:\\s*:)?[\\s<[(#]*(?:SG\\s*)?\\d{15,}`, 'i')
// What it refused is the request (the URL, access): a card issuer's "payment was rejected" beside a
// long reference is a checkout's failure (twelfth review).
const F5_REFUSAL = /\b(?:request(?:ed)?|url|access|page)\b[^.]{0,60}?\b(?:rejected|blocked|denied)\b|\b(?:rejected|blocked|denied)\b[^.]{0,30}?\b(?:request|url|access)\b/i

const F5_CHALLENGE_FIELD = /^TS[0-9a-f]{6,10}_(cr|md|ct|pd|rf|id)$/i

const LOOPBACK_PROBE = /^https?:\/\/(?:127\.0\.0\.1|localhost):\d+\//i

function f5 (f: PageFacts): Detection {
  const hits: Hit[] = []
  // Its bot defense answers with a blank page that loads its script from /TSPD/ and works out the
  // answer there; the same path serves the script it adds to ordinary pages, so only a blank page.
  // Rendered, the check also carries the probes its script adds (scripts from loopback ports,
  // "http://127.0.0.1:8888/404"): no app's bundles.
  if (hasSrc(f, /\/TSPD\/[0-9a-f]{16,}/i, ['script'])) {
    const shell = builtAsApp(f.tags.filter(tag => !(tag.name === 'script' && LOOPBACK_PROBE.test(tag.attrs.src ?? ''))))
    hits.push({ evidence: `script /TSPD/ (F5 bot defense)${f.blank ? ' on a blank page' : ''}`, sufficient: f.blank && !shell })
  }
  // Its older JavaScript challenge: a short page whose form carries the answer fields its script
  // fills in and posts back, named for its TS cookie ("TS01177ea0_cr", "_md", "_ct"…: a 2017 sweep's
  // tee-time site, batch 39). The response field beside the method field is the challenge's own.
  const names = new Set(f.tags.filter(isHiddenInput).map(tag => F5_CHALLENGE_FIELD.exec(tag.attrs.name ?? '')?.[1]?.toLowerCase()))
  if (f.short && names.has('cr') && names.has('md')) hits.push(sure('form fields TS…_cr and TS…_md (F5 JavaScript challenge)'))
  const supportId = f.short && F5_SUPPORT_ID.test(f.text)
  if (f.short && F5_DEFAULT.test(f.text)) hits.push({ evidence: 'text "The requested URL was rejected" (F5 default blocking page)', sufficient: supportId })
  else if (supportId) hits.push({ evidence: 'text "support ID" beside a refusal (F5 blocking page)', sufficient: F5_REFUSAL.test(f.text + ' ' + f.title) })
  return { hits }
}

function imperva (f: PageFacts): Detection {
  const hits: Hit[] = []
  const frame = f.tags.some(tag => tag.name === 'iframe' && (tag.attrs.src ?? '').includes('_Incapsula_Resource'))
  if (frame) hits.push(sure('iframe /_Incapsula_Resource'))
  if (f.tags.some(tag => tag.name === 'form' && (tag.attrs.action ?? '').includes('_Incapsula_Resource'))) hits.push(sure('form action /_Incapsula_Resource'))
  if (f.short && /incapsula incident id/i.test(f.text)) hits.push(sure('text "Incapsula incident ID"'))
  // Imperva's cookie check is a blank page that loads its resource script and reloads (an app's
  // unrendered shell is blank too, but loads its own bundles). The same script, loaded async with
  // ns= and cb= in its query, is the sensor Imperva adds to every page it serves: the training
  // corpus has it on two ordinary storefronts and the check without it (docs/decisions.md,
  // Imperva's page sensor), so a blank page that carries only the sensor is not its check.
  const scripts = f.tags.filter(tag => tag.name === 'script' && (tag.attrs.src ?? '').includes('_Incapsula_Resource'))
  const check = scripts.some(tag => !isPageSensor(tag.attrs.src ?? ''))
  if (check) hits.push({ evidence: 'script /_Incapsula_Resource', sufficient: f.blank && !f.appShell })
  // The older check writes that script from its inline code, after setting its ___utmvc cookie from
  // the session's incap_ses_ cookies (twenty-fifth review: a 2016 capture), on a blank page too.
  else if (/\b___utmvc\b/.test(f.inlineScript) && f.inlineScript.includes('_Incapsula_Resource')) {
    hits.push({ evidence: 'inline script sets ___utmvc and loads /_Incapsula_Resource', sufficient: f.blank && !f.appShell })
  }
  else if (scripts.length > 0) hits.push(hint('script /_Incapsula_Resource (page sensor)'))
  if (f.headers['x-iinfo'] !== undefined) hits.push(hint('header x-iinfo'))
  return { hits, widget: frame ? 'iframe[src*="_Incapsula_Resource"]' : undefined }
}

// The sensor's address: /_Incapsula_Resource?SWJIYLWA=<hash>&ns=<n>&cb=<n>.
function isPageSensor (src: string): boolean {
  return /[?&]ns=\d+/.test(src) && /[?&]cb=\d+/.test(src)
}

function ddosGuard (f: PageFacts): Detection {
  const hits: Hit[] = []
  if (hasSrc(f, /\/\.well-known\/ddos-guard\/js-challenge\//)) hits.push(sure('script /.well-known/ddos-guard/js-challenge/'))
  // Its script rides on the pages it protects too: only a blank page or a challenge status makes
  // it the page itself (a short order confirmation carries it as well).
  // A refusal of its own that carries the site-wide script ("Members only", 403) says something
  // else than DDoS-Guard's check: at a status, only a notice that names it (twelfth review).
  else if (hasSrc(f, /ddos-guard/)) hits.push({ evidence: 'script ddos-guard', sufficient: (f.blank && !f.appShell) || (f.challengeStatus && /ddos-guard|checking your browser/i.test(f.text)) })
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
  // The checkpoint starts its solver as a Worker from an inline script.
  if (f.inlineScript.includes('/.well-known/vercel/security/')) hits.push({ evidence: 'inline script /.well-known/vercel/security/ worker', sufficient: f.blocking })
  return { hits }
}

function sucuri (f: PageFacts): Detection {
  const hits: Hit[] = []
  // Its block's title, the older CloudProxy one too ("Sucuri WebSite Firewall - CloudProxy - Access
  // Denied": twenty-fifth review).
  const title = /^sucuri website firewall - (?:cloudproxy - )?access denied$/i.exec(f.title.trim())
  if (title !== null) hits.push(sure(`title "${title[0]}"`))
  if (f.headers['x-sucuri-block'] !== undefined) hits.push(sure('header x-sucuri-block'))
  if (f.inlineScript.includes('sucuri_cloudproxy_uuid')) hits.push(sure('inline script sucuri_cloudproxy_uuid cookie'))
  // The JS challenge evals an encoded cookie setter held in this variable, then reloads.
  if (/\bsucuri_cloudproxy_js\b/.test(f.inlineScript)) hits.push(sure('inline script sucuri_cloudproxy_js challenge'))
  // x-sucuri-id marks every response through the firewall, the origin's own 403 too; its blocks
  // are short 403s that name it.
  if (f.headers['x-sucuri-id'] !== undefined) hits.push({ evidence: 'header x-sucuri-id', sufficient: f.status === 403 && f.short && /sucuri/i.test(f.text) })
  return { hits }
}

// Radware Bot Manager (formerly ShieldSquare). Its CAPTCHA page, on validate.perfdrive.com or in
// a site's own styling, draws itself from captcha.perfdrive.com's captcha-public assets; the
// sensor (cdn.perfdrive.com/aperture, window.SSJSConnectorObj) rides on every protected page.
function shieldsquare (f: PageFacts): Detection {
  const hits: Hit[] = []
  const assets = /captcha\.perfdrive\.com\/captcha-public\//
  if (linksTo(f, assets) || hasSrc(f, assets, ['script', 'img'])) hits.push(sure('asset captcha.perfdrive.com/captcha-public/'))
  for (const title of ['ShieldSquare Captcha', 'Radware Bot Manager Captcha']) {
    if (titleIs(f, title)) hits.push(sure(`title "${title}"`))
  }
  if (hasSrc(f, /perfdrive\.com\/aperture\//, ['script']) || f.inlineScript.includes('SSJSConnectorObj')) {
    hits.push({ evidence: 'Radware sensor (perfdrive.com aperture) on a blank page', sufficient: f.blank && !f.appShell })
  }
  return { hits }
}

function imunify360 (f: PageFacts): Detection {
  // WebShield's JavaScript splash (a hosting WAF): a hidden form its script fills with a computed
  // answer and submits on load. The form's ids are the vendor's own.
  const form = ['wsidchk-form', 'wsidchk'].find((id) => hasId(f, id))
  return { hits: form === undefined ? [] : [sure(`element #${form} (Imunify360 WebShield)`)] }
}

function anubis (f: PageFacts): Detection {
  // Anubis ships its proof-of-work parameters as JSON in a script with this id.
  return { hits: hasId(f, 'anubis_challenge') ? [sure('element #anubis_challenge')] : [] }
}
