// Weak vendor markers: names in script, frame and stylesheet URLs, cookie and variable names.
// Each also appears on ordinary pages of a protected site (a sensor, an invisible widget), so
// none of them makes a page a gate; once the page's shape says it is one (gate-shape.ts), they
// name who put it there (docs/spec.md section 6: challenge.provider). Pure.
import type { PageFacts } from './page-facts.js'

// Infrastructure first, as in challenge-providers.ts: a WAF's block page that embeds a CAPTCHA
// vendor's widget is the WAF's.
const VENDORS: ReadonlyArray<readonly [string, RegExp]> = [
  ['cloudflare', /\/cdn-cgi\/challenge-platform\/|_cf_chl|cf-chl-|cf_chl_|cf-browser-verification/],
  ['aws_waf', /awswaf\.com|gokuprops|awswafcookiedomainlist/],
  ['datadome', /captcha-delivery\.com|datadome/],
  ['perimeterx', /perimeterx|px-cdn\.net|px-cloud\.net|pxappid|px-captcha|_px\d?=/],
  ['distil', /distilnetworks|distil_r_|distilcaptcha|distilidentificationblock/],
  ['kasada', /kpsdk|\/ips\.js\b|kasada/],
  ['akamai', /\/_sec\/cp_challenge|sec-if-cpt|errors\.edgesuite\.net/],
  ['imperva', /_incapsula_resource|incapsula/],
  ['ddos_guard', /ddos-guard/],
  ['vercel', /\/\.well-known\/vercel\/security\//],
  ['sucuri', /sucuri/],
  ['imunify360', /wsidchk|imunify360/],
  ['qrator', /\/__qrator\//],
  // Google's JavaScript check sends browsers without JavaScript to this retry address.
  ['google', /\/httpservice\/retry\/enablejs/],
  ['shieldsquare', /perfdrive\.com|shieldsquare|ssjsconnectorobj/],
  ['arkose', /funcaptcha|arkoselabs/],
  ['geetest', /geetest/],
  ['turnstile', /challenges\.cloudflare\.com\/turnstile/],
  ['hcaptcha', /hcaptcha\.com/],
  ['recaptcha', /\/recaptcha\/|g-recaptcha/]
]

// Vendors whose widget sits on other people's gates (a WAF's, a bot manager's, a site's own).
const CAPTCHA_VENDORS: ReadonlySet<string> = new Set(['arkose', 'geetest', 'turnstile', 'hcaptcha', 'recaptcha'])

/** Whether `provider` is a CAPTCHA vendor rather than the infrastructure that serves a gate. */
export function isCaptchaVendor (provider: string): boolean {
  return CAPTCHA_VENDORS.has(provider)
}

// A block page's own footer names who serves it ("… is protected by Imunify360", "Performance &
// security by Cloudflare"): the vendor tells the person, in words, whose page this is. Only
// infrastructure vendors: "protected by reCAPTCHA" sits under ordinary forms.
const BRANDS: ReadonlyArray<readonly [string, RegExp]> = [
  ['cloudflare', /cloudflare/], ['datadome', /datadome/], ['perimeterx', /perimeterx/], ['akamai', /akamai/],
  ['imperva', /imperva|incapsula/], ['ddos_guard', /ddos-guard/], ['sucuri', /sucuri/], ['imunify360', /imunify360/], ['qrator', /qrator/]
]
const BRANDED = /\b(?:protected|powered|secured|security|served|blocked) by ([\w-]+)/gi

/**
 * The vendor that best names who put a gate there, with its marker as evidence. In order: an
 * infrastructure vendor in what the page loads or is built of (sources, form actions, ids,
 * classes, where its no-JavaScript fallback goes); one the page names in words as its protector
 * on a short notice; a CAPTCHA vendor whose widget the page loads; last, names in inline script,
 * which may be configuration for a vendor the page does not use (a site's check page that
 * configures several and loads one).
 */
export function vendorOf (f: PageFacts): { provider: string, evidence: string } | undefined {
  // Markup only, never the page's text (a code sample, a comment), except the protector's own words.
  const built = [...f.tags.flatMap(tag => [tag.attrs.src, tag.attrs.href, tag.attrs.action, tag.attrs.id, tag.attrs.class]), ...f.noscriptAway]
    .filter(value => value !== undefined).join('\n').toLowerCase()
  const script = f.inlineScript.toLowerCase()
  return firstMarker(built, vendor => !isCaptchaVendor(vendor)) ?? brandOf(f) ??
    firstMarker(built, isCaptchaVendor) ?? firstMarker(script, () => true)
}

function firstMarker (markers: string, among: (provider: string) => boolean): { provider: string, evidence: string } | undefined {
  for (const [provider, marker] of VENDORS) {
    if (!among(provider)) continue
    const hit = marker.exec(markers)
    if (hit !== null) return { provider, evidence: `vendor marker "${hit[0].slice(0, 40)}"` }
  }
  return undefined
}

function brandOf (f: PageFacts): { provider: string, evidence: string } | undefined {
  if (!f.short) return undefined
  for (const [phrase, name] of f.text.matchAll(BRANDED)) {
    const brand = BRANDS.find(([, pattern]) => pattern.test(name.toLowerCase()))
    if (brand !== undefined) return { provider: brand[0], evidence: `text "${phrase.slice(0, 60)}"` }
  }
  return undefined
}

// A widget's own markup carries its maker's names: Turnstile's frame and inputs are named cf-chl-….
const MAKER: Readonly<Record<string, string>> = { turnstile: 'cloudflare' }

/**
 * The infrastructure vendor whose weak marker a page with `captcha`'s widget carries, if any: not
 * a CAPTCHA vendor, and not the widget's own maker (whose names the widget brings along).
 */
export function infrastructureOf (f: PageFacts, captcha: string): { provider: string, evidence: string } | undefined {
  const vendor = vendorOf(f)
  return vendor !== undefined && !isCaptchaVendor(vendor.provider) && MAKER[captcha] !== vendor.provider ? vendor : undefined
}
