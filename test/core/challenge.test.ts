import t from 'tap'
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { countWords, recognizePage, type PageKind, type PageObservation } from '../../src/core/challenge.js'
import { documentTitle, visibleText } from '../helpers/visible-text.js'

const FIXTURES = fileURLToPath(new URL('../fixtures/challenges/', import.meta.url))
const PROVIDERS = ['cloudflare', 'turnstile', 'hcaptcha', 'recaptcha', 'datadome', 'perimeterx', 'akamai', 'imperva',
  'aws_waf', 'ddos_guard', 'vercel', 'sucuri', 'google', 'generic']
const CSP = "default-src 'self' 'unsafe-inline'"

interface FixtureEntry {
  file: string
  status: number
  headers: Record<string, string>
  csp: string
  expect: { page_kind: PageKind | null; provider: string | null; widget_selector?: string }
}

const index = JSON.parse(readFileSync(FIXTURES + 'index.json', 'utf8')) as { fixtures: FixtureEntry[] }

function observe (html: string, status: number | null = 200, headers: Record<string, string> = {}): PageObservation {
  return { status, url: 'http://127.0.0.1/page', title: documentTitle(html), html, text: visibleText(html), headers }
}

function page (body: string, head = ''): string {
  return `<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`
}

// ~120 words of plain prose: a document, not a notice.
const PROSE = '<p>' + Array.from({ length: 12 }, (_, i) => `Paragraph sentence number ${i} talks about bread, flour, water and the patience a good loaf needs.`).join(' ') + '</p>'

t.test('fixture corpus: every file is indexed and every entry is servable', async t => {
  const onDisk = readdirSync(FIXTURES).filter(f => f.endsWith('.html')).sort()
  t.same(index.fixtures.map(f => f.file).sort(), onDisk, 'index.json lists exactly the HTML files')
  for (const f of index.fixtures) {
    t.equal(f.csp, CSP, `${f.file} carries the CSP that keeps Chromium on 127.0.0.1`)
    t.ok(Number.isInteger(f.status) && f.status >= 100 && f.status <= 599, `${f.file} has a real status`)
  }
  const providers = new Set(index.fixtures.map(f => f.expect.provider))
  for (const provider of PROVIDERS) t.ok(providers.has(provider), `a fixture covers provider ${provider}`)
  const kinds = new Set(index.fixtures.map(f => f.expect.page_kind))
  for (const kind of ['content', 'challenge', 'denied', 'http_error', 'empty', null]) t.ok(kinds.has(kind as PageKind | null), `a fixture expects page_kind ${kind}`)
})

for (const f of index.fixtures) {
  t.test(`fixture ${f.file} → ${f.expect.page_kind ?? '(absent)'} / ${f.expect.provider ?? 'no challenge'}`, async t => {
    const r = recognizePage(observe(readFileSync(FIXTURES + f.file, 'utf8'), f.status, f.headers))
    t.equal(r.page_kind, f.expect.page_kind ?? undefined, 'page_kind')
    t.equal(r.challenge?.provider, f.expect.provider ?? undefined, 'provider')
    t.equal(r.widget_selector, f.expect.widget_selector, 'widget_selector')
    if (f.expect.provider !== null) {
      t.ok(r.challenge!.evidence.length > 0, 'evidence names at least one marker')
      t.ok(r.challenge!.evidence.every(e => typeof e === 'string' && e.length > 0 && e.length <= 100), 'evidence is short strings')
      t.equal(new Set(r.challenge!.evidence).size, r.challenge!.evidence.length, 'evidence has no duplicates')
    }
  })
}

t.test('decisive headers recognize a challenge on a blank page, whatever their case', async t => {
  const cases: Array<[Record<string, string>, number, string, string]> = [
    [{ 'CF-Mitigated': 'Challenge' }, 403, 'cloudflare', 'header cf-mitigated: challenge'],
    [{ 'x-vercel-mitigated': 'challenge' }, 429, 'vercel', 'header x-vercel-mitigated: challenge'],
    [{ 'X-Amzn-Waf-Action': 'challenge' }, 202, 'aws_waf', 'header x-amzn-waf-action: challenge'],
    [{ 'x-amzn-waf-action': 'captcha' }, 405, 'aws_waf', 'header x-amzn-waf-action: captcha'],
    [{ 'x-sucuri-block': 'BNP005' }, 403, 'sucuri', 'header x-sucuri-block']
  ]
  for (const [headers, status, provider, evidence] of cases) {
    const r = recognizePage(observe(page(''), status, headers))
    t.equal(r.page_kind, 'challenge', provider)
    t.equal(r.challenge?.provider, provider)
    t.ok(r.challenge?.evidence.includes(evidence), `evidence names ${evidence}`)
  }
  t.same(recognizePage(observe(page(''), 200, { 'cf-mitigated': 'none' })), { page_kind: 'empty' }, 'other cf-mitigated values do not count')
})

t.test('pass-through provider headers on ordinary content are not challenges', async t => {
  const content = page('<h1>Opening hours</h1><p>Open Monday to Friday from nine to five.</p>')
  const passThrough: Array<Record<string, string>> = [{ server: 'cloudflare', 'cf-ray': '1-AMS' }, { 'x-datadome': 'protected' },
    { 'x-sucuri-id': '14016' }, { server: 'AkamaiGHost' }, { server: 'ddos-guard' }, { 'x-iinfo': '14-1-0' }]
  for (const headers of passThrough) {
    t.same(recognizePage(observe(content, 200, headers)), { page_kind: 'content' }, JSON.stringify(headers))
  }
})

t.test('pass-through headers count with the status their provider blocks with', async t => {
  t.equal(recognizePage(observe(page(''), 403, { 'x-datadome': 'protected' })).challenge?.provider, 'datadome', 'x-datadome + 403')
  t.equal(recognizePage(observe(page(''), 200, { 'x-datadome': 'protected' })).challenge, undefined, 'x-datadome + 200')
  t.equal(recognizePage(observe(page('<p>Access Denied - Sucuri Website Firewall</p>'), 403, { 'x-sucuri-id': '1' })).challenge?.provider, 'sucuri', 'x-sucuri-id + 403 + a notice naming Sucuri')
  t.same(recognizePage(observe(page('<p>Forbidden</p>'), 403, { 'x-sucuri-id': '1' })), { page_kind: 'denied' }, 'an origin 403 relayed by Sucuri is a denial')

  const rayNotice = page('<h1>127.0.0.1</h1><p>Verify you are human by completing the action below.</p><p>Ray ID: 8f1a2b3c4d5e6f70</p>')
  t.equal(recognizePage(observe(rayNotice, 403, { server: 'cloudflare' })).challenge?.provider, 'cloudflare', 'server: cloudflare + 403 + Ray ID notice')
  t.equal(recognizePage(observe(rayNotice, 200, { server: 'cloudflare' })).challenge?.provider, 'generic', 'the same notice at 200 is only the generic wording')
  const originForbidden = page('<h1>403 Forbidden</h1><p>nginx</p>')
  t.same(recognizePage(observe(originForbidden, 403, { server: 'cloudflare' })), { page_kind: 'denied' }, 'an origin 403 relayed by Cloudflare is a denial')

  const akamaiDenied = page('<h1>Access Denied</h1><p>You don\'t have permission to access this server.</p>', '<title>Access Denied</title>')
  t.equal(recognizePage(observe(akamaiDenied, 403, { server: 'AkamaiGHost' })).challenge?.provider, 'akamai', 'AkamaiGHost + 403 + Access Denied')
  t.same(recognizePage(observe(akamaiDenied, 403)), { page_kind: 'denied' }, 'Access Denied without an Akamai marker is a plain denial')
})

t.test('invisible CAPTCHA variants on a short page are not challenges', async t => {
  const v3 = '<script src="https://www.google.com/recaptcha/api.js?render=KEY"></script>'
  const hc = '<script src="https://js.hcaptcha.com/1/api.js"></script>'
  const cases: Record<string, string> = {
    'reCAPTCHA v2 invisible div': page('<p>Sign up for our weekly letter.</p><div class="g-recaptcha" data-sitekey="K" data-size="invisible"></div>', v3),
    'reCAPTCHA bound to a button': page('<p>Sign up for our weekly letter.</p><button class="g-recaptcha" data-sitekey="K">Send</button>', v3),
    'reCAPTCHA v3 badge anchor': page('<p>Sign up for our weekly letter.</p><div class="grecaptcha-badge"><iframe src="https://www.google.com/recaptcha/api2/anchor?ar=1&amp;k=K&amp;size=invisible"></iframe></div>', v3),
    'hidden reCAPTCHA container': page('<p>Sign up for our weekly letter.</p><div class="g-recaptcha" style="display: none" data-sitekey="K"></div>', v3),
    'hCaptcha invisible div': page('<p>Sign up for our weekly letter.</p><div class="h-captcha" data-size="invisible"></div>', hc),
    'hCaptcha bound to a button': page('<p>Sign up for our weekly letter.</p><button class="h-captcha" data-sitekey="K">Send</button>', hc),
    'hCaptcha invisible checkbox frame': page('<p>Sign up for our weekly letter.</p><iframe src="https://newassets.hcaptcha.com/captcha/v1/x/static/hcaptcha.html#frame=checkbox-invisible"></iframe>', hc),
    'hidden Turnstile container': page('<p>Sign up for our weekly letter.</p><div class="cf-turnstile" hidden></div>', '<script src="https://challenges.cloudflare.com/turnstile/v0/api.js"></script>')
  }
  for (const [name, html] of Object.entries(cases)) t.same(recognizePage(observe(html)), { page_kind: 'content' }, name)
})

t.test('a visible CAPTCHA widget needs its vendor loader, and gates only a block-shaped page', async t => {
  const widget = '<div class="g-recaptcha" data-sitekey="K"></div>'
  const loader = '<script src="https://www.google.com/recaptcha/api.js"></script>'
  t.equal(recognizePage(observe(page('<p>Please solve the check.</p>' + widget, loader))).challenge?.provider, 'recaptcha', 'short page + loader + widget')
  t.equal(recognizePage(observe(page('<p>Please solve the check.</p>' + widget))).challenge, undefined, 'a lookalike class without the loader')
  t.same(recognizePage(observe(page(PROSE + widget, loader))), { page_kind: 'content' }, 'a widget in a long document')
  t.equal(recognizePage(observe(page(PROSE + widget, loader), 403)).challenge?.provider, 'recaptcha', 'the same document behind a 403')
  const hcaptchaFrame = '<iframe src="https://newassets.hcaptcha.com/captcha/v1/x/static/hcaptcha.html#frame=checkbox&amp;id=1"></iframe>'
  const r = recognizePage(observe(page('<p>Please solve the check.</p>' + hcaptchaFrame)))
  t.equal(r.challenge?.provider, 'hcaptcha', 'a rendered hCaptcha checkbox frame is its own loader')
  t.equal(r.widget_selector, 'iframe[src*="hcaptcha.com"][src*="frame=checkbox"]')
})

t.test('markers only count as markup, not as text, comments or fallbacks', async t => {
  const cases: Record<string, string> = {
    'escaped code sample': page('<p>Embed it like this:</p><pre>&lt;div id="px-captcha"&gt;&lt;/div&gt; &lt;iframe src="https://geo.captcha-delivery.com/captcha/"&gt;</pre>'),
    'HTML comment': page('<p>Our shop is open today.</p><!-- <div id="px-captcha"></div> <iframe src="/_Incapsula_Resource?incident_id=1"></iframe> -->'),
    'noscript fallback': page('<p>Our shop is open today.</p><noscript><div id="sec-if-cpt-container"></div></noscript>'),
    'string inside a script': page('<p>Our shop is open today.</p><script>const tpl = \'<div id="px-captcha"></div>\'</script>'),
    'structured data': page('<p>Our shop is open today.</p><script type="application/ld+json">{"description":"window._cf_chl_opt gokuProps"}</script>'),
    'class name that merely starts the same': page('<p>Our shop is open today.</p><div class="cf-browser-verification-notes"></div>')
  }
  for (const [name, html] of Object.entries(cases)) t.same(recognizePage(observe(html)), { page_kind: 'content' }, name)
})

t.test('vendor sensor snippets are challenges only when they are the whole page', async t => {
  const incapsula = '<script src="/_Incapsula_Resource?SWJIYLWA=719d34d3"></script>'
  const awsSdk = '<script src="https://x.token.awswaf.com/x/y/challenge.js"></script>'
  const pxSensor = "<script>window._pxAppId='PXabc'</script>"
  const shortContent = '<p>The library is open from nine to five on weekdays.</p>'
  t.equal(recognizePage(observe(page('', incapsula))).challenge?.provider, 'imperva', 'Incapsula script on a blank page')
  t.same(recognizePage(observe(page(shortContent, incapsula))), { page_kind: 'content' }, 'Incapsula script on content')
  // The async sensor Imperva adds to every page it serves (ns= and cb= in its query) is not its check,
  // even on a blank page (a redirect document, an unrendered page).
  const incapsulaSensor = '<script async type="text/javascript" src="/_Incapsula_Resource?SWJIYLWA=719d34d3&ns=1&cb=961222729"></script>'
  t.same(recognizePage(observe(page('', incapsulaSensor))), { page_kind: 'empty' }, 'Incapsula page sensor on a blank page')
  t.equal(recognizePage(observe(page('', incapsulaSensor + incapsula))).challenge?.provider, 'imperva', 'the check beside the sensor is still the check')
  t.equal(recognizePage(observe(page('', awsSdk))).challenge?.provider, 'aws_waf', 'AWS WAF SDK on a blank page')
  t.same(recognizePage(observe(page(shortContent, awsSdk))), { page_kind: 'content' }, 'AWS WAF SDK on content')
  t.equal(recognizePage(observe(page('<p>Access to this page has been denied.</p>', pxSensor), 403)).challenge?.provider, 'perimeterx', 'PX sensor on a short 403')
  t.same(recognizePage(observe(page(shortContent, pxSensor))), { page_kind: 'content' }, 'PX sensor on content')
  // Its block page adds its captcha script itself: the page is the block at any status; the sensor
  // snippet, which loads main.min.js on every page of a protected site, is not.
  const pxLoadsCaptcha = "<script>window._pxAppId='PXabc';var s=document.createElement('script');s.src='/abc/captcha/captcha.js?a=c&u=1&v=&m=0';document.head.appendChild(s)</script>"
  const pxLoadsSensor = "<script>window._pxAppId='PXabc';var s=document.createElement('script');s.src='//client.px-cloud.net/PXabc/main.min.js';document.head.appendChild(s)</script>"
  t.equal(recognizePage(observe(page('', pxLoadsCaptcha), 406)).challenge?.provider, 'perimeterx', 'an inline script loading its captcha, at a status no challenge is served with')
  t.notOk(recognizePage(observe(page('', pxLoadsSensor), 406)).challenge, 'the sensor snippet on the same blank page')
})

t.test('titles: exact interstitial titles, "Just a moment..." only on a notice answered with a challenge status', async t => {
  t.equal(recognizePage(observe(page('<p>One moment.</p>', '<title>Just a moment...</title>'), 403)).challenge?.provider, 'cloudflare')
  t.equal(recognizePage(observe(page('<p>One moment.</p>', '<title>Just a moment…</title>'), 503)).challenge?.provider, 'cloudflare', 'unicode ellipsis')
  t.not(recognizePage(observe(page('<p>One moment.</p>', '<title>Just a moment...</title>'))).challenge?.provider, 'cloudflare', "a site's own notice at 200")
  t.same(recognizePage(observe(page(PROSE, '<title>Just a moment...</title>'))), { page_kind: 'content' }, 'a long document titled the same')
  t.same(recognizePage(observe(page(PROSE, '<title>Fixing "Attention Required! | Cloudflare" errors</title>'))), { page_kind: 'content' }, 'a title that quotes one')
  t.equal(recognizePage(observe(page(PROSE, '<title>Attention Required! | Cloudflare</title>'))).challenge?.provider, 'cloudflare', 'the exact block title')
})

t.test('generic browser checks: short notices only, and only when no provider is recognized', async t => {
  for (const phrase of ['Hang tight! We are checking your browser.', 'Checking your browser before accessing 127.0.0.1.',
    'Please wait while we verify your browser.', 'Checking if the site connection is secure', 'Verifying you are human. This may take a few seconds.',
    'Please verify you are a human']) {
    const r = recognizePage(observe(page(`<p>${phrase}</p>`)))
    t.equal(r.challenge?.provider, 'generic', phrase)
    t.equal(r.page_kind, 'challenge')
  }
  t.same(recognizePage(observe(page(PROSE + '<p>Some sites keep checking your browser before accessing them.</p>'))), { page_kind: 'content' }, 'a long document using the words')
  t.same(recognizePage(observe(page('<p>Hang tight, your dashboard is loading.</p>'))), { page_kind: 'content' }, '"Hang tight" alone is not a check')
  const ddg = recognizePage(observe(page('<p>Checking your browser before accessing 127.0.0.1.</p>', '<title>DDoS-Guard</title>')))
  t.equal(ddg.challenge?.provider, 'ddos_guard', 'a provider marker wins over the wording')
  t.notOk(ddg.challenge?.evidence.some(e => e.includes('short page')), 'and the generic wording is not reported as its evidence')
})

t.test('page kinds without a challenge', async t => {
  const words = page('<h1>Kettle</h1><p>A blue enamel kettle that whistles.</p>')
  for (const status of [401, 403, 407, 429, 451]) t.same(recognizePage(observe(words, status)), { page_kind: 'denied' }, `status ${status}`)
  for (const status of [400, 404, 410, 500, 502, 503, 504]) t.same(recognizePage(observe(words, status)), { page_kind: 'http_error' }, `status ${status}`)
  for (const status of [200, 203, 206]) t.same(recognizePage(observe(words, status)), { page_kind: 'content' }, `status ${status}`)
  for (const status of [null, 101, 301, 304]) t.same(recognizePage(observe(words, status)), {}, `status ${status}: the host cannot tell`)
  t.same(recognizePage(observe(page('', '<script src="/app.js"></script>'), 200)), { page_kind: 'empty' }, 'blank 200')
  t.same(recognizePage(observe('', 204)), { page_kind: 'empty' }, 'empty 204')
  t.same(recognizePage(observe(page(''), null)), { page_kind: 'empty' }, 'blank page with no status')
  t.same(recognizePage(observe(page(''), 404)), { page_kind: 'http_error' }, 'blank 404 is still an error')
  // A refusal titled as one is a denial whatever error status it comes with (a web filter's at 503).
  const filter = page('<h1>Web Page Blocked</h1><p>Access to the web page you were trying to visit has been blocked in accordance with company policy.</p>', '<title>Web Page Blocked</title>')
  t.same(recognizePage(observe(filter, 503)), { page_kind: 'denied' }, 'a web filter at 503')
  t.same(recognizePage(observe(filter.replaceAll('Web Page Blocked', 'Service Unavailable'), 503)), { page_kind: 'http_error' }, 'the same words under an error\'s title')
  const list = page(`<h1>Blocked senders</h1>${'<p>A sender you blocked can no longer write to you, and nothing they send reaches your inbox any more.</p>'.repeat(10)}`, '<title>Blocked senders</title>')
  t.same(recognizePage(observe(list, 500)), { page_kind: 'http_error' }, 'a page longer than a notice is the error')
})

t.test('2xx pages: what counts as content', async t => {
  const kind = (body: string): PageKind | undefined => recognizePage(observe(page(body))).page_kind
  t.equal(kind('<p>Loading...</p>'), undefined, 'a spinner label')
  t.equal(kind('<p>Loading, please wait</p>'), undefined, 'a longer placeholder')
  t.equal(kind('<p>Price: €34.90</p>'), 'content', 'three words')
  t.equal(kind('<p>Hello world</p>'), undefined, 'two words are not enough')
  t.equal(kind('<p>…</p>'), undefined, 'punctuation only')
  t.equal(kind('<p>Loading the annual report for the northern region now, with all the charts</p>'), 'content', 'long text that starts like a placeholder')
  // A caption and the sentence saying what is being fetched (Agoda's; twenty-eighth review).
  t.equal(kind("<p>Just a moment! We're finding great stays for your dates and destination.</p>"), undefined, 'a caption over what is being fetched')
  t.equal(kind("<p>Just a moment! We're proud of our stays: pick your dates and destination below.</p>"), 'content', 'a caption over anything else is read')
  // Loading captions in other languages (docs/decisions.md, loading captions): each has at least
  // three words, so it is the caption that keeps it from being content, not its length.
  for (const caption of ['Загрузка, пожалуйста, подождите', 'Cargando la página solicitada', 'Chargement en cours…', 'Veuillez patienter un instant',
    'Bitte warten Sie kurz', '加载中，请稍候', '読み込み中です', '로딩 중입니다 잠시만요', 'Please\u00a0wait a moment']) {
    t.equal(kind(`<p>${caption}</p>`), undefined, `placeholder "${caption}"`)
  }
  t.equal(kind('<p>Aguardente de cana artesanal</p>'), 'content', 'a caption inside a longer word is not a caption')
  t.equal(kind('<p>Truck loading and unloading services</p>'), 'content', 'a caption word after the start is not a caption')
  t.equal(kind('<p>Payment processing fees explained</p>'), 'content')
  t.equal(kind('<h1>Access denied</h1>'), 'denied', 'a short denial at 200')
  t.equal(kind('<h1>Forbidden</h1>'), 'denied')
  t.equal(kind('<p>You do not have permission to view this document.</p>'), 'denied')
  t.equal(kind('<p>Your IP address has been blocked.</p>'), 'denied')
  t.equal(kind('<h2>The request is blocked.</h2>'), 'denied', 'the request "is" blocked as it "was"')
  // A security layer's refusal of the site itself, under a bare "Error" title (CargoSmart's,
  // thirty-third review): the refusal, not the title, says what the page is.
  const blocked = '<!DOCTYPE html><html><head><title>Error</title></head><body><h2>Error</h2><p>This website is blocked.</p><p>Please contact our Helpdesk with the incident ID: 3795381944344379716.</p></body></html>'
  t.equal(recognizePage(observe(blocked)).page_kind, 'denied', 'the website "is blocked", titled "Error"')
  t.equal(kind('<p>The page has been blocked by your administrator.</p>'), 'denied', 'the page "has been" blocked')
  t.equal(kind('<p>This website is blocking cookies from other sites.</p>'), 'content', 'a site that blocks something is not blocked')
  t.equal(kind(PROSE + '<p>This website is blocked in some countries, so use a mirror.</p>'), 'content', 'a long document saying it')
  t.equal(kind(PROSE + '<p>The forbidden fruit was access denied to the garden.</p>'), 'content', 'a long document using denial words')
  // Refusals for where the visitor is (twenty-seventh review).
  t.equal(kind('<p>We believe that you are browsing our offer from a country where gambling is restricted. Thus, you cannot access our offer.</p>'), 'denied', 'from a country where it is restricted')
  t.equal(kind('<h1>Unavailable in your region</h1>'), 'denied')
  const listed = `<!DOCTYPE html><html><head><title>${Array.from({ length: 60 }, (_, i) => `Game ${i} 499 RUB`).join(' ')} ACCESS DENIED 299 RUB</title></head><body><p>Prices updated daily</p></body></html>`
  t.not(recognizePage(observe(listed)).page_kind, 'denied', 'a title that holds a whole price list, a game called "Access Denied" among them')
  t.equal(recognizePage(observe('<!DOCTYPE html><html><head><title>Access Denied</title></head><body><p>Sorry.</p></body></html>')).page_kind, 'denied', 'a title that says it')
  t.equal(kind('<p>Block reason: Access from your Country was disabled by the administrator.</p>'), 'denied')
  t.equal(kind('<p>This site is blocked from your country.</p>'), 'denied')
  t.equal(kind('<p>Unfortunately we are not yet available in your country.</p>'), 'denied', 'not yet available (twenty-eighth review)')
  t.equal(kind('<p>Free shipping to every country where we have a warehouse.</p>'), 'content', 'a country named without a refusal')
  t.equal(kind(PROSE + '<p>Some titles are not available in your country.</p>'), 'content', 'a long document saying it of some titles')
  // A framework's error page served with 200 (twenty-seventh review).
  const titled = (title: string, body: string): string => `<!DOCTYPE html><html><head><title>${title}</title></head><body>${body}</body></html>`
  t.equal(recognizePage(observe(titled('500: Internal Server Error', '<h1>500</h1><h2>Internal Server Error.</h2>'))).page_kind, 'http_error', 'a Next.js 500 at 200')
  t.equal(recognizePage(observe(titled('404 Not Found', '<h1>Not Found</h1><p>The requested URL was not found on the server.</p>'))).page_kind, 'http_error')
  t.equal(recognizePage(observe(titled('500 Days of Summer: a review', '<p>A film about love, fate and greeting cards.</p>'))).page_kind, 'content', 'a number that is no status')
  t.equal(recognizePage(observe(titled('404 Media', '<p>Subscribe to our newsletter for journalism about technology.</p>'))).page_kind, 'content', 'a status number with no error named')
  t.equal(recognizePage(observe(titled('404 Not Found', PROSE))).page_kind, 'content', 'a long page')
  t.equal(recognizePage(observe(titled('504 Gateway Time-out', '<h1>504 Gateway Time-out</h1><hr><center>nginx</center>'))).page_kind, 'http_error', "nginx's 504 (thirty-first review)")
  t.equal(recognizePage(observe(titled('404 Not Found | Viator', "<h1>Oops...</h1><p>We can't find that page.</p>"))).page_kind, 'http_error', "beside the site's name (thirty-first review)")
  t.equal(recognizePage(observe(titled('404 Media | Tech news', '<p>Subscribe to our newsletter.</p>'))).page_kind, 'content', "a status number with no error named, beside a site's name")
  // A title that calls the page an error page, in any language (thirty-first review).
  const sorry = '<h1>Sorry</h1><p>The service cannot be reached right now. Please try again in a moment.</p>'
  for (const title of ['GetYourGuide – Error', 'Error | Shop', 'Error', 'Erreur - Boutique', '[에러] 에러페이지 - 시스템오류', 'システムエラー | ストア', '系统错误', 'Página de error', 'Site Error', 'Server Error | Shop', 'Application Error']) {
    t.equal(recognizePage(observe(titled(title, sorry))).page_kind, 'http_error', title)
  }
  for (const title of ['Error handling in Go', 'Error Correction Codes | Lecture 4', 'Trial and error – a podcast', 'Site Error Codes Explained', 'Fixing a server error in nginx']) {
    t.equal(recognizePage(observe(titled(title, sorry))).page_kind, 'content', `a title that holds the word: ${title}`)
  }
  t.equal(recognizePage(observe(titled('Error | Shop', PROSE + PROSE))).page_kind, 'content', 'a long page titled so')
  // A maintenance page served with 200 (twenty-eighth review: about 30 in the robots.txt sweeps).
  const back = '<h1>We are down for scheduled maintenance</h1><p>We expect to be back shortly. Thank you for your patience.</p>'
  for (const title of ['Site under maintenance | Common Sense Media', 'Outbrain | Maintenance', 'Maintenance Mode', "We'll be back soon!", 'Wartungsarbeiten / Maintenance work', 'Onderhoud/Maintenance', 'メンテナンス中です', '롯데마트몰 - 시스템 점검 공지', 'Modo de mantenimiento']) {
    t.equal(recognizePage(observe(titled(title, back))).page_kind, 'http_error', title)
  }
  t.equal(recognizePage(observe(titled('CAMP Aircraft Maintenance Management Solutions', '<h1>Aircraft maintenance, tracked</h1><p>Book a demo.</p>'))).page_kind, 'content', 'a business named for the work it sells')
  t.equal(recognizePage(observe(titled('Site under maintenance', PROSE))).page_kind, 'content', 'a long page')
})

t.test('a sign-in page is content; selector-stable readiness decides whether it is the content asked for', async t => {
  const form = '<h1>Sign in</h1><form><input type="email" name="e"><input type="password" name="p"><button>Sign in</button></form>'
  t.same(recognizePage(observe(page(form))), { page_kind: 'content' }, 'a short sign-in page')
  t.same(recognizePage(observe(page(PROSE + form))), { page_kind: 'content' }, 'a long page with a sign-in box')
  t.same(recognizePage(observe(page(form), 401)), { page_kind: 'denied' }, 'behind a 401 it is a denial')
  // A sign-in's banner may warn off whoever is not allowed in: the page still asks for a password.
  const banner = '<p>Access to this application is restricted to authorized persons. Do not proceed if you are not authorized.</p>'
  t.same(recognizePage(observe(page(form + banner))), { page_kind: 'content' }, 'a short sign-in page under a legal banner')
  t.same(recognizePage(observe(page(banner))), { page_kind: 'denied' }, 'the banner alone, asking for nothing, refuses')
  t.same(recognizePage(observe(page(form.replace('type="password"', 'type="password" hidden') + banner))), { page_kind: 'denied' }, 'a password field the page hides asks for nothing')
})

t.test('countWords counts two ideographs as a word and ignores punctuation', async t => {
  t.equal(countWords(''), 0)
  t.equal(countWords(' … — • '), 0)
  t.equal(countWords('Hello, world! 42'), 3)
  t.equal(countWords('l\'été à Paris'), 4)
  t.equal(countWords('东京は晴れ'), 3, 'five ideographs in one run: three words')
  t.equal(countWords('东京 は晴れ'), 3, 'a run is counted by itself: one word and two')
  t.equal(countWords('Yahoo! JAPAN ヘルプ'), 4, 'Latin words one by one beside a run of kana')
  t.equal(countWords('𠀀𠀁'), 1, 'characters, not UTF-16 units: two ideographs outside the BMP are one word')
  const chinese = '这是一篇关于面包的文章。'.repeat(20)
  t.same(recognizePage(observe(page(`<p>${chinese}</p>`))), { page_kind: 'content' })
  t.same(recognizePage(observe(page(`<p>${chinese}请稍候，正在检查您的浏览器</p><div id="challenge-stage"></div>`))), { page_kind: 'content' }, 'a long CJK document is not a notice')
  // The same notice in Chinese and in English gets the same answer, short and long.
  for (const times of [10, 20]) {
    const zh = recognizePage(observe(page(`<p>${'这是一篇关于面包的文章。'.repeat(times)}请稍候，正在检查您的浏览器</p><div id="challenge-stage"></div>`))).page_kind
    const en = recognizePage(observe(page(`<p>${'This is an article about bread. '.repeat(times)}Please wait, checking your browser</p><div id="challenge-stage"></div>`))).page_kind
    t.equal(zh, en, `${times} sentences: ${en} in both`)
  }
})

t.test('widget_selector is reported only with a challenge', async t => {
  const stageOnly = page(PROSE + '<div id="challenge-stage"></div>')
  t.same(recognizePage(observe(stageOnly)), { page_kind: 'content' }, 'a generic id on a long page is neither a challenge nor a widget')
  const r = recognizePage(observe(page('<p>Just a second.</p><div id="challenge-stage"></div>')))
  t.equal(r.challenge?.provider, 'cloudflare')
  t.equal(r.widget_selector, '#challenge-stage')
})

t.test('a capture cut off inside its last script is read as the browser reads it: the script runs to the end of the page', async t => {
  const script = 'window._cf_chl_opt = { cvId: "3" }; ' + 'var step = "the words of a script that never ends"; '.repeat(200)
  const check = `<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><h1>Checking your browser before accessing example.test</h1><p>This may take a few seconds.</p><script>${script}`
  t.equal(visibleText(check), 'Checking your browser before accessing example.test\nThis may take a few seconds.', "the script's text is not shown")
  const r = recognizePage(observe(check, 403))
  t.equal(r.challenge?.provider, 'cloudflare', "the check's own script, never closed, still names it")
  t.ok(r.challenge?.evidence.includes('inline script window._cf_chl_opt'), 'read from the script')
  // A stylesheet never closed before the body, as a saved copy may have it: the browser shows nothing.
  t.equal(visibleText('<html><head><style data-href="/fonts.css"></head><body><p>Dashboard</p></body></html>'), '', 'a stylesheet never closed takes the page')
})
