// What a challenge widget is named, and which CAPTCHA scripts draw one (docs/spec.md section 6):
// the vocabulary gate-shape.ts reads a page's elements with. Pure, like the rest of src/core.
import { CAPTCHA_NAME, looksHidden, type Tag } from './page-facts.js'

// A challenge widget, its frame or a captcha image: by id, class, frame source or image.
// A vendor's own name for its CAPTCHA counts as the word (Alibaba's "nocaptcha", Tencent's
// "tcaptcha", Yandex's "smartcaptcha"); not any word that ends so (reCAPTCHA v3's "grecaptcha-badge"
// rides on every page that loads it, ASP.NET's "pnlCaptcha" panel on a form's thank-you page:
// fourteenth review).
const WIDGET_NAME = /(?:^|[\s_-])(?:(?:re|h|fun|no|t|smart)?captcha|geetest|px-captcha|sec-cpt)(?:$|[\s_-])/i
// Names a gym's entry turnstile or a fitness challenge's container carry too: a widget's only
// beside a vendor's loader (twelfth review).
const LOADED_WIDGET_NAME = /(?:^|[\s_-])(?:turnstile|challenge-(?:container|stage|form|body))(?:$|[\s_-])/i
// A captcha vendor's frame, not any address with "challenge" in it (a bank's 3-D Secure step).
const COVER_FRAME = /captcha|turnstile|arkoselabs|geetest|_incapsula_resource/i
// A widget's frame: a bare "challenge" is a bank's 3-D Secure step or a coding exercise (twelfth
// review); Cloudflare's frames are named by their host or platform path.
const WIDGET_FRAME = new RegExp(`${COVER_FRAME.source}|challenges\\.cloudflare\\.com|\\/challenge-platform\\/`, 'i')
// In a frame's query only a key or value that is a captcha's name on its own counts (Alibaba's
// punish frame asks "action=captcha"): a star button for a repository named "CaptchaHarvester"
// is no challenge's frame (twenty-ninth review).
const QUERY_CAPTCHA = /(?:^|[?&;=])[\w-]{0,40}captcha(?:$|[&;=#])/i

// Whether a frame's address is a challenge's, by its host and path (re) or its query's own words.
function frameNamed (src: string, re: RegExp): boolean {
  const cut = src.search(/[?#]/)
  if (cut < 0) return re.test(src)
  return re.test(src.slice(0, cut)) || QUERY_CAPTCHA.test(src.slice(cut))
}

// A CAPTCHA vendor's script: reCAPTCHA's, hCaptcha's, Turnstile's, and those that draw their
// puzzle only when a button asks for it (CLICK_CAPTCHA_LOADER: Tencent's, GeeTest's, Arkose's,
// NetEase Yidun's, Alibaba's AWSC; and, by their loaders' hosts, the regional vendors whose
// addresses need not end in a script named "captcha": VAPTCHA, Dingxiang's CAPTCHA (not its
// device-id script), Shumei's CAPTCHA host, CaptchaFox, ArCaptcha).
const CLICK_CAPTCHA_LOADER = /tcaptcha|captcha\.qcloud|geetest|arkoselabs|funcaptcha|yidun|cstaticdun|\/awsc\/|vaptcha\.(?:com|cn)|dingxiang-inc\.com\/[\w/.-]{0,80}captcha|castatic\.fengkongcloud\.(?:com|cn)|captchafox\.com|arcaptcha\.(?:ir|co)/i
// The three whose widgets draw into containers named their own way (VENDOR_CONTAINER).
const BIG_THREE = /recaptcha|hcaptcha|turnstile/i
/**
 * ALTCHA's loader (altcha.min.js, npm/altcha/…, altcha-org's builds), which defines the
 * <altcha-widget> element its widget is: the word as a name of its own, not inside another
 * ("saltcha"). Multiline, so it reads a list of addresses and names one per line too.
 */
export const ALTCHA_LOADER = /(?:^|[/@])altcha(?:[.@/-]|$)/m
// A script file named for a CAPTCHA ("isd_captcha_v2021.js", "captcha.js") is a site's own or a
// regional vendor's (58.com's ISD CAPTCHA on Anjuke's check). The name after "captcha" is bounded:
// unbounded, an address of "captchacaptcha…" is read to its end once for each "captcha" in it.
const CAPTCHA_LOADER = new RegExp(`${BIG_THREE.source}|${CLICK_CAPTCHA_LOADER.source}|${ALTCHA_LOADER.source}|captcha[\\w.-]{0,200}\\.js(?:$|[?#])`, 'i')
// The button that opens such a puzzle ("点击证明" on Douban's check, id tcaptcha_btn, beside
// Tencent's TCaptcha.js): the widget, drawn only after the click. Only beside those vendors: a
// button named "recaptcha-download" beside reCAPTCHA's script, or one named for a site's own
// CAPTCHA script, opens nothing to solve (fourteenth review). A button that renews or reads out an
// image CAPTCHA is a helper of a widget, not one; a submit button bound to an invisible widget
// (class g-recaptcha, a data-sitekey) shows nothing to solve.
const CAPTCHA_OPENER = /captcha/i
// A button, or a link or a box the vendor's script binds the click to (<a id="TencentCaptcha">).
const OPENER_TAGS: ReadonlySet<string> = new Set(['button', 'a', 'div', 'span'])
const CAPTCHA_HELPER = /refresh|reload|renew|change|(?:^|[\s_-])new(?:$|[\s_-])|audio|speak|play|sound|voice|clear|reset/i
export function opensCaptcha (tag: Tag): boolean {
  const name = `${tag.attrs.id ?? ''} ${tag.attrs.class ?? ''}`
  return (OPENER_TAGS.has(tag.name) || tag.attrs.role === 'button') && !looksHidden(tag) && CAPTCHA_OPENER.test(name) && !CAPTCHA_HELPER.test(name) &&
    !VENDOR_CONTAINER.test(tag.attrs.class ?? '') && tag.attrs['data-sitekey'] === undefined
}

// A container named for a CAPTCHA in any way ("ISDCaptcha", "captchaBox"), beside a CAPTCHA's
// script, on a page whose title or a heading asks for the step in so many words: the widget its
// script draws into. Without the request, such a name is an empty panel a form keeps for later
// ("pnlCaptcha" on a thank-you page: fourteenth review).
const CONTAINER_TAGS: ReadonlySet<string> = new Set(['div', 'span', 'section'])
export function namedForCaptcha (tag: Tag): boolean {
  const name = `${tag.attrs.id ?? ''} ${tag.attrs.class ?? ''}`
  return CONTAINER_TAGS.has(tag.name) && !looksHidden(tag) && CAPTCHA_OPENER.test(name) && !CAPTCHA_HELPER.test(name) && !VENDOR_CHROME.test(name)
}
// What a CAPTCHA's script adds around its widget (reCAPTCHA v3's badge), and the notices a site
// names for it (terms, disclaimers, hints): none is a widget (fifteenth review).
const VENDOR_CHROME = /grecaptcha-(?:badge|logo|error)|terms|disclaimer|notice|polic|privacy|badge|logo|brand|error|hint|tips?(?:$|[\s_-])|label|desc/i

/** Which CAPTCHA scripts a page loads, read in one pass over its elements. */
export interface CaptchaScripts {
  /** Any CAPTCHA vendor's script, or a script file named for a CAPTCHA (CAPTCHA_LOADER). */
  loader: boolean
  /**
   * A CAPTCHA script other than reCAPTCHA's, hCaptcha's or Turnstile's (a site's own, a regional
   * vendor's): those three draw into containers named their own way (VENDOR_CONTAINER,
   * WIDGET_NAME), and a name merely holding "captcha" beside them is their badge or a notice
   * (fifteenth review).
   */
  ownLoader: boolean
  /** A vendor that draws its puzzle only on a click (CLICK_CAPTCHA_LOADER). */
  drawsOnClick: boolean
}

export function captchaScripts (tags: Tag[]): CaptchaScripts {
  const found = { loader: false, ownLoader: false, drawsOnClick: false }
  for (const tag of tags) {
    const src = tag.name === 'script' ? tag.attrs.src ?? '' : ''
    if (src === '' || !CAPTCHA_LOADER.test(src)) continue
    found.loader = true
    if (!BIG_THREE.test(src)) found.ownLoader = true
    if (CLICK_CAPTCHA_LOADER.test(src)) found.drawsOnClick = true
  }
  return found
}

// A CAPTCHA vendor's container renders nothing without the vendor's loader; an invisible
// variant (reCAPTCHA v3, invisible hCaptcha) shows nothing to solve.
export const VENDOR_CONTAINER = /(?:^|\s)(?:g-recaptcha|h-captcha|cf-turnstile)(?:$|\s)/
const INVISIBLE_FRAME = /[?&]size=invisible|frame=checkbox-invisible/
// A CAPTCHA drawn as an element of its own (ALTCHA's), unless it is told to show nothing (its
// display="invisible" runs the proof of work on submit).
const WIDGET_ELEMENT = 'altcha-widget'

// A CAPTCHA's image: by its name (Discuz!'s and Sogou's "seccode" too), or described as a CAPTCHA
// ("请输入图中的验证码", "type the code in the image": thirty-third review).
const CAPTCHA_IMAGE_WORDS = /captcha|验证码|驗證碼/i

export function isWidget (tag: Tag, loader: boolean): boolean {
  if (looksHidden(tag) || ['button', 'input', 'a', 'script', 'link', 'meta', 'style', 'form'].includes(tag.name)) return false
  const src = tag.attrs.src ?? ''
  if (tag.name === 'iframe') return frameNamed(src, WIDGET_FRAME) && !INVISIBLE_FRAME.test(src)
  if (tag.name === 'img') return CAPTCHA_NAME.test(`${src} ${tag.attrs.id ?? ''}`) || CAPTCHA_IMAGE_WORDS.test(`${tag.attrs.alt ?? ''} ${tag.attrs.title ?? ''}`)
  if (VENDOR_CONTAINER.test(tag.attrs.class ?? '')) return loader
  if (tag.name === WIDGET_ELEMENT) return loader && tag.attrs.display?.toLowerCase() !== 'invisible'
  const named = (re: RegExp): boolean => re.test(tag.attrs.id ?? '') || re.test(tag.attrs.class ?? '')
  return named(WIDGET_NAME) || (loader && named(LOADED_WIDGET_NAME))
}

// An element named as a challenge widget or its frame (WIDGET_NAME, WIDGET_FRAME).
export function isChallengeNamed (tag: Tag): boolean {
  return WIDGET_NAME.test(tag.attrs.id ?? '') || WIDGET_NAME.test(tag.attrs.class ?? '') || (tag.name === 'iframe' && frameNamed(tag.attrs.src ?? '', COVER_FRAME))
}
