// Detectors of CAPTCHA widgets (Turnstile, hCaptcha, reCAPTCHA, and Google's sorry page that
// carries one). A widget is a gate only on a page shaped like one; see captchaWidget.
import { findVisible, findVisibleWidget, hasSrc, type Detection, type Hit, type PageFacts, type Tag } from './page-facts.js'
import { captchaIsThePage } from './challenge-markers.js'
import { vendorOf } from './challenge-vendors.js'
import { NOT_A_ROBOT } from './gate-words.js'

// Google's "sorry" page (unusual traffic from your network): a reCAPTCHA inside form#captcha-form.
// Its wording is Google's only where the page's check is Google's own (reCAPTCHA, or none in the
// markup): sites copy the sentence onto gates of their own with another vendor's widget
// (Turnstile, hCaptcha), and then that vendor is who stands in the way.
export function google (f: PageFacts): Detection {
  const hits: Hit[] = []
  const form = f.tags.some(tag => tag.name === 'form' && tag.attrs.id === 'captcha-form')
  const widget = findVisibleWidget(f, 'g-recaptcha')
  if (form && widget !== undefined) hits.push({ evidence: 'form #captcha-form with a reCAPTCHA widget (Google sorry page)', sufficient: captchaIsThePage(f) })
  // Google Scholar's own check: its form #gs_captcha_f, the reCAPTCHA rendered into #gs_captcha_c
  // by its script (no g-recaptcha class in the markup).
  const scholar = f.tags.some(tag => tag.name === 'form' && tag.attrs.id === 'gs_captcha_f') ? findVisible(f, tag => tag.attrs.id === 'gs_captcha_c') : undefined
  if (scholar !== undefined) hits.push({ evidence: 'form #gs_captcha_f with its reCAPTCHA container (Google Scholar)', sufficient: f.blocking })
  if (f.short && /our systems have detected unusual traffic from your computer network/i.test(f.text)) {
    const vendor = vendorOf(f)?.provider
    const googles = vendor === undefined || vendor === 'recaptcha'
    hits.push({ evidence: 'text "our systems have detected unusual traffic" (Google sorry page)', sufficient: googles })
  }
  // Google Search's JavaScript check keeps a link that reloads the search with emsg=SG_REL for
  // when its script fails; served to Google's Android app its <noscript> is empty, and that link,
  // hidden, is its only mark on a page with nothing on show (twenty-eighth review).
  const reload = f.tags.some(tag => tag.name === 'a' && /(?:[?&]|&amp;)emsg=SG_REL(?![\w-])/.test(tag.attrs.href ?? ''))
  if (reload) hits.push({ evidence: "link back to the search with emsg=SG_REL (Google Search's JavaScript check)", sufficient: f.short })
  const youtube = youTubeRefusal(f)
  if (youtube !== undefined) hits.push({ evidence: `YouTube's player refuses to play: "${youtube}"`, sufficient: true })
  return { hits, widget: widget !== undefined ? '.g-recaptcha' : scholar !== undefined ? '#gs_captcha_c' : undefined }
}

// YouTube's watch page for a client it takes for a robot: the served document is the app's shell
// and the refusal is the player's state in its inline JSON, which the app draws over the player
// ("Sign in to confirm you're not a bot"). An age check shares the status and asks something else.
const YOUTUBE_LOGIN_REQUIRED = /"playabilityStatus":\{"status":"LOGIN_REQUIRED","reason":"((?:[^"\\]|\\.){1,200})"/

function youTubeRefusal (f: PageFacts): string | undefined {
  const reason = YOUTUBE_LOGIN_REQUIRED.exec(f.inlineScript)?.[1].replace(/\\u2019|’/g, "'")
  return reason !== undefined && NOT_A_ROBOT.test(reason) ? reason : undefined
}

export function turnstile (f: PageFacts): Detection {
  const script = hasSrc(f, /challenges\.cloudflare\.com\/turnstile\//, ['script'])
  const widget = findVisibleWidget(f, 'cf-turnstile')
  return captchaWidget(f, script, widget, 'script challenges.cloudflare.com/turnstile', 'widget .cf-turnstile', '.cf-turnstile')
}

export function hcaptcha (f: PageFacts): Detection {
  const script = hasSrc(f, /hcaptcha\.com\/1\/api\.js/, ['script'])
  const frame = findVisible(f, tag => tag.name === 'iframe' && /hcaptcha\.com\/.{0,300}#frame=checkbox(?!-invisible)/.test(tag.attrs.src ?? ''))
  const div = findVisibleWidget(f, 'h-captcha')
  const evidence = div !== undefined ? 'widget .h-captcha' : 'iframe hcaptcha.com checkbox'
  const selector = div !== undefined ? '.h-captcha' : 'iframe[src*="hcaptcha.com"][src*="frame=checkbox"]'
  return captchaWidget(f, script || frame !== undefined, div ?? frame, 'script hcaptcha.com/1/api.js', evidence, selector)
}

export function recaptcha (f: PageFacts): Detection {
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
// A widget beside fields a person fills in (a sign-in or contact form) protects that form; it
// does not stand between the driver and the page, unless the status says it does.
function captchaWidget (f: PageFacts, loader: boolean, widget: Tag | undefined, loaderEvidence: string, widgetEvidence: string, selector: string): Detection {
  if (!loader || widget === undefined) return { hits: [] }
  const sufficient = captchaIsThePage(f)
  return { hits: [{ evidence: loaderEvidence, sufficient }, { evidence: widgetEvidence, sufficient }], widget: selector }
}
