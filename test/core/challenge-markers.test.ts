import t from 'tap'
import { recognizePage, type PageObservation } from '../../src/core/challenge.js'
import { documentTitle, visibleText } from '../helpers/visible-text.js'

// The rules the real corpus (test/fixtures/real) called for, each pinned on its smallest case.
// The real pages themselves are checked in challenge-real.test.ts.

function observe (html: string, status = 200, headers: Record<string, string> = {}): PageObservation {
  return { status, url: 'http://127.0.0.1/page', title: documentTitle(html), html, text: visibleText(html), headers }
}
const page = (body: string, head = ''): string => `<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`
const provider = (html: string, status = 200): string | undefined => recognizePage(observe(html, status)).challenge?.provider

t.test('Cloudflare error pages: block codes are gates, origin errors are not', async t => {
  const cfPage = (code: number, what: string): string => page(`<div id="cf-wrapper"><div id="cf-error-details"><h1><span>Error</span> <span>${code}</span></h1><p>Ray ID: 615fd3beecf63df1</p><h2>${what}</h2></div></div>`)
  for (const code of [1005, 1006, 1009, 1010, 1015, 1020]) {
    const r = recognizePage(observe(cfPage(code, 'Access denied'), 403))
    t.equal(r.challenge?.provider, 'cloudflare', `error ${code}`)
    t.ok(r.challenge?.evidence.includes(`Cloudflare error page, block code ${code}`), 'evidence names the code')
  }
  for (const [code, status] of [[522, 522], [521, 521], [1016, 530], [1001, 530], [502, 502]]) {
    t.same(recognizePage(observe(cfPage(code, 'Connection timed out'), status)), { page_kind: 'http_error' }, `error ${code} stays an http_error`)
  }
  // An error's code under a refusal status, signed as every page of the layout is: the error.
  const directIp = page('<div id="cf-wrapper"><div id="cf-error-details"><h1><span>Error</span> <span>1003</span></h1><p>Ray ID: 430e24b1e5af905f</p><h2>Direct IP access not allowed</h2></div><p>Cloudflare Ray ID: 430e24b1e5af905f • Performance &amp; security by Cloudflare</p></div>')
  t.same(recognizePage(observe(directIp, 403)), { page_kind: 'http_error' }, 'code 1003 at 403 is the error it names (thirty-second review)')
  t.equal(recognizePage(observe(directIp.replace('1003', '1020'), 403)).challenge?.provider, 'cloudflare', 'the same page with a block code is the block')
  // The newer layout (2023 on) has neither id: its stylesheet from the edge's own path says it is.
  const newer = (code: number, what: string): string => page(`<div class="main-wrapper" role="main"><h1><span class="error-description">${what}</span> <span class="code-label">Error code <span>${code}</span></span></h1><p>You cannot access example.com. Refresh the page or contact the site owner to request access.</p></div><p class="ray-id-wrapper">Ray ID: <span class="plain-ray-id">74010bfafc5c1d24</span></p>`,
    '<link rel="stylesheet" href="/cdn-cgi/styles/errors.css" media="screen">')
  t.equal(recognizePage(observe(newer(1020, 'Access denied'), 200)).challenge?.provider, 'cloudflare', 'the newer layout with a block code, at any status')
  t.same(recognizePage(observe(newer(1003, 'Direct IP access not allowed'), 403)), { page_kind: 'http_error' }, 'the newer layout with an error code')
  t.notOk(recognizePage(observe(newer(1020, 'Access denied').replace('errors.css', 'site.css'), 200)).challenge, 'another stylesheet under the edge path is no error layout')
  const custom = page('<div class="cf-error-details cf-error-1020"><h1>Access denied</h1><p>Ray ID: 61fcd5c5acfbccea</p></div>')
  t.equal(provider(custom, 403), 'cloudflare', 'a custom page carries the code as a class')
  t.same(recognizePage(observe(custom.replace('cf-error-1020', 'cf-error-1016'), 530)), { page_kind: 'http_error' }, 'the same layout with 1016')
  t.equal(provider(page('<div><h1>Error 1020</h1><p>Access denied</p></div>'), 403), undefined, 'a code without the error layout is not enough')
  // A site's block page in the layout, in its own words and without a code: the status decides.
  const ownWords = page('<div class="cf-error-details"><h1>¡Alto, no puedes acceder!</h1><h2>¿Por qué me han bloqueado?</h2></div>')
  t.equal(provider(ownWords, 403), 'cloudflare', 'at 403, a block')
  t.ok(recognizePage(observe(ownWords, 403)).challenge?.evidence.includes('Cloudflare error layout, no code, status 403'))
  t.equal(provider(ownWords, 429), 'cloudflare', 'at 429, a block')
  t.same(recognizePage(observe(ownWords, 530)), { page_kind: 'http_error' }, 'at 530, an origin error')
  t.not(recognizePage(observe(ownWords, 200)).page_kind, 'challenge', 'at 200, no block')
  // Cloudflare's suspected-phishing warning in the same layout lets the visitor on at a press: a
  // form with hidden values and a button refuses nobody (sixteenth review).
  const warning = (form: string): string => page(`<div class="cf-error-details"><h1>Warning: Suspected Phishing Site Ahead!</h1><p>This link has been flagged as phishing.</p>${form}</div>`)
  const dismiss = '<form action="/cdn-cgi/phish-bypass" method="GET"><input type="hidden" name="u" value="/q.php"><input type="hidden" name="atok" value="77c1f8"><button type="submit">Dismiss this warning and enter site</button></form>'
  t.not(recognizePage(observe(warning(dismiss), 403)).page_kind, 'challenge', 'a warning one press lets the visitor past')
  t.equal(provider(warning('<form action="/verify" method="POST"><input type="text" name="answer"><button type="submit">Verify</button></form>'), 403), 'cloudflare', 'a form with something to fill in is no way on')
  // A button submits its form unless its type says otherwise: an empty or unknown type submits too.
  for (const type of ['', 'Submit ', 'bogus']) {
    t.not(recognizePage(observe(warning(dismiss.replace('type="submit"', `type="${type}"`)), 403)).page_kind, 'challenge', `a button of type "${type}" lets the visitor past`)
  }
  t.equal(provider(warning(dismiss.replace('type="submit"', 'type="button"')), 403), 'cloudflare', 'a plain button submits nothing: no way on')
  const printsStatus = page('<div class="cf-error-details"><h1>Error 403</h1><p>You do not have access to this page.</p></div>')
  t.equal(provider(printsStatus, 403), 'cloudflare', 'a page printing its refusal status is the page without a code')
  t.same(recognizePage(observe(printsStatus.replace('Error 403', 'Error 502'), 502)), { page_kind: 'http_error' }, 'an outage printing its status stays an error')
})

t.test('Cloudflare bot-management script: the page only when nothing else is there', async t => {
  const script = "<script async src='/cdn-cgi/bm/cv/664825181/api.js'></script>"
  t.equal(provider(page('', script)), 'cloudflare', 'blank page')
  t.same(recognizePage(observe(page('<p>Opening hours: nine to five, Monday to Friday.</p>', script))), { page_kind: 'content' }, 'on content')
  // A document with no words that shows a frame or a picture (an ad slot's banner) is a container.
  for (const shows of ['<iframe width="728" height="90" src="https://ads.example.test/banner"></iframe>', '<img src="/banner.png" width="728" height="90">']) {
    t.equal(recognizePage(observe(page(shows, script))).page_kind, 'empty', `showing ${/<(\w+)/.exec(shows)?.[1] ?? ''}`)
  }
  t.equal(provider(page('<iframe src="https://ads.example.test/banner" style="display:none"></iframe>', script)), 'cloudflare', 'a hidden frame shows nothing')
  // Another vendor's own marker on the same blank page names it: the snippet rides on every page.
  const datadome = "<script>var dd={'rt':'i','cid':'AHrlqAAAAAMA','hsh':'2211F522B61E269B869FA6EAFFB5E1','host':'geo.captcha-delivery.com'}</script>"
  t.equal(provider(page('', datadome + script)), 'datadome', "DataDome's check behind Cloudflare's snippet")
})

t.test("Kasada's notice: its SDK booted on a short page answered with a challenge status", async t => {
  const sdk = '<script>window.KPSDK={};KPSDK.now=Date.now</script><script src="/149e9513-01fa/2d206a39-8ed7/ips.js?KP_UIDz=x"></script>'
  const notice = page('<p>Your request could not be processed. Please note that your reference ID is 19e02762.</p>', sdk)
  const r = recognizePage(observe(notice, 429))
  t.equal(r.challenge?.provider, 'kasada')
  t.ok(r.challenge?.evidence.includes('Kasada KPSDK in inline script + script ips.js'))
  t.not(recognizePage(observe(notice, 200)).page_kind, 'challenge', 'at 200 the SDK rides on an ordinary page')
  for (const status of [401, 403, 503]) t.not(provider(notice, status), 'kasada', `a protected site's own short ${status} is not Kasada's notice`)
  t.not(provider(page('<p>Too many requests.</p>', '<script src="/ips.js?v=2"></script>'), 429), 'kasada', 'another script named ips.js is not Kasada')
  t.not(provider(page('<p>Too many requests.</p>', '<script>window.KPSDK={}</script>'), 429), 'kasada', 'both signs are needed')
  t.same(recognizePage(observe(page('<p>Opening hours: nine to five, Monday to Friday, and Saturdays until noon.</p>', sdk), 200)), { page_kind: 'content' }, 'on content')
})

t.test("F5's blocking page: its documented words with the support ID it fills in, at any status", async t => {
  // The default page as F5 documents it; ASM sends it with 200 unless told otherwise.
  const stock = '<html><head><title>Request Rejected</title></head><body>The requested URL was rejected. Please consult with your administrator.<br><br>Your support ID is: 14396929317839226498<br><br><a href=\'javascript:history.back();\'>[Go Back]</a></body></html>'
  for (const status of [200, 403]) {
    const r = recognizePage(observe(stock, status))
    t.equal(r.challenge?.provider, 'f5', `at ${status}`)
    t.ok(r.challenge?.evidence.includes('text "The requested URL was rejected" (F5 default blocking page)'), 'evidence names the page')
  }
  t.equal(provider(stock.replace('14396929317839226498', '< 14396929317839226498>')), 'f5', 'an ID printed inside stray angle brackets is still text')
  t.not(provider(stock.replace(/Your support ID is: \d+/, '')), 'f5', 'the words without a support ID are not enough')
  const custom = page('<h1>Sorry, your request was blocked.</h1><p>If you think this is a mistake, contact us with your support ID: 9238472938472934551.</p>')
  t.equal(provider(custom, 403), 'f5', "a site's own words keep the support ID beside a refusal")
  // Translated by the site, its refusal only in F5's default title (batch 100).
  const polish = '<html><head><title>Request Rejected</title></head><body>Zadanie nie moze zostac zrealizowane. Skontaktuj sie ze swoim administratorem.<br><br>Twoj numer zgloszenia to: <b>SG 12761826267573060917</b></body></html>'
  t.equal(provider(polish), 'f5', 'a Polish support ID under the default title')
  t.not(provider(polish.replace('Request Rejected', 'Zgłoszenie')), 'f5', 'the same ID under a title that refuses nothing')
  t.equal(provider(page('<h1>Anfrage blockiert</h1><p>The requested URL was blocked. Ihre Support-ID lautet: 9238472938472934551</p>')), 'f5', 'a German support ID')
  t.not(provider(page('<p>Thanks for writing. Your support ID is 92384729 and we will answer within a day.</p>')), 'f5', 'a support ticket number beside no refusal')
  t.not(provider(page('<p>Payment declined. Your card was denied by the issuer. Support ID: 987654321.</p>')), 'f5', "a short ID is not F5's")
  const article = page(`<h1>Troubleshooting F5 blocks</h1><p>${'When the WAF rejected a request the page says the requested URL was rejected and gives a support ID: 14396929317839226498. '.repeat(6)}</p>`)
  t.not(provider(article), 'f5', 'an article quoting the page is a document')
})

t.test("Cloudflare's challenge form is its own only when it posts to Cloudflare", async t => {
  const form = (action: string): string => page(`<h1>Please complete the challenge below to confirm you are human</h1><form id="challenge-form"${action}><button>Submit</button></form>`)
  t.equal(provider(form(' action="/?__cf_chl_captcha_tk__=abc"'), 403), 'cloudflare', 'its token in the action')
  t.equal(provider(form(' action="/cdn-cgi/l/chk_jschl"'), 403), 'cloudflare', 'its path')
  t.equal(provider(form(''), 403), 'cloudflare', 'no action')
  t.equal(provider(form(' action="//duckduckgo.com/anomaly.js?sv=html"'), 403), 'generic', "a site's own check that names its form the same")
})

t.test("a site's own short refusal printing Cloudflare's Ray ID is Cloudflare's block", async t => {
  const block = page('<h1>Request Blocked</h1><p>You have been blocked. Contact support with the following information:</p><p>Your Ray ID for this request is 8b60e6b8ef84d09b</p>')
  for (const status of [403, 429]) {
    const r = recognizePage(observe(block, status))
    t.equal(r.challenge?.provider, 'cloudflare', `at ${status}`)
    t.ok(r.challenge?.evidence.includes(`text "Ray ID for this request is 8b60e6b8ef84d09b" on a short ${status} page`))
  }
  t.not(recognizePage(observe(block, 200)).page_kind, 'challenge', 'at 200 it is no refusal')
  t.not(provider(block.replace('8b60e6b8ef84d09b', '8b60e6b8'), 403), 'cloudflare', 'an ID that is no Ray ID')
  t.not(provider(block.replace('Ray ID', 'order ID'), 403), 'cloudflare', 'another ID of 16 hex digits')
  const details = page('<h1>Security check</h1><p>If this goes on, send us the IP and Ray ID shown in the details.</p><div id="details" style="display:none"><li>Ray ID - 96df6dd86c8ed1e7</li></div><button>Details</button>')
  t.equal(provider(details, 403), 'cloudflare', 'the Ray ID in a details box a button opens')
  t.not(provider(page('<h1>Security check</h1><p>Send us the details.</p>', '<script>var cfg = { "ray id": "96df6dd86c8ed1e7" }</script>'), 403), 'cloudflare', 'a Ray ID in a script is not printed')
})

t.test("F5's bot defense: a blank page that loads its script from /TSPD/", async t => {
  const tspd = '<script src="/TSPD/08a336eaa2ab2000141df29539a97a439422f53f629cd1f6?type=10"></script>'
  const r = recognizePage(observe(page('', tspd), 200))
  t.equal(r.challenge?.provider, 'f5')
  t.ok(r.challenge?.evidence.includes('script /TSPD/ (F5 bot defense) on a blank page'))
  t.same(recognizePage(observe(page('<p>Opening hours: nine to five, Monday to Friday.</p>', tspd), 200)), { page_kind: 'content' }, 'the script it adds to ordinary pages')
  t.not(provider(page('', '<script src="/TSPD/?type=25"></script>'), 200), 'f5', 'no script id, no check')
  // Rendered (batch 19): the check's script has added its probes of loopback ports to the body.
  const probes = ['404', 'random_url', '200', '403'].map(p => `<script src="http://127.0.0.1:8888/${p}"></script>`).join('')
  t.equal(provider(page(probes, tspd), 200), 'f5', 'rendered, with the probes it adds')
  t.not(provider(page('', `${tspd}<script src="/js/vendor.js"></script><script src="/js/app.js"></script><script src="/js/runtime.js"></script>`), 200), 'f5', "an app's unrendered shell that carries the script")
})

t.test('a short denial that names a web application firewall is its block page', async t => {
  const waf = page('<h1>Кажется, у вас включён VPN</h1><p>Отключите его и обновите страницу.</p><p>Код страницы: cian_waf_block</p>')
  t.equal(provider(waf, 403), 'generic', 'a WAF named in an identifier')
  t.equal(provider(page('<h1>Access denied</h1><p>This request was blocked by the website firewall.</p>'), 403), 'generic', '"firewall"')
  for (const words of ["You've been blocked by network security.", 'Your request was blocked by our security service: it looked automated.', 'Access denied by bot protection.', 'Request rejected by the anti-bot system.']) {
    t.equal(provider(page(`<h1>${words}</h1><p>If you think this is a mistake, file a ticket.</p>`), 403), 'generic', words)
  }
  t.not(provider(page('<h1>Sorry, this page is not available to you.</h1><p>Network security tips: keep your router updated.</p>'), 403), 'generic', 'a security layer named beside no refusal')
  t.not(recognizePage(observe(waf, 200)).page_kind, 'challenge', 'not without a denial status')
  t.not(provider(waf, 401), 'generic', 'a sign-in status is no firewall block')
  t.same(recognizePage(observe(page('<h1>Forbidden</h1><p>You may not view this page. If you are behind a corporate firewall, contact your administrator.</p>'), 403)), { page_kind: 'denied' }, 'advice about a firewall names no block')
  t.equal(provider(page('<h1>请求被WAF拦截</h1><p>请稍后再试</p>'), 403), 'generic', '"waf" beside CJK text')
  t.same(recognizePage(observe(page('<h1>Forbidden</h1><p>You do not have access to the wafer catalogue.</p>'), 403)), { page_kind: 'denied' }, '"waf" inside another word is no firewall')
  // The firewall and the refusal in the languages of the sites scrapers meet.
  for (const words of ['网站防火墙：您的请求带有不合法参数，已被网站管理员设置拦截！', 'Ihre Anfrage wurde von der Firewall blockiert.', 'Votre requête a été bloquée par le pare-feu.', 'Su solicitud fue bloqueada por el cortafuegos.', 'La richiesta è stata bloccata dal firewall.', '요청이 방화벽에 의해 차단되었습니다.', 'Запрос заблокирован файрволом.', '您的访问被网站防火墙拒绝。']) {
    t.equal(provider(page(`<h1>${words}</h1><p>ID 8812</p>`), 403), 'generic', words)
  }
  t.same(recognizePage(observe(page('<h1>Zugriff nicht möglich</h1><p>Prüfen Sie die Firewall-Einstellungen Ihres Routers.</p>'), 403)), { page_kind: 'denied' }, 'advice about a firewall, in German, names no refusal')
  t.same(recognizePage(observe(page('<h1>Accès impossible</h1><p>Bloque le pare-feu de votre box, puis réessayez.</p>'), 403)), { page_kind: 'denied' }, 'the bare verb is no refusal that happened')
  // The visitor's own firewall, or whether one blocked, is advice, in English as in Chinese and German.
  for (const advice of ['Check whether your firewall is blocking the connection.', 'Your firewall blocked the connection? Allow this site.', '请检查您的防火墙是否阻止了对本站的访问。', '请检查防火墙是否阻止了访问。', 'Prüfen Sie, ob Ihre Firewall die Verbindung blockiert.']) {
    t.same(recognizePage(observe(page(`<h1>Forbidden</h1><p>${advice}</p>`), 403)), { page_kind: 'denied' }, `advice to the visitor: ${advice}`)
  }
  for (const words of ['Check your firewall settings. Request blocked by the website firewall.', 'Our firewall, which checks if requests are safe, blocked this one.', 'Firewall: if you see this, your request was blocked.']) {
    t.equal(provider(page(`<h1>Forbidden</h1><p>${words}</p>`), 403), 'generic', `the site's firewall beside advice or a question is still its block: ${words}`)
  }
  t.same(recognizePage(observe(page('<h1>Forbidden</h1><p>Wondering if the firewall blocked you? Contact support.</p>'), 403)), { page_kind: 'denied' }, 'a question whether a firewall blocked')
  // 拒绝 says a refusal happened only as one ("被拒绝", "拒绝访问"): a cookie banner's "全部拒绝" (reject all) beside a firewall's name refuses nothing.
  t.not(provider(page('<h1>Cookie 设置</h1><p>我们使用防火墙日志 Cookie。</p><button>全部拒绝</button><button>全部接受</button>'), 403), 'generic', 'a cookie banner\'s "reject all" beside a firewall')
  for (const advice of ['Use the firewall to negate spoofed packets.', '방화벽 광고 차단 설정을 확인하세요.']) {
    t.not(provider(page(`<h1>Help</h1><p>${advice}</p>`), 403), 'generic', `no refusal that happened: ${advice}`)
  }
})

t.test('an error page that says the request set off the security layer is its block (thirty-fourth review)', async t => {
  const blocked = (why: string): string => page(`<h1>Sorry, you have been blocked</h1><h2>Why have I been blocked?</h2><p>${why}</p><p>REQUEST ID : c333418b-d280</p>`, '<title>Access Denied</title>')
  const copied = blocked("It seems that something in your recent request triggered our website's security system. These protections keep the site safe from misuse.")
  const r = recognizePage(observe(copied, 462))
  t.equal(r.challenge?.provider, 'generic', "a firewall's own status, Cloudflare's wording")
  t.ok(r.challenge?.evidence.includes('text "your recent request triggered our website\'s security system" on an error page'), 'the words are evidence')
  t.equal(provider(blocked('The action you just performed triggered the security solution.'), 403), 'generic', "Cloudflare's own sentence at 403")
  t.same(recognizePage(observe(blocked('Your recent activity triggered our security system, so your account is locked.'), 403)), { page_kind: 'denied' }, "an account's lock-out speaks of activity, not a request")
  t.same(recognizePage(observe(blocked('Please contact the site owner.'), 462)), { page_kind: 'denied' }, 'the same refusal giving no such reason')
  // Served with 200, only under a title or a heading that says the request was refused (AUSTRAC's
  // "Access denied", thirty-fifth review).
  const at200 = recognizePage(observe(copied, 200))
  t.equal(at200.challenge?.provider, 'generic', 'at 200 under "Sorry, you have been blocked"')
  t.ok(at200.challenge?.evidence.includes('text "your recent request triggered our website\'s security system" on a page titled as a refusal'), 'the evidence says where')
  const neutral = copied.replace('Sorry, you have been blocked', 'Welcome').replace('Why have I been blocked?', 'About us').replace('<title>Access Denied</title>', '<title>Home</title>')
  t.not(recognizePage(observe(neutral, 200)).page_kind, 'challenge', 'at 200 under a title and headings that refuse nothing')
  // The template's paragraphs of help make it longer than a short notice, not than a gate.
  const help = ' Various actions can cause this block, such as submitting specific words or phrases, executing a SQL command, or sending improperly formatted data.'.repeat(3)
  t.equal(provider(copied.replace('from misuse.', `from misuse.${help}`), 462), 'generic', 'with its paragraphs of help (about 90 words)')
  t.not(recognizePage(observe(copied.replace('from misuse.', `from misuse.${help.repeat(4)}`), 462)).page_kind, 'challenge', 'not on a page longer than a gate')
  t.not(recognizePage(observe(blocked('Your request triggered a retry. The security of your data matters to us.'), 500)).page_kind, 'challenge', 'the words in two sentences')
  t.not(recognizePage(observe(blocked('Your request triggered an error in our data protection module.'), 500)).page_kind, 'challenge', 'a module that protects data is no security layer')
  // Or the request was taken for an attack or a robot.
  for (const why of ['Something in your request was considered suspicious (such as a defective header or invalid cookie).', 'This request appears to be abnormal.', 'Your request has been flagged as malicious by our filters.']) {
    t.equal(provider(blocked(why), 403), 'generic', why)
  }
  t.same(recognizePage(observe(blocked('Your account was considered suspicious and has been locked.'), 403)), { page_kind: 'denied' }, 'an account taken for suspicious is the account\'s business')
  t.same(recognizePage(observe(blocked('Your request was considered carefully; access is for members only.'), 403)), { page_kind: 'denied' }, 'a request considered, not suspected')
})

t.test('Akamai references: #18 is a denial, other classes are errors', async t => {
  const ref = (n: number, title: string): string => page(`<h1>${title}</h1>The requested URL is not available.<p>Reference&#32;&#35;${n}&#46;b7912f17&#46;1611327678&#46;242187b8</p>`, `<title>${title}</title>`)
  t.equal(provider(ref(18, 'Access Denied'), 403), 'akamai')
  t.equal(provider(page('<h1>Access denied</h1><p>Sorry.</p><p>Reference: 18.de912f17.1611350370.1c253a89</p>'), 403), 'akamai', 'a customer-branded "Reference: 18.…"')
  t.same(recognizePage(observe(ref(9, 'Invalid URL'), 400)), { page_kind: 'http_error' }, 'Reference #9 (invalid URL)')
  t.same(recognizePage(observe(ref(11, 'Service Unavailable'), 503)), { page_kind: 'http_error' }, 'Reference #11 (DNS failure)')
  // The reference read by its own shape wherever a short page prints it (twenty-third review).
  t.equal(provider(page('<h1>403 - Permission Denied</h1><p>Quote the reference number &#32;&#35;18&#46;11551060&#46;1716664713&#46;8ccdd08c</p>'), 403), 'akamai', '"reference number #18.…"')
  t.equal(provider(page('<h1>Access Denied</h1><p>Include your reference ID:</p><p>shop-ref-id: (18.af0ad717.1507358410.1ab3e100)</p>'), 200), 'akamai', "a site's \"ref-id: (18.…)\", even at 200")
  const edgeTemplate = (n: number): string => page(`<H1>Access Denied</H1>You don't have permission to access this server.<P>Reference ${n}.6b53e17.1716662096.b531b31b`, '<TITLE>Access Denied</TITLE>')
  t.equal(provider(edgeTemplate(0), 403), 'akamai', "the edge's own Access Denied is its denial whatever the class")
  t.same(recognizePage(observe(page('<h1>Service Unavailable</h1><p>Reference 0.6b53e17.1716662096.b531b31b</p>'), 503)), { page_kind: 'http_error' }, 'another class without the denial is an error')
  t.not(provider(page('<p>Build 1.2.3.4 released; see version 18.1234.5678.90 notes.</p>'), 403), 'akamai', 'version numbers are no reference')
})

t.test("Akamai's crypto challenge: its frame is the challenge, its script only guards the site", async t => {
  const script = '<link rel="stylesheet" href="/_sec/cp_challenge/sec-3-10.css"><script src="/_sec/cp_challenge/sec-cpt-3-10.js" async defer></script>'
  const home = page(`<nav><a href="/">Home</a><a href="/products">Products</a><a href="/about">About</a></nav><h1>Welcome</h1>${'<p>Our products and services for every business, with support around the clock.</p>'.repeat(8)}`, script)
  t.same(recognizePage(observe(home)), { page_kind: 'content' }, 'a home page loading the script is content')
  t.equal(provider(page('<div id="sec-container"><iframe id="sec-cpt-if" src="/_sec/cp_challenge/ak-challenge-3-10.htm"></iframe></div>', script)), 'akamai', 'the frame drawn is the challenge')
})

t.test("Cloudflare's block wording over a Ray ID is its block, in any layout and at any status", async t => {
  const words = '<h1>Sorry, you have been blocked</h1><p>You are unable to access example.org.</p><h2>Why have I been blocked?</h2><p>This website is using a security service to protect itself from online attacks. The action you just performed triggered the security solution.</p><p>You can contact us and send the following Ray ID: 8898704279f70e93.</p>'
  const layout = `<header><nav>${Array.from({ length: 12 }, (_, i) => `<a href="/s${i}">Section ${i}</a>`).join('')}</nav></header><main>${words}</main><footer><a href="/contact">Contact</a></footer>`
  for (const status of [200, 403]) {
    const r = recognizePage(observe(page(layout), status))
    t.equal(r.challenge?.provider, 'cloudflare', `in a site's layout at ${status}`)
  }
  t.ok(recognizePage(observe(page(layout))).challenge?.evidence.includes(`Cloudflare's block wording over "Ray ID: 8898704279f70e93"`), 'the evidence names the wording')
  t.not(provider(page(layout.replace('Ray ID: 8898704279f70e93', 'order number 42'))), 'cloudflare', 'the words without a Ray ID')
  // Its newer template says "uses" (a custom block page of 2023, thirty-first review).
  t.equal(provider(page(layout.replace('This website is using a security service', 'This website uses a security service'))), 'cloudflare', 'in its newer wording')
})

t.test('a CAPTCHA widget beside fields a person fills in is part of that form', async t => {
  const loader = '<script src="https://www.google.com/recaptcha/api.js"></script>'
  const login = page('<h1>Site administration</h1><form method="post"><label>Username:</label><input type="text" name="username"><label>Password:</label><input type="password" name="password"><div class="g-recaptcha" data-sitekey="K"></div><input type="submit" value="Log in"></form>', loader)
  t.equal(recognizePage(observe(login)).challenge, undefined, 'a sign-in form with reCAPTCHA is not a gate')
  t.equal(provider(login, 403), 'recaptcha', 'the same form behind a 403 is')
  const robot = page('<form><label>Name <input name="n"></label><label><input type="checkbox" name="bot"> Are you a robot?</label><button>Send</button></form>')
  t.equal(recognizePage(observe(robot)).challenge, undefined, 'a form labelled "Are you a robot?"')
  const gate = page('<p>Please complete the check to continue.</p><form id="challenge"><input type="hidden" name="t" value="1"><div class="g-recaptcha" data-sitekey="K"></div></form>', loader)
  t.equal(provider(gate), 'recaptcha', 'a widget with only hidden inputs still gates a short page')
})

t.test("Google's sorry page is named as such", async t => {
  const sorry = page('<form id="captcha-form" action="index" method="post"><div id="recaptcha" class="g-recaptcha" data-sitekey="K"></div><input type="hidden" name="q" value="x"></form><p>Our systems have detected unusual traffic from your computer network.</p>',
    '<script src="https://www.google.com/recaptcha/enterprise.js"></script>')
  const r = recognizePage(observe(sorry, 429))
  t.equal(r.challenge?.provider, 'google')
  t.equal(r.widget_selector, '.g-recaptcha')
  const wording = '<h1>Verification required</h1><p>Our systems have detected unusual traffic from your computer network.</p>'
  t.equal(provider(page(wording), 429), 'google', 'the wording alone, with no other vendor on the page')
  const copied = page(`${wording}<div class="cf-turnstile" data-sitekey="K"></div>`, '<script src="https://challenges.cloudflare.com/turnstile/v0/api.js"></script>')
  const other = recognizePage(observe(copied, 403))
  t.equal(other.challenge?.provider, 'turnstile', "the wording on a page whose check is another vendor's is that vendor's gate")
  t.notOk(other.challenge?.evidence.some(e => e.includes('Google sorry page')), 'and Google is not named in the evidence')
})

t.test("YouTube's player refusing a robot is Google's check; its age check is not", async t => {
  // The refusal is the player's state in the watch page's inline JSON (a real one is the corpus's
  // youtube-watch-sign-in-confirm-not-bot-2025.html); the rest of the page is the app and its list.
  const watch = (reason: string): string => page(`<div id="masthead"><a href="/">Home</a> <a href="/feed/trending">Trending</a></div>${'<p>Up next: a video, its channel and how many saw it.</p>'.repeat(20)}`,
    `<script>var ytInitialPlayerResponse = {"responseContext":{},"playabilityStatus":{"status":"LOGIN_REQUIRED","reason":"${reason}","errorScreen":{}}};</script>`)
  const robot = recognizePage(observe(watch('Sign in to confirm you\\u2019re not a bot')))
  t.equal(robot.challenge?.provider, 'google', 'the escaped apostrophe as the JSON carries it')
  t.ok(robot.challenge?.evidence.includes('YouTube\'s player refuses to play: "Sign in to confirm you\'re not a bot"'), 'and the evidence quotes the player')
  t.equal(provider(watch('Sign in to confirm you’re not a bot')), 'google', 'the apostrophe as it is')
  t.not(recognizePage(observe(watch('Sign in to confirm your age'))).page_kind, 'challenge', 'an age check asks who, not what, the visitor is')
})

t.test("Google Scholar's own check is Google's, and an Akamai reference passed to a framed block page names Akamai", async t => {
  const menu = `<div id="gs_hdr">${['Profile', 'Library', 'Alerts', 'Metrics', 'Settings', 'Sign in'].map(w => `<a href="/${w}">${w}</a>`).join(' ')}</div>`
  const scholar = (container: string): string => page(`${menu}<h1>Please show you're not a robot</h1><form method="GET" id="gs_captcha_f">${container}</form>`,
    '<script src="//www.google.com/recaptcha/api.js?render=explicit" async defer></script>')
  const r = recognizePage(observe(scholar('<div id="gs_captcha_c"></div>')))
  t.equal(r.challenge?.provider, 'google', 'its form and the container its script renders reCAPTCHA into')
  t.equal(r.widget_selector, '#gs_captcha_c')
  t.ok(r.challenge?.evidence.includes('form #gs_captcha_f with its reCAPTCHA container (Google Scholar)'))
  t.not(recognizePage(observe(scholar('<div id="gs_captcha_c" style="display:none"></div>'))).challenge?.provider, 'google', 'not with the container hidden')

  const framed = (src: string): string => page(`<div id="iframe-container"><iframe src="${src}"></iframe></div>`, '<title>Shop | Security</title>')
  const block = recognizePage(observe(framed('https://static.shop.test/security/BlockandCaptcha.html?RefId=0.86b3afc3.1766565325.1bc5d6e8&ip=1'), 403))
  t.equal(block.challenge?.provider, 'akamai', 'the edge reference in the frame address names Akamai')
  t.notOk(recognizePage(observe(framed('https://static.shop.test/security/BlockandCaptcha.html?RefId=0.86b3afc3.17665653250.1bc5d6e8'), 403)).challenge?.provider === 'akamai',
    'not a number that only looks like one (eleven digits where the epoch has ten)')
  const turnstile = page('<h1>One last step</h1><p>Please solve the challenge below to continue.</p><div class="cf-turnstile" data-sitekey="x"></div>',
    '<title>One last step</title><link rel="stylesheet" href="/app.css?v=3.5f3a2b.1700000000.0001"><script src="https://challenges.cloudflare.com/turnstile/v0/api.js"></script>')
  t.equal(recognizePage(observe(turnstile)).challenge?.provider, 'turnstile', 'a cache-buster of the same shape, not named as a reference, names nobody')
  const video = page(`<h1>Trailer</h1>${'<p>Watch the trailer of the film, then read the reviews below.</p>'.repeat(12)}<iframe src="https://video.test/embed?v=0.86b3afc3.1766565325.1bc5d6e8"></iframe>`)
  t.same(recognizePage(observe(video)), { page_kind: 'content' }, 'on an ordinary page the same address decides nothing')
})

t.test('a blank page that sends the browser on to a captcha page', async t => {
  const punish = page('<script>var u=location.protocol+"//shop.test/item/1.html/_____tmd_____/punish?x5secdata=abc&x5step=1";location.replace(u)</script>')
  const r = recognizePage(observe(punish))
  // The generic rule sees the step; a vendor's marker, where there is one, names who put it there.
  t.equal(r.challenge?.provider, 'alibaba', "to a \"punish\" step: Alibaba's path names Alibaba")
  t.equal(r.challenge?.evidence[0], 'vendor marker "/_____tmd_____/"', 'the marker comes first in the evidence')
  t.ok(r.challenge?.evidence.includes('blank page whose script navigates to a captcha/challenge path'))
  t.equal(provider(page('<script>window.location.href="/errors/validateCaptcha?next=%2F"</script>')), 'generic', 'to a captcha page')
  t.equal(provider(page('<script>var cfg={datadome:false};window.location.href="/errors/validateCaptcha"</script>', '<script src="https://www.google.com/recaptcha/api.js?render=k"></script>')), 'generic',
    'a CAPTCHA loader or a vendor named in configuration does not name a site\'s own step')
  const toHost = recognizePage(observe(page('<script>location.replace("https://captcha.search.test/show?redirect=%2F")</script>')))
  t.equal(toHost.challenge?.provider, 'generic', "to a captcha service's host")
  t.ok(toHost.challenge?.evidence.includes('blank page whose script navigates to a captcha service'))
  const sdk = page('<script>var s=document.createElement("script");s.src="https://captcha.cdn.test/sdk.js";location.replace("/home")</script>')
  t.same(recognizePage(observe(sdk)), { page_kind: 'empty' }, "a script loaded from a captcha service's host, then away, is not one")
  t.same(recognizePage(observe(page('<script>location.replace("https://www.test/captcha.html/home")</script>'))), { page_kind: 'empty' }, 'a host that merely has the word elsewhere in its address is not one')
  const loader = page('<script>var s=document.createElement("script");s.src="https://www.google.com/recaptcha/api.js";location.replace("/home")</script>')
  t.same(recognizePage(observe(loader)), { page_kind: 'empty' }, 'a script that loads a captcha library and goes elsewhere is not one')
  const stays = page('<script>var next="/captcha";console.log(location.href)</script>')
  t.same(recognizePage(observe(stays)), { page_kind: 'empty' }, 'a script that names the path but does not navigate is not one')
})

t.test('interstitials recognised by their own machinery', async t => {
  t.equal(provider(page('<p>Loading...</p>', '<script id="anubis_challenge" type="application/json">{"rules":{}}</script>'), 401), 'anubis', 'Anubis')
  t.equal(provider(page('', "<script>var s={},sucuri_cloudproxy_js='',S='ej0n';</script>")), 'sucuri', 'Sucuri JS challenge')
  const splash = '<h1>Please wait while your request is being verified...</h1><form id="wsidchk-form" style="display:none;" action="/z0" method="get"><input type="hidden" id="wsidchk" name="wsidchk"/></form>'
  t.equal(provider(page(splash)), 'imunify360', 'Imunify360 WebShield splash: its hidden form')
  t.equal(provider(page('<h1>Please wait while your request is being verified...</h1>')), 'generic', 'the same words without the form: a verification step by any vendor')
  t.same(recognizePage(observe(page('<article>' + 'Words about kettles and tea. '.repeat(30) + '</article><form id="wsidchk"></form>'))).page_kind, 'challenge', 'the vendor form is the gate wherever it stands')
  const visitor = '<span id="message"></span><script>document.cookie="tid=1";location.replace("/next")</script>'
  t.equal(provider(page(visitor, '<title>Visitor System</title>')), 'generic', 'blank "visitor" page: cookie, then away')
  t.same(recognizePage(observe(page(visitor, '<title>Sign in to your account</title>'))), { page_kind: 'empty' }, 'a blank sign-in shell doing the same is not one')
  t.same(recognizePage(observe(page('<script>location.replace("/next")</script>'))), { page_kind: 'empty' }, 'a bare redirect is not an interstitial')
  t.same(recognizePage(observe(page('<div id="root"></div><script>var c=document.cookie;track(location.href)</script>'))), { page_kind: 'empty' }, 'an app shell that reads its cookies and address')
  const blocked = page('<h1>403 ERROR</h1><h2>The request could not be satisfied.</h2>Request blocked. We can\'t connect to the server for this app or website at this time.<br>Generated by cloudfront (CloudFront)', '<title>ERROR: The request could not be satisfied</title>')
  t.equal(provider(blocked, 403), 'cloudfront', 'CloudFront "Request blocked"')
  t.same(recognizePage(observe(blocked.replace(/Request blocked\./, 'Bad request.'), 400)), { page_kind: 'http_error' }, 'other CloudFront errors are errors')
})

t.test('provider scripts as real pages write them', async t => {
  const dd = "<script>var dd={'cid':'AHrlqAAAAAMA','hsh':'765F4F','t':'fe','host':'geo.captcha&#x2d;delivery.com'}</script>"
  t.equal(provider(page('<p>Please enable JS and disable any ad blocker</p>' + dd), 403), 'datadome', "DataDome's dd object with an escaped host")
  t.equal(provider(page('', "<script>window.awsWafCookieDomainList = [];</script>"), 202), 'aws_waf', 'AWS WAF cookie domain list on a blank page')
  t.same(recognizePage(observe(page('<article>' + 'Words about kettles and tea. '.repeat(30) + '</article>', "<script>window.awsWafCookieDomainList = [];</script>"))), { page_kind: 'content' }, 'but not on a document')
  t.equal(provider(page('<p>We are verifying your browser.</p>', '<script>new Worker("/.well-known/vercel/security/static/challenge.v2.min.js")</script>'), 429), 'vercel', "Vercel's checkpoint worker")
})


t.test("Azure Front Door's block is its edge's, named by its reference", async t => {
  // Markup written for the rule; the real page is in the corpus.
  const block = (ref: string): string => page(`<div id="content"><div id="message"><h2>The request is blocked.</h2></div><div id="errorref"><span>${ref}</span></div></div>`, '<title>Service unavailable</title>')
  const ref = '20240524T054111Z-158c756d458x4shrmqyubayax400000000bg00000000018h'
  for (const status of [403, 200]) {
    const r = recognizePage(observe(block(ref), status))
    t.equal(r.challenge?.provider, 'azure_front_door', `at ${status}, with the reference in the page`)
    t.ok(r.challenge?.evidence.includes('Azure Front Door block "The request is blocked." with its reference'))
  }
  t.equal(recognizePage(observe(block(''), 403, { 'x-azure-ref': ref })).challenge?.provider, 'azure_front_door', 'with the reference in x-azure-ref')
  t.same(recognizePage(observe(block(''), 403)), { page_kind: 'denied' }, 'the words without the reference: a plain refusal')
  t.same(recognizePage(observe(block('Reference 12345'), 200)), { page_kind: 'denied' }, 'another reference is not the edge\'s')
})

t.test("Alibaba Cloud WAF's cookie check is named by the cookie it sets", async t => {
  const check = page('', '<script>function setCookie(name,value){document.cookie=name+"="+value+";path=/"} function reload(x){setCookie("acw_sc__v2", x);document.location.reload();}</script><script>reload(solve())</script>')
  t.equal(provider(check), 'alibaba')
  t.equal(provider(check.replace('acw_sc__v2', 'session_id')), 'generic', 'another cookie: a check, unnamed')
})

t.test("Cloudflare's block answered as plain text is its block", async t => {
  const plain = '<html><head></head><body><pre>error code: 1020</pre></body></html>'
  t.equal(recognizePage(observe(plain, 403, { server: 'cloudflare' })).challenge?.provider, 'cloudflare', 'with its headers')
  t.ok(recognizePage(observe(plain, 403)).challenge?.evidence.includes(`Cloudflare's plain answer "error code: 1020"`), 'at a refusal status')
  t.not(recognizePage(observe(plain, 200)).page_kind, 'challenge', 'at 200, without its headers: anyone may print a code')
  t.not(recognizePage(observe(plain.replace('1020', '1016'), 530, { server: 'cloudflare' })).page_kind, 'challenge', 'an origin error code')
})

t.test("Imperva's older cookie check writes its resource script from inline code", async t => {
  const check = page('', '<script>function setIncapCookie(v) { document.cookie = "___utmvc=" + v + "; path=/" } setIncapCookie("x"); document.write(\'<script src="/_Incapsula_Resource?SWKMTFSR=1&e=\' + Math.random() + \'"><\\/script>\')</script>')
  t.equal(provider(check), 'imperva', 'on a blank page')
  t.not(provider(page('<h1>Our shop</h1><p>Open every day from nine to five, with fresh bread each morning and coffee all day.</p>', check.slice(check.indexOf('<script>'), check.indexOf('</head>')))), 'imperva', 'beside content it is no check')
})

t.test("Sucuri's block is named by its title, the older CloudProxy one too", async t => {
  for (const title of ['Sucuri WebSite Firewall - Access Denied', 'Sucuri WebSite Firewall - CloudProxy - Access Denied']) {
    t.equal(provider(page('<h2>Access Denied</h2><p>Block reason: Exploit attempt denied.</p>', `<title>${title}</title>`), 403), 'sucuri', title)
  }
})

t.test("F5's older JavaScript challenge is named by the answer fields its form carries", async t => {
  const fields = (names: string[]): string => names.map(name => `<input type="hidden" name="TS01177ea0_${name}" value="0"/>`).join('')
  const challenge = (names: string[]): string => page(`<form method="POST" action="/">${fields(names)}</form><noscript>Please enable JavaScript to view the page content.</noscript>`, '<script>var f = document.forms[0]; f.TS01177ea0_cr.value = solve(); f.submit()</script>')
  const r = recognizePage(observe(challenge(['id', 'cr', 'md', 'rf', 'ct', 'pd'])))
  t.equal(r.challenge?.provider, 'f5')
  t.ok(r.challenge?.evidence.includes('form fields TS…_cr and TS…_md (F5 JavaScript challenge)'))
  t.not(provider(challenge(['id', 'ct'])), 'f5', 'without its response and method fields it is not named so')
})

t.test("Reblaze's human verification: its configuration and script on a page that shows nothing in words (twenty-ninth review)", async t => {
  const check = page('<canvas id="c"></canvas><button id="b" style="display:none">Click here</button><script src="kramericaindustries.ic.lib.js"></script><script>window.rbzns = {"icstyle": {"title": "Human verification in process..."}, "bereshit": "1", "seed": "abc"}; winsocks();</script>')
  const r = recognizePage(observe(check))
  t.equal(r.challenge?.provider, 'reblaze', 'at 200')
  t.ok(r.challenge?.evidence.includes('inline script window.rbzns (Reblaze)'), 'its configuration is evidence')
  t.equal(provider(page('<canvas id="c"></canvas><script src="/kramericaindustries.ic.lib.js?v=2"></script>')), 'reblaze', 'its script alone')
  t.equal(provider(page('', '<script>window.rbzid="u0ylJGEVm2D9"; var u82222 = {}</script>')), 'reblaze', 'its older configuration on a blank page')
  const ordinary = page(`<h1>Concert tickets</h1>${'<p>Buy and sell tickets for concerts, festivals and theatre safely, with a guarantee on every ticket.</p>'.repeat(8)}`, '<script>window.rbzns = {}</script>')
  t.same(recognizePage(observe(ordinary)), { page_kind: 'content' }, 'its configuration on an ordinary page')
})

t.test("Chromium's own network error page is an error, whatever status it comes with (twenty-ninth review)", async t => {
  const neterror = '<body class="neterror"><div id="main-frame-error" class="interstitial-wrapper"><h1>This page isn\'t working</h1><p>www.example.test redirected you too many times.</p><p>Try deleting your cookies.</p><div class="error-code">ERR_TOO_MANY_REDIRECTS</div><button id="reload-button">Reload</button></div></body>'
  const html = `<!DOCTYPE html><html><head><title>www.example.test</title></head>${neterror}</html>`
  for (const status of [200, 403]) t.same(recognizePage(observe(html, status)), { page_kind: 'http_error' }, `at ${status}`)
  t.same(recognizePage(observe(page('<h1>Why you see "This page isn\'t working"</h1><p>Chromium shows ERR_TOO_MANY_REDIRECTS when a site redirects you in a loop; deleting the site\'s cookies usually fixes it.</p>'))), { page_kind: 'content' }, 'a help page about it')
})

