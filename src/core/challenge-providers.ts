// One detector per challenge provider (SPEC §6): each names the mechanical markers it saw
// and whether any of them is sufficient on its own (see page-facts.ts for the facts).
import {
  findVisible, findVisibleWidget, firstId, hasClass, hasId, hasSrc, headerIs, hint, sure, titleIs,
  type Detection, type Hit, type PageFacts, type Tag
} from './page-facts.js'

const BROWSER_CHECK_TEXT = /checking (?:if the site connection is secure|your browser)|please wait while we (?:verify|check)|verify(?:ing)? (?:that )?you are (?:a )?human|are you a robot\?/i

// Infrastructure providers come first: when a WAF's page embeds a CAPTCHA
// vendor's widget, the WAF is the one blocking.
export const DETECTORS: ReadonlyArray<readonly [string, (f: PageFacts) => Detection]> = [
  ['cloudflare', cloudflare], ['aws_waf', awsWaf], ['datadome', datadome], ['perimeterx', perimeterx],
  ['akamai', akamai], ['imperva', imperva], ['ddos_guard', ddosGuard], ['vercel', vercel], ['sucuri', sucuri],
  ['turnstile', turnstile], ['hcaptcha', hcaptcha], ['recaptcha', recaptcha], ['generic', generic]
]

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
