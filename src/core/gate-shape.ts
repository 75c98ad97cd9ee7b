// Recognizing a gate by what it is (docs/spec.md section 6), not by which vendor's strings it carries:
// the page's visible content is one verification step (a challenge widget or its frame, a
// captcha image, a single "verify / continue / press and hold" action, or a heading that asks
// for one), there is little else on it (no navigation, no article), and it came back where
// content was expected (a short notice, a challenge status, a challenge path). Vendor markers
// only name the provider (challenge-vendors.ts). Pure, like the rest of src/core.
import { GATE_MAX_WORDS, SHORT_NOTICE_MAX_WORDS, answeredOk, answeredRefusal, countWords, isRefresh, loadedLink, hiddenByItsClass, isButtonInput, isChoice, isField, isTickBox, looksHidden, saysLittle, statusExcusesFields, tagsOf, withoutQuotes, type PageFacts, type Tag } from './page-facts.js'
import { refreshDelay, refreshTarget } from './client-redirect.js'
import { DISTIL_TEMPLATE, infrastructureNamed, vendorCodeRuns } from './challenge-vendors.js'
import { BOT_WORD, CHECKING_BROWSER, CHECKING_BROWSER_ALL, IN_QUEUE, NOT_A_ROBOT, POLICY_REFUSAL, REFUSED, REFUSED_OUTRIGHT, ROBOT_TRAFFIC, ROBOT_WORDS, VERIFY_STEP, WAITING, wafBlockIn, askingWords } from './gate-words.js'
import { blockTextOf, classHiddenBlocks, dialogTexts, headingText, headings as headingsOf, hiddenBlocks, textOf } from './markup-elements.js'
import { scriptChecks } from './script-checks.js'
import { FRAME_TAG, pageCover } from './gate-cover.js'
import { captchaAnswerForms, countFields, fieldsBesideWidget, fieldsOn, formsHolding, isOtherEntry, isSearchBox } from './gate-fields.js'
import { CHALLENGE_SEGMENT, pathOf, resolve, withoutQuery } from './page-url.js'
import { VENDOR_CONTAINER, captchaScripts, isWidget, namedForCaptcha, opensCaptcha } from './gate-widgets.js'
import { GATE_MAX_LINKS, linksIn, siteChrome, without } from './site-chrome.js'

/**
 * Words a page whose only field answers its CAPTCHA may carry: a portal's own check explains
 * below the CAPTCHA why it was shown and what to do about it (Yandex's "Ой!", 261 words).
 */
const CAPTCHA_HELP_MAX_WORDS = 2 * GATE_MAX_WORDS

// A title that calls the page a challenge, read only where nothing else is on show.
const CHALLENGE_TITLE = /\bchallenge\b/i
// Where providers send a request they want to look at.
const CHALLENGE_PATH = /\/(?:captcha|challenge|sorry|blocked|validatecaptcha|distil_r_captcha|_sec\/|cdn-cgi\/challenge-platform|px-captcha|verify)/i

// A directory that holds a bot check's own page (its stylesheet, script, images): a first-party
// check serves its notice from such a path as a provider serves its widget, or its guard its app
// (Newgrounds' "NG Guard", an app shell drawn from /_guard/assets/ at 403: thirty-third review).
// Cloudflare's paths are left to its detector: its passive challenge-platform script rides on
// every page.
const CHALLENGE_ASSET_DIR = /\/(?:[\w.]+[-_]|_)?(?:challenges?|anti-?bot|guard)(?:[-_][\w.]+)?\//i
// Where a site keeps what its users upload: a fitness "challenge"'s cover picture is no check's
// (eleventh review).
const USER_CONTENT = /\/(?:uploads?|media|user[-_]?content|files)\//i

export interface GateShape {
  /** The page is a gate by its shape. */
  gate: boolean
  /** Short signal names: what the shape rests on (challenge.evidence). */
  signals: string[]
  /**
   * The page is a document of its own: a site's navigation or an article, more words than a gate
   * carries, asking for nothing in its title or headings, answered without a challenge status. A
   * vendor's challenge inside it is a fragment a sub-request brought into one of its panes, not
   * the page.
   */
  document: boolean
  /**
   * The markup of what covers the page when a challenge does (an element named as a challenge's
   * frame, or a layer holding one): who drew it says whose the gate is, whatever else the page loads.
   */
  cover?: string
}

export function gateShape (f: PageFacts): GateShape {
  const signals: string[] = []
  // The page's visible fields, every one.
  const typed = fieldsOn(f)
  const { loader, ownLoader, drawsOnClick } = captchaScripts(f.tags)
  // A CAPTCHA's image is one beside somewhere to answer it: a help page's screenshot named
  // "captcha-settings.png" has no form (twelfth review).
  const answerable = f.tags.some(tag => tag.name === 'form')
  const headings = headingText(f.shown)
  // The title or a heading asks for the step in so many words ("访问验证", "Verify you are human").
  const titleAsks = VERIFY_STEP.test(f.title) || VERIFY_STEP.test(headings)
  // What a site's own or a click-drawn CAPTCHA draws its widget into: the button that opens it, or
  // a container named for it where the page asks.
  const drawnInto = (tag: Tag): boolean => (drawsOnClick && opensCaptcha(tag)) || (titleAsks && ownLoader && namedForCaptcha(tag))
  const widgetTag = (tag: Tag): boolean => (isWidget(tag, loader) && (tag.name !== 'img' || answerable)) || drawnInto(tag)
  const widgets = f.tags.filter(widgetTag)
  const widget = widgets.length > 0 && !onlyWaitingFrames(f, widgets)
  // What the form holding the widget holds besides it, if a form does.
  const widgetForm = widget ? formsHolding(f.shown, widgetTag) : []
  if (widget) signals.push('shape: verification widget')
  // A vendor's template is read on a page of any length: its wording is its own.
  // Nothing to read beyond the title and a caption ("验证中..." over "请稍候...", a title that asks
  // over a trace id): a step's own page, whatever its words.
  // An app's markup saying "Loading…" is an app on its way, not a check (thirteenth review).
  const quiet = quietPage(f) && !f.appMarkup
  // A notice that quotes a check's words is about the check (a status page's incident).
  const unquoted = withoutQuotes(f.text)
  const words = askingWords(f.status, f.challengeStatus, widget || quiet)
  // A page with nothing on show whose title calls it a challenge ("Client Challenge", Fastly's,
  // whose script does the work, twenty-seventh review): the check's own page.
  const titledChallenge = quiet && CHALLENGE_TITLE.test(f.title)
  // A bot manager's own notice by its template's wording (Distil's, which Imperva serves), read on a
  // page of any length. Where it is the page and says it took the visitor for a bot, it is the
  // manager's step at any status (Equibase's at 200, 86 words, its waiting words hidden until its
  // script runs; twenty-ninth review); a help article naming the same plugins says no such thing.
  const distilWords = DISTIL_TEMPLATE.test(f.text)
  const template = distilWords && BOT_WORD.test(unquoted)
  if (template) signals.push("shape: a bot manager's notice by its wording")
  const asks = words.heading.test(f.title) || words.heading.test(headings) || (f.short && words.text.test(unquoted)) || dialogAsks(f.shown, words.text) ||
    distilWords || titledChallenge
  if (asks) signals.push('shape: asks for verification')
  // "Confirm you're a real person" over a video selfie or a photo ID is an identity check, which a
  // person does for the site's own reasons, not a bot check (thirteenth review).
  const identity = !widget && IDENTITY_CHECK.test(unquoted)
  // A check that runs its script first may say what it is only in its fallback for browsers
  // without JavaScript, which Chromium does not show ("we need to make sure that you are not a
  // robot"). On a short notice answered with a challenge status, with nothing to type in, a short
  // fallback that says the visitor must be no robot (NOT_A_ROBOT, never the broader phrases: a
  // site-wide fallback line may speak of a "security check" or a spam filter's "kein Roboter" on
  // every page) asks for the page. An app's fallback says only that it needs JavaScript.
  const fallbackAsks = !asks && f.short && f.challengeStatus && typed === 0 &&
    countWords(f.fallbackText) <= SHORT_NOTICE_MAX_WORDS && NOT_A_ROBOT.test(f.fallbackText)
  if (fallbackAsks) signals.push('shape: its no-JavaScript fallback asks for verification')
  const action = singleAction(f)
  if (action) signals.push('shape: a single action')
  // A form that sends its answer to a check's own address (CHALLENGE_SEGMENT): Amazon's "Click the
  // button below to continue shopping" never says what it is, but its one button submits to
  // /errors/validateCaptcha (saved without its 503, it read content; thirty-fourth review).
  const submitsToCheck = f.tags.some(tag => tag.name === 'form' && CHALLENGE_SEGMENT.test(tag.attrs.action ?? ''))
  if (submitsToCheck) signals.push("shape: its form submits to a check's address")
  // <meta http-equiv="refresh" content="60"> with no URL, or with the page's own address: the page
  // reloads itself to retry.
  const refreshes = f.tags.some(tag => isRefresh(tag) && refreshDelay(tag.attrs.content) !== undefined && reloadsItself(refreshTarget(tag.attrs.content ?? ''), f.url))
  if (refreshes) signals.push('shape: refreshes itself')
  const checkApp = f.tags.some(isCheckAsset)
  if (checkApp) signals.push('shape: served from a challenge path')
  const links = linksIn(f.tags)
  // Checks whose page only runs a script (script-checks.ts).
  const scripted = scriptChecks(f, links, typed)
  signals.push(...scripted)
  // A refusal that names the security layer which made it ("blocked by our security system") and
  // why (bots, suspicious traffic), answered with a refusal status: the block of a bot check,
  // whatever else the notice explains.
  // So is such a refusal on a short page a bot manager built, at any status, its reason given or
  // not: Imperva's "Error 15 … This request was blocked by our security service", served at 200
  // inside its 403 check (thirtieth review).
  const refusedAsBot = wafBlockIn(f.text) !== null && ((answeredRefusal(f) && BOT_WORD.test(f.text)) || (f.short && infrastructureNamed(f) !== undefined))
  if (refusedAsBot) signals.push('shape: a security layer refused it')

  const chrome = siteChrome(f, loader)
  // It asks in so many words (not the bare word "captcha", not a cart's "continue shopping"): in
  // its title, a heading, a dialog, or the text of a short page or of a page's own part that is
  // short once the site's chrome is left out (Douban's check under its header).
  // The page's own part is read only at a challenge status (Douban's is 403): answered as content,
  // a blog post's "verify you are human before commenting" above its comment box asks for nothing
  // the reader came for (fourteenth review).
  // The page's own part, chrome aside, when it is no longer than a short notice, its quotes left out.
  const shortMain = chrome.mainWords <= SHORT_NOTICE_MAX_WORDS ? withoutQuotes(chrome.mainText) : ''
  const mainText = f.challengeStatus ? shortMain : ''
  const asksForStep = titleAsks || (f.short && VERIFY_STEP.test(unquoted)) || dialogAsks(f.shown, VERIFY_STEP) ||
    VERIFY_STEP.test(mainText)
  // A short notice; or one that is short once the site's chrome around it is left out, that asks
  // in so many words and holds a vendor's widget itself (its frame, or its container with the
  // loader), not in the header or footer: a footer's "protected by reCAPTCHA" line or a help
  // page's screenshot named "captcha" makes no notice of a thank-you page (sixth review).
  const notice = f.short || (chrome.mainWords <= SHORT_NOTICE_MAX_WORDS && asksForStep &&
    tagsOf(chrome.main).some(tag => (isWidget(tag, loader) && (tag.name === 'iframe' || VENDOR_CONTAINER.test(tag.attrs.class ?? ''))) || drawnInto(tag)))
  const article = f.tags.some(tag => tag.name === 'article')
  const nav = article || chrome.navigation
  // No navigation, no more links than a gate carries and at most `maxWords`, the footer's aside.
  const littleBut = (maxWords: number): boolean => !nav && links - chrome.footerLinks <= GATE_MAX_LINKS && f.words - chrome.footerWords <= maxWords
  const bare = littleBut(GATE_MAX_WORDS)
  // A site's own check served in its own layout (its header, menus and footer around a CAPTCHA
  // vendor's widget that asks: Google Scholar's, Bing's): on a short page with no article, the
  // widget is what there is, and the links are the site's chrome. The vendor's loader must be
  // there: in a site's layout, an element merely named "captcha" may be anything. The form that
  // holds the widget has nothing else to fill in or choose (a poll's, a lookup's), and the page
  // carries no more words than a gate, footers, sidebars and cookie banners aside (a header can
  // hold an article's hero).
  const framed = !bare && widget && loader && asksForStep && notice && !article &&
    Math.min(f.words - chrome.footerWords, chrome.ownWords) <= GATE_MAX_WORDS && !widgetForm.some(tag => isField(tag) || isChoice(tag))
  if (framed) signals.push("shape: a widget that asks, in the site's own layout")
  // Its title or a heading says the request was refused, and the page, or its own part once the
  // site's chrome is left out, is a short notice giving automation as the reason: a site's own
  // block of automated visitors, at any status (SSRN's "Content Blocked … you may be using an
  // automated script"; microsoft.com's "Your request has been blocked" over "Your current
  // User-Agent string appears to be from an automated process", in its full layout: twenty-third
  // review, batch 37). Only automation, bots, crawlers and scrapers: an account locked for
  // "suspicious activity" is the account's business. Nothing to fill in but the site's search.
  // A title or heading that asks for the step in so many words ("Unusual Traffic Detected") over
  // such a reason is the same block (See Tickets' "… if you are accessing our website using
  // automated software", twenty-third review).
  const refusal = REFUSED.test(f.title) || REFUSED.test(headings) || titleAsks ||
    [f.title, ...headingsOf(f.shown)].some(line => POLICY_REFUSAL.test(line) && AUTOMATION.test(line))
  // What a browser shows, its footer aside, is read when that is a short notice: a notice in two
  // languages, one shown by the browser's language, carries both in its markup (mobile.de's,
  // thirty-second review).
  const ownText = f.short || f.words - chrome.footerWords <= SHORT_NOTICE_MAX_WORDS ? unquoted : shortMain
  // Answered with a challenge status, one sentence of the page's own short part that refuses
  // (blocked, denied, not "restricted", which a quota says too) for traffic a robot makes is the
  // same block without a heading to say so (ResearchGate's "We've picked up some unusual traffic
  // from your network and have temporarily blocked access from your IP address", a headline styled
  // by its class, 403; batch 106). Sentences end at a stop or a block element's edge; the reason is
  // the robot's traffic, not anything automatic ("Ihr Konto wurde automatisch gesperrt").
  const refusedInSentence = mainText !== '' && sentencesOf(withoutQuotes(blockTextOf(chrome.main)).replace(ADDRESS_WORD, ' '))
    .some(line => REFUSED_OUTRIGHT.test(line) && ROBOT_TRAFFIC.test(line))
  const refusesAutomation = !article && countFields(f.tags, isSearchBox) === 0 &&
    ((refusal && AUTOMATION.test(ownText.replace(ADDRESS_WORD, ' '))) || refusedInSentence)
  if (refusesAutomation) signals.push('shape: its own part refuses automated visitors')
  const refusedInLayout = refusesAutomation && !bare
  // A waiting room's notice: the visitor is in line, the page will refresh by itself, and nothing
  // else is there but its footer (Cloudflare's Waiting Room, 86 words with its footer: thirtieth
  // review). At any status: the site's operator chooses the one its waiting room answers with.
  const queued = bare && IN_QUEUE.test(unquoted) && WAITING.test(unquoted) && f.words - chrome.footerWords <= SHORT_NOTICE_MAX_WORDS
  if (queued) signals.push('shape: holds the visitor in line')
  const little = bare || framed || refusedInLayout
  if (bare) signals.push('shape: little else on the page')
  // A form a person fills in (sign-in, search, contact) is the page's purpose, not a gate's.
  // (The site's search box in its header is chrome too, beside a widget or a refusal in the layout.)
  const fields = widget ? fieldsBesideWidget(f, widgetForm, loader, asksForStep, widgetTag) : refusesAutomation ? 0 : typed
  if (fields > 0) signals.push('shape: form fields')
  // Nothing to type on the page but a CAPTCHA's answer, beside the CAPTCHA: the page is there to be
  // solved, whatever it says around it (the Polish procurement site's "Validation request").
  // The form that holds the answer has nothing else to fill in or choose (a court's cause-list
  // search has a date and a list beside its CAPTCHA, a guestbook an editor), and the page says it
  // wants a person's proof or names the validation in its title or a heading (fourteenth review).
  // The answer's box may be the one field on the page, unnamed (Yandex's "rep": gate-fields.ts).
  const answer = captchaAnswerForms(f)
  const solves = widget && answer !== undefined && typed === (answer.unnamed ? 1 : 0) && fields === 0 &&
    answer.tags.every(tag => !isChoice(tag) && ((answer.unnamed && isField(tag)) || !isOtherEntry(tag))) &&
    (VERIFY_STEP.test(unquoted) || VALIDATION_NAMED.test(`${f.title} ${headings}`))
  if (solves) signals.push("shape: its only field answers the CAPTCHA")

  const path = CHALLENGE_PATH.test(pathOf(f.url))
  if (path) signals.push('shape: challenge path')
  if (f.challengeStatus) signals.push(`shape: status ${f.status ?? ''}`.trim())
  if (f.short) signals.push('shape: short notice')
  else if (notice) signals.push("shape: short notice inside the site's chrome")
  // A widget on a page where a bot manager's own code runs (Distil's distil_referrer on
  // ImmobilienScout24's "Ich bin kein Roboter", its reasons making it too long for a notice): the
  // manager put the widget there, whatever status the page came with.
  const guarded = widget && vendorCodeRuns(f) !== undefined
  if (guarded) signals.push("shape: a bot manager's code runs beside the widget")
  // A title that says the browser is being checked names what the page is, however much help it
  // gives below (a self-hosted check's "Verifying your browser…" over its retry and help
  // paragraphs, 87 words; twenty-eighth review).
  const checkingTitle = CHECKING_BROWSER.test(f.title)
  if (checkingTitle) signals.push('shape: its title says the browser is being checked')
  const cameBackWrong = notice || f.challengeStatus || path || solves || guarded || refusesAutomation || checkingTitle || template || queued

  // The step itself: a widget on a notice, or a request for verification with one thing to do (or
  // a page that retries by itself, or answered with a status providers serve their checks with),
  // or a bot check's own page answered with such a status, or a page that is only there to run
  // its script before anything is shown.
  // A short page that asks is a step when something says it is one: its single action, a refresh,
  // a status providers check with; answered as content (2xx), being short is no such sign unless
  // nothing else is there to read (a title that asks over a caption or a trace id) or the page
  // says it is at work ("this may take a few seconds"). A help page
  // about "not a robot", a "human verification failed" notice, an account's "suspicious access"
  // warning say it in a few lines too (twelfth review).
  // A title that says the browser is being checked, over a request to wait for it, answered with
  // a status no content comes with, is a check at work however long its list of what it checks
  // (Knownsec's "浏览器安全检查 … 请等待 5 秒", 134 characters, at 521; batch 110). The wait is
  // asked for in its own words: WAITING also holds "checking your browser", which a help page
  // about the browser's settings repeats.
  const checking = checkingTitle && !answeredOk(f) && WAITING.test(unquoted.replace(CHECKING_BROWSER_ALL, ' '))
  const step = !identity && ((widget && (notice || asks || solves)) || ((asks || fallbackAsks) && (action || refreshes || (f.short && (!answeredOk(f) || quiet || WAITING.test(unquoted))) || f.challengeStatus)) || checking || (checkApp && f.challengeStatus) || (submitsToCheck && action && f.short) || scripted.length > 0 || refusedAsBot || refusesAutomation || template || queued)
  // A challenge laid over the whole page: what is under it cannot be used until it is passed.
  const cover = pageCover(f)
  const covered = cover !== undefined
  if (covered) signals.push('shape: a challenge covers the page')
  // A page whose only field answers its CAPTCHA, with no navigation or article and no more links
  // than a gate carries, is that CAPTCHA's page with its help below (why it was shown, what to do).
  const captchaWithHelp = solves && littleBut(CAPTCHA_HELP_MAX_WORDS)
  if (captchaWithHelp && !bare) signals.push("shape: a CAPTCHA's page with its help")
  const gate = (step && (little || captchaWithHelp) && cameBackWrong && (fields === 0 || statusExcusesFields(f))) || covered
  return { gate, signals, document: nav && f.words > GATE_MAX_WORDS && !asks && !f.challengeStatus && !covered && !refusesAutomation, ...(cover !== undefined && { cover }) }
}

/** The sentences of a text, split after their closing stop (Latin or CJK) or at a line's end. */
function sentencesOf (text: string): string[] {
  return text.split(/(?<=[.!?])\s+|(?<=[。！？])|\n+/)
}

// Automation as a refusal's reason, in the languages the gate words read; narrower than BOT_WORD,
// which also takes "suspicious" and "unusual" for a security layer's refusals. Automated requests,
// not something done automatically: an account's lock-out says that of itself ("Ihr Konto wurde
// automatisch gesperrt", "bloqué automatiquement", "автоматически заблокирован"), where a block
// names the requests ("automatische Anfragen", "requêtes automatiques", "автоматические запросы",
// "自动化程序", "自動化されたアクセス"; not "自動的にロック", nor "自动化审核", a review done by a
// machine). Bots, scrapers and crawlers are gate-words.ts's ROBOT_WORDS, in every language it has.
const AUTOMATION = new RegExp([...ROBOT_WORDS, String.raw`\bautomat(?!ically|isch\b|iquement|icamente|ycznie)`, 'автомат(?!ически(?![а-яё]))',
  '自[动動](?:化(?:された)?)?(?:程序|程式|プログラム|请求|請求|リクエスト|访问|訪問|存取|アクセス|脚本|腳本|ツール|工具|软件|軟體|ソフト|查询|查詢|流量)'].join('|'), 'i')

// An address a notice prints (a host, a URL): its words are a site's name, not a reason (a web
// filter's "roulette-bot-plus.com/robots.txt … blocked in accordance with company policy").
// Read on a short notice's words only.
const ADDRESS_WORD = /\S{0,200}\.[a-z]{2,}\S{0,200}/gi

// Titles and headings that name a CAPTCHA's validation ("Validation request", "Security check").
const VALIDATION_NAMED = /validat|verif|captcha|security|human/i
// Every widget on the page is a vendor's frame inside a block its markup keeps hidden: the
// challenge frame reCAPTCHA and hCaptcha append to any page that loads them, waiting there until
// they challenge (a rendered page with an invisible reCAPTCHA on its button carries one). Read only
// when every widget is a frame, which is rare.
function onlyWaitingFrames (f: PageFacts, widgets: Tag[]): boolean {
  if (!widgets.every(tag => tag.name === 'iframe')) return false
  const hidden = hiddenBlocks(f.shown)
  const waiting = new Set<string>()
  let block = 0
  for (const frame of f.shown.matchAll(FRAME_TAG)) {
    while (block < hidden.length && hidden[block][1] <= frame.index) block++
    if (block < hidden.length && hidden[block][0] <= frame.index) waiting.add(tagsOf(frame[0])[0]?.attrs.src ?? '')
  }
  return widgets.every(tag => waiting.has((tag.attrs.src ?? '').toLowerCase()))
}

// The page's own stylesheet, script or image, served from a bot check's directory.
function isCheckAsset (tag: Tag): boolean {
  const url = tag.name === 'link' ? loadedLink(tag)
    : tag.name === 'script' || (tag.name === 'img' && !USER_CONTENT.test(tag.attrs.src ?? '')) ? tag.attrs.src : undefined
  return url !== undefined && !url.includes('/cdn-cgi/') && CHALLENGE_ASSET_DIR.test(withoutQuery(url))
}

// A refresh's target that is the page itself: none, or its own address exactly (a CMS writes its
// page's own address into an auto-refresh; another query is another page: fourteenth review).
function reloadsItself (target: string, url: string): boolean {
  return target === '' || resolve(target, url) === url
}

/** The page says nothing beyond its title but a caption or a word or three (an id, a trace). */
function quietPage (f: PageFacts): boolean {
  // Or so says its markup, once what its classes hide is left out (Baidu's check keeps a timeout
  // notice in blocks of class "hide" for when its script fails): the markup holds at least what a
  // browser shows, so a quiet markup is a quiet page. Read only on a short page.
  return saysLittle(f.title, f.text) || (f.short && saysLittle(f.title.toLowerCase(), textOf(without(f.shown, classHiddenBlocks(f.shown, tag => tagsOf(tag).some(hiddenByItsClass))))))
}


// The one thing a check gives to do: a button (or a link or element that is one: role=button, a
// "btn" class), or, with no button at all, the one box to tick, the one link, or a slider its
// script draws into an empty track (thirteenth review).
const BUTTON_CLASS = /(?:^|\s)(?:btn|button)(?:$|[\s-])/i
const IDENTITY_CHECK = /\bselfie\b|\bphoto id\b|\bid (?:document|card)\b|\bpassport\b|\bface scan\b|\bliveness\b/i
const ONWARD_LINK = /[?&][\w-]+=|\/(?:_+)?(?:verify|check|captcha|challenge|continue)\b/i
const SLIDER_NAME = /(?:^|[\s_-])(?:slide|slider|slide-track|slide-box|drag|nc)(?:$|[\s_-]|_\d)/i

function singleAction (f: PageFacts): boolean {
  const shown = f.tags.filter(tag => !looksHidden(tag))
  const controls = shown.filter(tag => tag.name === 'button' || isButtonInput(tag) ||
    tag.attrs.role === 'button' || (tag.name === 'a' && BUTTON_CLASS.test(tag.attrs.class ?? '')))
  if (controls.length > 0) return controls.length === 1
  // A link that goes on through the check (a token in its query, a verify path), not a "reset
  // password" or "all help articles" beside a notice.
  const links = shown.filter(tag => tag.name === 'a' && ONWARD_LINK.test(tag.attrs.href ?? ''))
  const ticks = shown.filter(isTickBox)
  const sliders = shown.filter(tag => tag.name === 'div' && SLIDER_NAME.test(`${tag.attrs.id ?? ''} ${tag.attrs.class ?? ''}`))
  return ticks.length + links.length + (sliders.length > 0 ? 1 : 0) === 1
}

// A bot check that puts its step in a dialog over the page asks there, under a heading of any level.
function dialogAsks (markup: string, words: RegExp): boolean {
  for (const text of dialogTexts(markup)) if (words.test(text)) return true
  return false
}
