import t from 'tap'
import { recognizePage, type PageObservation } from '../../src/core/challenge.js'
import { SHORT_NOTICE_MAX_WORDS, factsOf } from '../../src/core/page-facts.js'
import { gateShape } from '../../src/core/gate-shape.js'
import { vendorOf } from '../../src/core/challenge-vendors.js'
import { documentTitle, visibleText } from '../helpers/visible-text.js'

// Recognition by what a gate is (docs/spec.md section 6; docs/decisions.md, issue 26). The pages here are
// minimal markup written for each rule, not imitations of any site: the real pages are in
// test/fixtures/real and scored by challenge-real.test.ts.

function observe (html: string, status: number | null = 200, url = 'http://127.0.0.1/page'): PageObservation {
  return { status, url, title: documentTitle(html), html, text: visibleText(html) }
}
const page = (body: string, head = ''): string => `<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`
const provider = (html: string, status = 200): string | undefined => recognizePage(observe(html, status)).challenge?.provider

// ~120 words of plain prose: a document, not a notice.
const PROSE = '<p>' + Array.from({ length: 12 }, (_, i) => `Sentence ${i} of an ordinary page talks about bread, flour, water and patience.`).join(' ') + '</p>'

t.test('one verification step and little else is a gate, without any vendor marker', async t => {
  const step = page('<h1>Please verify you are a human</h1><div id="captcha-box"></div><button>Continue</button>', '<title>One moment</title>')
  const r = recognizePage(observe(step, 200))
  t.equal(r.page_kind, 'challenge')
  t.equal(r.challenge?.provider, 'generic', 'no vendor marker: generic')
  for (const signal of ['shape: verification widget', 'shape: asks for verification', 'shape: little else on the page', 'shape: short notice']) {
    t.ok(r.challenge?.evidence.includes(signal), `evidence names "${signal}"`)
  }
})

t.test('a single "press and hold" action on a notice is a gate', async t => {
  const hold = page('<h2>Before we continue…</h2><p>Press &amp; Hold to confirm you are a human (and not a bot).</p><button>Press &amp; Hold</button>')
  const r = recognizePage(observe(hold, 200))
  t.equal(r.page_kind, 'challenge')
  t.ok(r.challenge?.evidence.includes('shape: a single action'))
})

t.test("Google's older sorry page, in the visitor's language, is Google's by its CAPTCHA's addresses (thirty-fourth review)", async t => {
  const sorry = (image: string, action: string): string => page(`<p>Geben Sie die folgenden Zeichen ein, um fortzufahren:</p><img src="${image}" alt="Bilder aktivieren"><form action="${action}" method="get"><input type="hidden" name="id" value="258"><input type="text" name="captcha" id="captcha"><input type="submit" value="Senden"></form>` +
    '<p>Unsere Systeme haben ungewöhnlichen Datenverkehr aus Ihrem Computernetzwerk festgestellt.</p>', '<title>https://www.google.de/search?q=wer</title>')
  const r = recognizePage(observe(sorry('/sorry/image?id=258&amp;hl=de', 'CaptchaRedirect'), 503))
  t.equal(r.challenge?.provider, 'google', 'its image and its form')
  t.ok(r.challenge?.evidence.includes('vendor marker "/sorry/image?"'), 'the marker is evidence')
  t.equal(recognizePage(observe(sorry('/img/code.png', 'CaptchaRedirect'), 503)).challenge?.provider, 'google', 'its form alone')
  t.equal(recognizePage(observe(sorry('/img/code.png', '/check'), 503)).challenge?.provider, 'generic', 'neither: a check of its own')
  t.equal(recognizePage(observe(sorry('/img/code.png', '/CaptchaRedirectHelp'), 503)).challenge?.provider, 'generic', 'a longer name is not its form')
})

t.test('a CAPTCHA grid that asks for boxes by number asks for the step', async t => {
  const grid = page('<form action="/Global/NewCaptcha/SubmitCaptcha" method="post"><p>Please select all boxes with number 848</p>' +
    '<img src="/c/1.png"><img src="/c/2.png"><img src="/c/3.png"><button type="submit">Submit Selection</button></form>')
  t.equal(recognizePage(observe(grid, 200)).page_kind, 'challenge', 'a grid of pictures under its instruction')
  t.ok(gateShape(factsOf(observe(grid, 200))).signals.includes('shape: asks for verification'), 'the instruction asks')
  t.notOk(gateShape(factsOf(observe(page('<p>Please select all the options that apply.</p><button>Next</button>'), 200))).signals.includes('shape: asks for verification'), 'a survey asks for nothing of the kind')
})

t.test('weak vendor markers name the provider once the shape says gate', async t => {
  const cases: Array<[string, string, string]> = [
    ['distil', '<link rel="stylesheet" href="//cdn.distilnetworks.com/css/distil.css">', 'distil'],
    ['arkose', '<script src="https://client-api.arkoselabs.com/v2/api.js"></script>', 'arkose'],
    ['geetest', '<script src="https://static.geetest.com/static/tools/gt.js"></script>', 'geetest'],
    ['qrator', '<script src="/__qrator/qauth.js"></script>', 'qrator'],
    ['yandex_smartcaptcha', '<script src="https://smartcaptcha.yandexcloud.net/captcha.js" defer></script>', 'yandex_smartcaptcha'],
    ['friendlycaptcha', '<script type="module" src="https://cdn.jsdelivr.net/npm/friendly-challenge@0.9.14/widget.module.min.js"></script>', 'friendlycaptcha']
  ]
  for (const [name, head, provider] of cases) {
    const r = recognizePage(observe(page('<h1>Security check</h1><div class="captcha-holder"></div><button>Verify</button>', head), 403))
    t.equal(r.challenge?.provider, provider, name)
    t.ok(r.challenge?.evidence.some(e => e.startsWith('vendor marker')), `${name}: the marker is evidence`)
  }
  const signIn = page('<h1>Sign in</h1><form action="/login"><input name="email"><input type="password" name="password"><div class="frc-captcha" data-sitekey="x"></div><button>Sign in</button></form>',
    '<script src="https://cdn.jsdelivr.net/npm/friendly-challenge@0.9.14/widget.min.js"></script>')
  t.notOk(recognizePage(observe(signIn, 200)).challenge, 'a sign-in form holding the widget is no gate')
})

t.test("ALTCHA's element is a widget beside its loader: a notice that asks over it is a gate at 200, its sign-in form is not", async t => {
  const loader = '<script async defer src="/scripts/altcha.min.js" type="module"></script>'
  const ask = '<h1>Are you a robot?</h1><altcha-widget challengeurl="/captcha/challenge/1" hidelogo></altcha-widget>'
  const gate = recognizePage(observe(page(ask, loader), 200))
  t.equal(gate.page_kind, 'challenge', 'the widget on a notice that asks')
  t.equal(gate.challenge?.provider, 'altcha', 'ALTCHA names it')
  t.ok(gate.challenge?.evidence.includes('shape: verification widget'), 'the element is the widget')
  t.notOk(recognizePage(observe(page(ask), 200)).challenge, 'without its loader the element draws nothing')
  t.notOk(recognizePage(observe(page(ask.replace('<altcha-widget ', '<altcha-widget display="invisible" '), loader), 200)).challenge,
    'an invisible ALTCHA shows nothing to solve')
  t.notOk(recognizePage(observe(page(ask, '<script src="/js/saltcha.min.js"></script>'), 200)).challenge, "a name that merely holds the word is not ALTCHA's loader")
  const signIn = page('<h1>Sign in</h1><form action="/login"><input name="email"><input type="password" name="password"><altcha-widget challengeurl="/altcha"></altcha-widget><button>Sign in</button></form>',
    '<script type="module" src="https://cdn.jsdelivr.net/npm/altcha/dist/altcha.min.js"></script>')
  t.notOk(recognizePage(observe(signIn, 200)).challenge, 'a sign-in form holding the widget is no gate')
})

t.test('every vendor in the table is named by its markup, and each that signs its notices by its signature', async t => {
  const markup: Array<[string, string]> = [
    ['<script src="https://sdk.awswaf.com/challenge.js"></script>', 'aws_waf'],
    ['<script src="https://ct.captcha-delivery.com/c.js"></script>', 'datadome'],
    ['<script src="https://client.px-cloud.net/PX1/main.min.js"></script>', 'perimeterx'],
    ['<script src="/_sec/cp_challenge/sec-cpt-4-1.js"></script>', 'akamai'],
    ['<script src="/_Incapsula_Resource?SWJIYLWA=1"></script>', 'imperva'],
    ['<link rel="stylesheet" href="https://check.ddos-guard.net/check.css">', 'ddos_guard'],
    ['<script src="/.well-known/vercel/security/static/challenge.v2.min.js"></script>', 'vercel'],
    ['<link rel="stylesheet" href="https://cdn.sucuri.net/sucuri-firewall-block.css">', 'sucuri'],
    ['<script src="/wsidchk.js"></script>', 'imunify360'],
    ['<script src="https://cas.perfdrive.com/captcha.js"></script>', 'shieldsquare'],
    ['<script src="https://js.hcaptcha.com/1/api.js"></script>', 'hcaptcha'],
    ['<script src="https://challenges.cloudflare.com/turnstile/v0/api.js"></script>', 'turnstile'],
    ['<script src="//g.alicdn.com/AWSC/CAPTCHA/0.0.1/awsc.js"></script>', 'alibaba'],
    ['<script>document.getElementById("block_image").src = "https://errors.aliyun.com/images/TB15QGaHpXXXXXOaXXXXia39XXX-660-117.png"</script>', 'alibaba'],
    ['<link rel="stylesheet" href="/TSPD/?type=25">', 'f5'],
    ['<script>sessionStorage.setItem("distil_referrer", document.referrer)</script>', 'distil'],
    ['<script src="https://servicepipe.ru/static/fp.min.js"></script>', 'servicepipe']
  ]
  for (const [head, provider] of markup) {
    t.equal(recognizePage(observe(page('<h1>Security check</h1><div class="captcha-holder"></div><button>Verify</button>', head), 403)).challenge?.provider, provider, provider)
  }
  // Google's no-JavaScript fallback leaves for its retry address.
  const google = page('<p>Please click here if you are not redirected within a few seconds.</p>', '<noscript><meta http-equiv="refresh" content="0;url=/httpservice/retry/enablejs?sei=x"></noscript><script src="/s.js"></script>')
  t.equal(recognizePage(observe(google, 200)).challenge?.provider, 'google', "Google's retry address")
  const brands: Array<[string, string]> = [
    ['Cloudflare', 'cloudflare'], ['DataDome', 'datadome'], ['PerimeterX', 'perimeterx'], ['Distil Networks', 'distil'], ['Kasada', 'kasada'],
    ['Akamai', 'akamai'], ['Imperva', 'imperva'], ['Incapsula', 'imperva'], ['DDoS-Guard', 'ddos_guard'], ['Vercel', 'vercel'],
    ['Sucuri', 'sucuri'], ['Imunify360', 'imunify360'], ['Qrator', 'qrator'], ['ShieldSquare', 'shieldsquare'], ['Radware', 'shieldsquare'], ['Deflect', 'deflect'],
    ['Servicepipe', 'servicepipe']
  ]
  for (const [brand, provider] of brands) {
    const notice = page(`<h1>Please verify you are a human</h1><div id="captcha-box"></div><p>This website is protected by ${brand}.</p>`)
    t.equal(recognizePage(observe(notice, 403)).challenge?.provider, provider, `"protected by ${brand}"`)
  }
})

t.test('"not a robot" and "are you human?" in the languages the shape reads', async t => {
  const asks = (words: string): boolean => gateShape(factsOf(observe(page(`<h1>${words}</h1><button>OK</button>`), 403))).gate
  for (const words of ['Ich bin kein Roboter', 'Je ne suis pas un robot', 'No soy un robot', 'Não sou um robô', 'Я не робот',
    'Êtes-vous un humain ?', 'Bist du ein Mensch?', 'Sind Sie ein Mensch?', 'Você é humano?', '¿Es usted humano?',
    'Non sono un robot', 'Sei umano?', 'Ik ben geen robot', 'Ben je een mens?', 'Nie jestem robotem', 'Czy jesteś człowiekiem?', 'Nejsem robot',
    'Robot değilim', 'İnsan mısınız?', 'Tôi không phải là người máy', 'Xác minh bạn là con người', 'Saya bukan robot',
    'ロボットではありません', 'ロボットでないことを確認してください', '로봇이 아닙니다', '자동입력 방지', 'أنا لست روبوتًا', 'אני לא רובוט', 'Δεν είμαι ρομπότ',
    'Veuillez résoudre le défi ci-dessous', 'Please solve the challenge below to continue', 'Please verify yourself to continue', 'Please complete the challenge below to confirm you are human', 'Confirm you are human', 'Select all squares containing a duck',
    'ฉันไม่ใช่โปรแกรมอัตโนมัติ', 'Vérification de sécurité', 'Verificación de seguridad', 'Verificação de segurança',
    'Controllo di sicurezza', 'Beveiligingscontrole', 'Weryfikacja bezpieczeństwa', 'Bezpečnostní kontrola', 'Güvenlik doğrulaması', 'Kiểm tra bảo mật',
    'Verifikasi keamanan', 'セキュリティチェック', '보안 확인',
    'Überprüfung Ihres Browsers', 'Vérification de votre navigateur', 'Comprobando su navegador', 'Verificando seu navegador', 'Controllo del browser',
    'Uw browser wordt gecontroleerd', 'Sprawdzanie przeglądarki', 'Kontrola vašeho prohlížeče', 'Tarayıcınız kontrol ediliyor', 'Đang kiểm tra trình duyệt',
    'Sedang memeriksa browser Anda', 'ブラウザを確認しています', '브라우저 확인 중', '正在检查您的浏览器', '正在檢查您的瀏覽器']) {
    t.ok(asks(words), words)
  }
  for (const words of ['Prefieres un humano', 'Ein Roboterarm', 'Les robots de cuisine', 'Musei umanistici', 'Robot süpürge', 'ロボット掃除機',
    // Advice and ordinary pages that share words with a check: imperatives, not a check in progress.
    'One last step: confirm your email', 'Made by a human, not AI', 'Report suspicious activity on your account', 'Complete the challenge and earn your badge', 'Take the quiz below to continue the course',
    'Select all images that you want to download', 'ログアウトしました。不正アクセス防止のため、ブラウザを閉じてください。', '请检查您的浏览器设置或网络连接后重试',
    '브라우저를 확인해 주세요', 'Lütfen tarayıcınızı kontrol edin', 'Silakan memeriksa browser Anda', 'Ihr Termin zur Sicherheitsprüfung', 'Do customers think you are a bot?']) t.notOk(asks(words), `${words}: not a request`)
})

t.test("a document with a vendor's challenge in one of its panes is still the document", async t => {
  const menu = `<nav>${['Jobs', 'Companies', 'Salaries', 'Blog'].map(w => `<a href="/${w}">${w}</a>`).join(' ')}</nav>`
  const fragment = '<div class="pane"><h1>example.org</h1><p>Verify you are human by completing the action below.</p></div><script>window._cf_chl_opt = {cType: "managed"}</script>'
  const listing = page(`${menu}${PROSE}${PROSE}${fragment}`, '<title>Just a moment...</title>')
  const r = recognizePage(observe(listing, 200))
  t.same(r, { page_kind: 'content' }, 'a listing whose detail pane got a challenge is content')
  t.ok(gateShape(factsOf(observe(listing, 200))).document, 'the shape calls it a document')
  t.equal(recognizePage(observe(page(fragment), 403)).challenge?.provider, 'cloudflare', 'the fragment on its own is the challenge')
  t.equal(recognizePage(observe(listing, 403)).challenge?.provider, 'cloudflare', 'answered with a challenge status, the page is the challenge')
  // A bot check's dialog over the document asks in its heading: the person must clear it first.
  const modal = page(`${menu}${PROSE}${PROSE}<div role="dialog"><h2>Robot or human?</h2><div id="px-captcha"></div></div>`, '<script>window._pxAppId = "PX1"</script>')
  t.equal(recognizePage(observe(modal, 200)).challenge?.provider, 'perimeterx', 'a dialog that asks, over the document, is a gate')
  // Whatever the level of its heading, and however it says it is a dialog.
  for (const open of ['<div role="dialog">', '<div class="modal" aria-modal="true">', '<section role="alertdialog">', '<dialog open>']) {
    const name = /^<(\w+)/.exec(open)![1]
    const h3 = page(`${menu}${PROSE}${PROSE}${open}<h3>Robot or human?</h3><div id="px-captcha"></div></${name}>`, '<script>window._pxAppId = "PX1"</script>')
    t.equal(recognizePage(observe(h3, 200)).challenge?.provider, 'perimeterx', `${open} with an h3 that asks`)
  }
  // A dialog that asks nothing (cookie consent), a hidden one kept for later, and a question
  // outside the dialog leave the document a document.
  const consent = page(`${menu}${PROSE}${PROSE}<div role="dialog"><h3>We use cookies</h3><button>Accept</button></div><p>Robot or human?</p><div id="px-captcha"></div>`, '<script>window._pxAppId = "PX1"</script>')
  t.same(recognizePage(observe(consent, 200)), { page_kind: 'content' }, 'a consent dialog, the question outside it')
  const dormant = page(`${menu}${PROSE}${PROSE}<div role="dialog" aria-hidden="true"><h3>Robot or human?</h3><div id="px-captcha"></div></div>`, '<script>window._pxAppId = "PX1"</script>')
  t.same(recognizePage(observe(dormant, 200)), { page_kind: 'content' }, 'a hidden dialog')
  // A vendor's frame laid over the whole window by its inline style, whatever its markup calls it.
  const sensor = '<script>window._pxAppId = "PX1"</script><script src="https://client.perimeterx.net/PX1/main.min.js"></script>'
  const over = (style: string, id = 'px-captcha-modal'): string => page(`${menu}${PROSE}${PROSE}<iframe id="${id}" style="${style}"></iframe>`, sensor)
  const covering = recognizePage(observe(over('display: block; position: fixed; top: 0; left: 0; width: 100%; height: 100%; z-index: 2147483647;'), 200))
  t.equal(covering.challenge?.provider, 'perimeterx', 'a challenge frame over the whole window')
  t.ok(covering.challenge?.evidence.includes('shape: a challenge covers the page'), 'the signal is evidence')
  t.equal(provider(over('position:fixed;inset:0')), 'perimeterx', 'inset 0')
  t.equal(provider(over('position: fixed; width: 100vw; height: 100vh')), 'perimeterx', 'the viewport units')
  t.same(recognizePage(observe(over('position: fixed; bottom: 0; width: 320px; height: 80px'), 200)), { page_kind: 'content' }, 'a small fixed box')
  t.same(recognizePage(observe(over('position: absolute; width: 100%; height: 100%'), 200)), { page_kind: 'content' }, 'laid out in the page, not over it')
  t.same(recognizePage(observe(over('display: none; position: fixed; inset: 0'), 200)), { page_kind: 'content' }, 'a hidden one kept for later')
  t.same(recognizePage(observe(over('position: fixed; inset: 0', 'newsletter-modal'), 200)), { page_kind: 'content' }, 'a frame that is no challenge')
  // A layer of the vendor's own naming over the window, sized by its script in pixels, holding only
  // the challenge's frame (Alibaba's slider over a Taobao search, batch 48).
  const punish = 'https://h5api.example.test/h5/api/1.0/_____tmd_____/punish?x5secdata=x&action=captcha'
  const layer = (style: string, inside: string): string => page(`${menu}${PROSE}${PROSE}<div class="J_MIDDLEWARE_FRAME_WIDGET" style="${style}">${inside}</div>`)
  const windowSized = 'width: 1920px; height: 1080px; z-index: 2147483647; position: fixed; left: 0px; top: 0px; display: block;'
  const frame = (src: string, style = 'position: absolute; inset: 0px; margin: auto; width: 420px; height: 320px;'): string => `<img src="close.png"><iframe src="${src}" style="${style}"></iframe>`
  const held = recognizePage(observe(layer(windowSized, frame(punish)), 200))
  t.equal(held.challenge?.provider, 'alibaba', 'a window-sized layer holding a challenge frame over a document')
  t.ok(held.challenge?.evidence.includes('shape: a challenge covers the page'), 'the layer is the evidence')
  t.equal(provider(layer('position:fixed;inset:0', frame(punish))), 'alibaba', 'inset 0')
  const contentOf = (markup: string): unknown => recognizePage(observe(markup, 200)).page_kind
  t.equal(contentOf(layer(windowSized, frame('https://login.example.test/member/login?style=mini'))), 'content', 'a sign-in frame in the layer')
  // Only a query word that is a captcha's name on its own makes the frame a challenge's.
  t.equal(contentOf(layer(windowSized, frame('https://buttons.example.test/github-btn.html?user=someone&repo=CaptchaHarvester&type=star'))), 'content', "a star button for a repository named for captchas")
  t.equal(contentOf(layer(windowSized, frame(punish, 'display: none'))), 'content', 'the frame kept hidden for later')
  t.equal(contentOf(layer(windowSized, `<div style="visibility: hidden">${frame(punish)}</div>`)), 'content', 'the frame in a hidden block of the layer')
  t.equal(contentOf(layer('position: fixed; left: 0px; top: 0px; width: 300px; height: 250px', frame(punish))), 'content', 'a box in the corner, however it is sized')
  t.equal(contentOf(layer('position: fixed; left: 0px; top: 72px; width: 1920px; height: 1080px', frame(punish))), 'content', 'below the window\'s corner: a pane, not a cover')
  t.equal(contentOf(layer(windowSized, `${frame(punish)}${PROSE}${PROSE}`)), 'content', 'a layer with a document of its own')
  t.equal(contentOf(layer(`${windowSized} pointer-events: none;`, frame(punish))), 'content', 'a layer that lets clicks through')
  // What covers the page names its provider, whatever other vendor's tag the page loads (PerimeterX's
  // frame over an app that loads DataDome's tag: twenty-ninth review).
  const both = page(`${menu}${PROSE}${PROSE}<iframe id="px-captcha-modal" style="display: block; position: fixed; inset: 0;"></iframe>`, '<script src="https://js.datadome.co/tags.js"></script>')
  const named = recognizePage(observe(both, 200)).challenge
  t.equal(named?.provider, 'perimeterx', "the covering frame's vendor, not the page's other tag")
  t.equal(provider(layer(windowSized, frame(punish)) + '<script src="https://js.datadome.co/tags.js"></script>'), 'alibaba', "the layer's frame's vendor")
})

t.test('a reference to no character in an attribute is read as U+FFFD, not thrown on (thirty-first review)', async t => {
  // html5lib's test pages, kept by link-preview projects, hold "&#x110000;" in attributes.
  const odd = page(`<h1>Parser tests</h1><a title="&#x110000;&#0;&#xD800;&#1114112;" href="/t">test</a>${PROSE}`)
  t.equal(recognizePage(observe(odd, 200)).page_kind, 'content')
})

t.test('vendor names in the text are not markers', async t => {
  const f = factsOf(observe(page('<p>We use distilnetworks and arkoselabs, as our blog explains.</p>')))
  t.equal(vendorOf(f), undefined)
})

t.test('the same words on a document, or beside a form a person fills in, are not a gate', async t => {
  const article = page(`<nav><a href="/">Home</a></nav><article><h1>Why sites ask "are you a robot?"</h1>${PROSE}</article>`)
  t.equal(recognizePage(observe(article)).page_kind, 'content', 'an article about CAPTCHAs')
  const signIn = page('<h1>Sign in</h1><form><input name="user"><input type="password" name="pw"><div id="captcha"></div><button>Sign in</button></form>',
    '<script src="https://www.google.com/recaptcha/api.js"></script>')
  t.notOk(gateShape(factsOf(observe(signIn))).gate, 'a sign-in form with a captcha is that form')
  const navigation = page(`<h1>Security check</h1><div id="captcha"></div>${Array.from({ length: 12 }, (_, i) => `<a href="/${i}">Section ${i}</a>`).join(' ')}`)
  t.notOk(gateShape(factsOf(observe(navigation))).gate, 'a page with a site\'s navigation is not a gate')
})

t.test('a document that came back where content was expected decides with the path or the status', async t => {
  const long = page(`<h1>Verify you are human</h1><div class="captcha"></div>${'<p>Our checks keep the service fair for everyone who uses it.</p>'.repeat(10)}`)
  t.notOk(gateShape(factsOf(observe(long, 200))).gate, 'a longer page at 200 and an ordinary path is not')
  const atPath = gateShape(factsOf(observe(long, 200, 'http://127.0.0.1/captcha/?next=%2F')))
  t.ok(atPath.gate, 'the same page at a challenge path is')
  t.ok(atPath.signals.includes('shape: challenge path'))
  t.ok(gateShape(factsOf(observe(long, 429))).gate, 'and at a challenge status')
})

t.test('verification wording in other languages, and a device check, ask for the step', async t => {
  const cases: Array<[string, string]> = [
    ['Russian "suspicious activity"', page('<h1>Что-то не так</h1><p>Подозрительная активность. Пожалуйста, подождите.</p>')],
    ['Russian "not a robot"', page('<h2>Нам нужно убедиться, что вы не робот.</h2><button>Продолжить</button>')],
    ['Russian "checking the browser"', page('<p>Проверяем ваш браузер, это займёт несколько секунд.</p>')],
    ['"checking device" in a blank page\'s title', page('', '<title>Shop — checking device</title>')],
    ['German "not a robot"', page('<p>Bitte bestätigen Sie, dass Sie kein Roboter sind.</p><button>Weiter</button>')]
  ]
  for (const [name, html] of cases) {
    const r = recognizePage(observe(html, 403))
    t.equal(r.challenge?.provider, 'generic', name)
    t.ok(r.challenge?.evidence.includes('shape: asks for verification'), `${name}: the request is evidence`)
  }
  const article = page(`<nav><a href="/">Главная</a></nav><article><h1>Как сайты проверяют, что вы не робот</h1>${PROSE}</article>`)
  t.equal(recognizePage(observe(article)).page_kind, 'content', 'an article about it is not a gate')
})

t.test('a page that retries by itself is one step', async t => {
  const longer = page(`<h1>Checking your browser</h1>${'<p>Our checks keep the service fair for everyone who uses it.</p>'.repeat(10)}`, '<meta http-equiv="refresh" content="60">')
  const shape = gateShape(factsOf(observe(longer, 429)))
  t.ok(shape.gate, 'a longer notice asking for verification that refreshes itself, at a blocking status')
  t.ok(shape.signals.includes('shape: refreshes itself'))
  const away = gateShape(factsOf(observe(page('<p>Moved.</p>', '<meta http-equiv="refresh" content="0; url=/new">'))))
  t.notOk(away.signals.includes('shape: refreshes itself'), 'a refresh to another address is a redirect, not a retry')
})

t.test('a page that is only there to run its script first is a check', async t => {
  const away = '<noscript><meta http-equiv="refresh" content="0;url=/enable-javascript"></noscript>'
  const notice = recognizePage(observe(page('<p>Please click here if you are not redirected within a few seconds.</p>', away)))
  t.equal(notice.page_kind, 'challenge', 'a notice that sends browsers without JavaScript elsewhere at once')
  t.equal(notice.challenge?.provider, 'generic')
  t.ok(notice.challenge?.evidence.includes('shape: runs a script first'), 'the signal is evidence')
  t.equal(recognizePage(observe(page('', away))).page_kind, 'challenge', 'a blank page with that fallback (a spinner)')
  for (const words of ['Einen Moment, Sie werden gleich weitergeleitet.', 'Serás redirigido en unos segundos.', '잠시 후 이동합니다.']) {
    t.equal(recognizePage(observe(page(`<p>${words}</p>`, away))).page_kind, 'challenge', `the notice in the languages a check waits in: ${words}`)
  }
  t.same(recognizePage(observe(page(`<article>${PROSE}</article>`, away))), { page_kind: 'content' }, 'an article with the same fallback is content')
  const google = '<noscript><meta content="0;url=/httpservice/retry/enablejs?sei=abc" http-equiv="refresh"></noscript>'
  const named = recognizePage(observe(page('<p>Please click here if you are not redirected within a few seconds.</p>', google)))
  t.equal(named.challenge?.provider, 'google', "where the fallback goes names whose check it is (Google's retry address)")
  t.ok(named.challenge?.evidence.includes('vendor marker "/httpservice/retry/enablejs"'), 'and is the evidence')
  // Sign-in pages and apps carry the same fallback on every page: it says nothing by itself.
  const picker = page('<h1>Pick an account</h1><div role="button">ann@example.test</div><div role="button">Use another account</div><a href="/terms">Terms</a><a href="/privacy">Privacy</a><a href="/options">Sign-in options</a>', away)
  t.same(recognizePage(observe(picker)), { page_kind: 'content' }, 'an account picker with the fallback is content')
  const signIn = page('<h1>Sign in</h1><form><input type="email" name="login"><button>Next</button></form>', away)
  t.same(recognizePage(observe(signIn)), { page_kind: 'content' }, 'a sign-in form with the fallback is content')
  t.same(recognizePage(observe(page('<div id="root"></div>', away + '<script src="/app.js"></script>'))), { page_kind: 'empty' }, "an app's unrendered shell with the fallback is not a check")
  // A plain redirect sends browsers with JavaScript and without to the same place (sixteenth
  // review: Google's sign-in hand-off, Yahoo's 404 that returns home).
  const handOff = "<title>Redirecting...</title><script>var url = 'https:\\/\\/accounts.example.com\\/ServiceLogin?service\\x3dgam'; window.location.assign(url);</script>" +
    '<noscript><meta http-equiv="refresh" content="0; url=https://accounts.example.com/ServiceLogin?service=gam"></noscript>'
  t.not(recognizePage(observe(page('', handOff))).page_kind, 'challenge', 'a hand-off whose script and fallback go to the same address')
  const home = '<script>if (window != window.top) { document.write("<p>Unavailable.</p>") } else { window.location.replace("/home?err=404") }</script><noscript><meta http-equiv="refresh" content="0;url=/home?err=404"></noscript>'
  t.not(recognizePage(observe(page('', home))).page_kind, 'challenge', 'the same, both written relative')
  const check = '<script>document.cookie = "c=1"; window.location.replace("/home?err=404")</script><noscript><meta http-equiv="refresh" content="0;url=/enable-javascript"></noscript>'
  t.equal(recognizePage(observe(page('', check))).page_kind, 'challenge', "a fallback that goes where the script does not is a check's")
  // A fallback to another site is a hand-off (batch 31: Microsoft's sign-in page fetched raw).
  const signInShell = '<title>Sign in to your account</title><script>var $Config={"urlLogin":"x"};</script><script src="https://cdn.login.example/converged.js"></script>' +
    '<noscript><meta http-equiv="refresh" content="0; URL=https://login.example/jsdisabled"></noscript>'
  t.not(recognizePage(observe(page('', signInShell), 200, 'https://account.shop.example/')).page_kind, 'challenge', "a fallback to a sign-in site's page")
  t.equal(recognizePage(observe(page('', signInShell), 200, 'https://www.login.example/')).page_kind, 'challenge', 'the same fallback on its own site is a check\'s')
  const self = '<noscript><meta http-equiv="refresh" content="0;url=/page"></noscript>'
  t.notOk(gateShape(factsOf(observe(page('', self)))).signals.includes('shape: runs a script first'), 'a fallback to the page itself goes nowhere')
  const commented = '<!-- <noscript><meta http-equiv="refresh" content="0;url=/enable-javascript"></noscript> -->'
  t.notOk(gateShape(factsOf(observe(page('', commented)))).signals.includes('shape: runs a script first'), 'a fallback in a comment is not there')
  const unquoted = '<noscript><meta http-equiv=refresh content=0;url=/enable-javascript></noscript>'
  t.ok(gateShape(factsOf(observe(page('', unquoted)))).signals.includes('shape: runs a script first'), 'an unquoted fallback counts as the browser reads it')
  const later = '<noscript><meta http-equiv="refresh" content="600;url=/enable-javascript"></noscript>'
  t.notOk(gateShape(factsOf(observe(page('<p>Short page.</p>', later)))).signals.includes('shape: runs a script first'), 'a fallback ten minutes away is no redirect')
  const retry = '<noscript><meta http-equiv="refresh" content="0"></noscript>'
  t.notOk(gateShape(factsOf(observe(page('<p>Short page.</p>', retry)))).signals.includes('shape: runs a script first'), 'a fallback that reloads the same page goes nowhere')

  const script = '<script src="/check/run.js"></script>'
  for (const status of [401, 403, 429, 503]) {
    t.equal(recognizePage(observe(page('', script), status)).page_kind, 'challenge', `a blank page that loads a script, at ${status}`)
  }
  t.same(recognizePage(observe(page('', script), 200)), { page_kind: 'empty' }, 'the same page at 200: not rendered yet, not a check')
  for (const mount of ['root', 'react-root', '___gatsby', 'q-app']) {
    t.same(recognizePage(observe(page(`<div id="${mount}"></div>`, script), 403)), { page_kind: 'denied' }, `an app's shell (#${mount}) at 403 is a denial`)
  }
  t.same(recognizePage(observe(page(''), 403)), { page_kind: 'denied' }, 'a blank 403 with no script is a denial')
  const toLogin = '<script>window.location.href = "/login?next=%2F"</script>'
  t.same(recognizePage(observe(page('', toLogin), 401)), { page_kind: 'denied' }, 'a blank 401 whose only script sends the browser to sign in is a denial on its way')
  t.same(recognizePage(observe(page('', '<script type="application/ld+json">{"@type":"WebPage"}</script>'), 403)), { page_kind: 'denied' }, 'data in a script element runs nothing')
})

t.test('a quiet page whose script sets a cookie and reloads it is a cookie check', async t => {
  const check = '<script>document.cookie = "pass=" + answer(); location.reload()</script>'
  const blank = recognizePage(observe(page('', check)))
  t.equal(blank.page_kind, 'challenge', 'a blank page')
  t.equal(blank.challenge?.provider, 'generic')
  t.ok(blank.challenge?.evidence.includes('shape: sets a cookie and reloads'), 'the signal is evidence')
  const helper = '<script>Cookies.set(config.name, value, { expires: 1 }); document.location.reload()</script>'
  t.equal(recognizePage(observe(page('<div class="loader">Загрузка...</div>', helper))).page_kind, 'challenge', 'a loading caption, the js-cookie helper')
  const again = '<script>document.cookie="pass=1"; window.location.href = window.location.href;</script>'
  t.equal(recognizePage(observe(page('', again))).page_kind, 'challenge', 'asking for the same address again')
  const go = '<script>document.cookie="pass=1"; history.go(0)</script>'
  t.equal(recognizePage(observe(page('', go))).page_kind, 'challenge', 'history.go(0)')
  // Ordinary pages set cookies and reload in handlers, retries and redirects: only a quiet page
  // with nothing to press or follow, not built like an app, counts.
  const shape = (body: string, script: string, status = 200, head = ''): boolean => gateShape(factsOf(observe(page(body, head + script), status))).signals.includes('shape: sets a cookie and reloads')
  const enter = '<script>function enter () { document.cookie = "age=21"; location.reload() }</script>'
  t.notOk(shape('<h1>Are you 21 or older?</h1><a href="#" onclick="enter()">Yes</a> <a href="/">No</a>', enter), 'an age gate with links to follow')
  t.notOk(shape('<p>We use cookies.</p><button onclick="enter()">Accept</button>', enter), 'a consent notice with a button')
  t.notOk(shape('<h1>Page not found</h1><p>Go to the home page.</p>', enter, 404), 'an error page with words')
  t.notOk(shape('<div id="root"><div class="spinner">Loading…</div></div>', check + '<script src="/app.js"></script>'), "an app's shell showing its caption")
  t.ok(shape('<div id="root"><div class="spinner"></div></div>', check), "a mount point with a spinner and no app code loaded: the check's own")
  t.notOk(shape('<div id="root"><div class="spinner">Loading…</div></div>', check, 200, '<link rel="modulepreload" href="/assets/index-4f2a.js">'), 'an app whose code is a preloaded module')
  t.notOk(shape('<div id="root"><div class="spinner">Loading…</div></div>', check + '<script type="module">import { start } from "/assets/app.js"; start()</script>'), 'an app whose module imports its code')
  t.notOk(shape('<div id="app"></div>', check + '<script>import("/assets/app.js").then(m => m.mount())</script>'), 'an app that imports its code when it runs')
  t.ok(shape('<div id="root"><div class="spinner"></div></div>', check + '<link rel="preload" href="/check.css" as="style">'), 'a preloaded stylesheet is no code')
  t.notOk(shape('', '<script>window.onpageshow = e => { if (e.persisted) location.reload() }</script>'), 'a reload without a cookie')
  t.notOk(shape('', '<script>document.cookie = "lang=en"; location.href = "/en/"</script>'), 'a cookie and a redirect elsewhere')
  // A form's token field is never shown: it is nothing to press or type into.
  t.ok(shape('<form method="post"><input type="hidden" name="token" value="a1b2"></form>', check), 'a form holding only a hidden token')
  t.notOk(shape('<form method="post"><input type="text" name="q"></form>', check), 'a form with a field to type in')
  // A log-out whose script posts a form holding only its token, sending browsers without
  // JavaScript to sign in: on its way through its form, not a check that runs its script first.
  const logout = page('<p>Signing you out of Example…</p><form id="logout" method="post" action="/logout"><input type="hidden" name="csrf_token" value="a8f3c2d1e9"></form><script>document.getElementById("logout").submit()</script>',
    '<title>Signing out</title><noscript><meta http-equiv="refresh" content="0;url=/login?signed_out=1"></noscript>')
  t.notOk(recognizePage(observe(logout)).challenge, 'a log-out that posts its token')
})

t.test("a site's chrome around a gate: its footer's links and a logo's nav are not the page's", async t => {
  const footer = `<footer><nav>${Array.from({ length: 20 }, (_, i) => `<a href="/f${i}">Footer ${i}</a>`).join(' ')}</nav></footer>`
  const gate = (header: string): string => page(`${header}<h1>¿Eres humano o un robot?</h1><div id="captcha-box"></div><p>Disculpa las molestias.</p>${footer}`)
  const logo = '<header><nav><ul><li><a href="/"><img src="/logo.png" alt="Home"></a></li></ul></nav></header>'
  const r = recognizePage(observe(gate(logo), 403))
  t.equal(r.page_kind, 'challenge', 'a logo in a nav and a footer of links')
  t.ok(r.challenge?.evidence.includes('shape: little else on the page'))
  const menu = `<header><nav>${['Jobs', 'Companies', 'Salaries', 'Courses', 'Blog'].map(w => `<a href="/${w}">${w}</a>`).join(' ')}</nav></header>`
  t.notOk(gateShape(factsOf(observe(gate(menu), 403))).gate, "a site's menu above it is navigation")
  // Unclosed elements: a footer never closed is no footer (its links count), a nav never closed
  // runs to the end of the page.
  const unclosedFooter = page(`<h1>¿Eres humano o un robot?</h1><div id="captcha-box"></div>${'<footer>'.repeat(3000)}${footer.replace('</footer>', '')}`)
  t.notOk(gateShape(factsOf(observe(unclosedFooter, 403))).gate, "an unclosed footer's links are the page's")
  const links = ['Jobs', 'Companies', 'Salaries', 'Courses', 'Blog'].map(w => `<a href="/${w}">${w}</a>`).join(' ')
  const unclosedNav = page(`<h1>¿Eres humano o un robot?</h1><div id="captcha-box"></div><nav>${'<nav>'.repeat(3000)}${links}`)
  t.notOk(gateShape(factsOf(observe(unclosedNav, 403))).gate, 'an unclosed nav with a menu is navigation')
  t.ok(gateShape(factsOf(observe(gate(`${logo}<footer>${footer}`), 403))).gate, 'a footer opened inside a footer belongs to it')
})

t.test("Distil's interruption template, and other ways a notice says it took the visitor for a bot", async t => {
  // The template's reasons, in Spanish, on a 403 with no widget yet (its script adds one).
  const template = page('<h1>SENTIMOS LA INTERRUPCIÓN</h1><p>Es posible que por alguna de estas razones no puedas seguir: tener desactivadas las cookies; un plugin de navegador de terceros, como Ghostery o NoScript, está evitando que el JavaScript se ejecute.</p>')
  const r = recognizePage(observe(template, 403))
  t.equal(r.page_kind, 'challenge')
  t.equal(r.challenge?.provider, 'imperva', "Imperva serves Distil's template since it bought Distil")
  t.match(r.challenge?.evidence[0], /^text "Ghostery o NoScript, está evitando que el JavaScript.*\(Distil's interruption template\)$/)
  const post = page('<h2>Privacy tips</h2><p>Install an extension such as Ghostery and NoScript to block trackers.</p>')
  t.same(recognizePage(observe(post)), { page_kind: 'content' }, 'a privacy tip naming the same plugins is content')
  // Where the template is the page, at 200 too: the manager's notice, however long its reasons run
  // (Equibase's, twenty-ninth review); in a site's layout beside an article it is quoted.
  const reasons = '<p>As you were browsing something about your browser made us think you were a bot. There are a few reasons this might happen:</p><ul><li>You\'re a power user moving through this website with super-human speed.</li><li>You\'ve disabled cookies in your web browser.</li><li>A third-party browser plugin, such as Ghostery or NoScript, is preventing JavaScript from running.</li></ul><p>To regain access, please make sure that cookies and JavaScript are enabled before reloading the page.</p>'
  const at200 = recognizePage(observe(page(`<h1>Pardon Our Interruption</h1>${reasons}<div style="display:none">Please stand by, while we are checking your browser...</div>`), 200))
  t.equal(at200.challenge?.provider, 'imperva', 'the template alone on the page at 200')
  t.ok(at200.challenge?.evidence.includes("shape: a bot manager's notice by its wording"), 'the signal is evidence')
  const menu = `<nav>${['Help', 'Account', 'Orders', 'Contact'].map(w => `<a href="/${w}">${w}</a>`).join('')}</nav>`
  t.not(recognizePage(observe(page(`${menu}<article><h1>Why did I see "Pardon Our Interruption"?</h1>${reasons}${PROSE}</article>`), 200)).page_kind, 'challenge', 'an article quoting it')
  const distil = page('<h1>Pardon Our Interruption</h1><p>A third-party browser plugin, such as Ghostery or NoScript, is preventing JavaScript from running.</p><form id="distilUnblockForm"></form>')
  t.equal(recognizePage(observe(distil, 405)).challenge?.provider, 'distil', "Distil's own markup names Distil first")
  const olderDistil = page('<h1>Pardon Our Interruption</h1><p>A third-party browser plugin, such as Ghostery or NoScript, is preventing JavaScript from running.</p>',
    '<script>var distil_r_path = "/distil_r_captcha.html"</script>')
  t.equal(recognizePage(observe(olderDistil, 405)).challenge?.provider, 'distil', "Distil's own code in the page names Distil ahead of the template")
  // Imperva's interstitial as a browser shows it for its first ten seconds: the reasons hidden
  // while its script runs. The setting its head template gives that script names Imperva.
  const hidden = `<div style="display:none"><h1>Pardon Our Interruption</h1>${reasons}</div>`
  const running = recognizePage(observe(page(hidden, '<script>window.reeseSkipExpirationCheck = true;</script>'), 200))
  t.equal(running.challenge?.provider, 'imperva', "Imperva's interstitial with its reasons hidden")
  t.ok(running.challenge?.evidence.includes('vendor marker "reeseskipexpirationcheck"'), 'named by its script setting')
  t.equal(recognizePage(observe(page(hidden), 200)).challenge?.provider, 'generic', 'the same page without the setting names no vendor')
  const automated = page('<h1>Похоже, ваш запрос выглядит необычно</h1><p>Система защиты могла принять ваши действия за автоматические.</p><button>Обновить страницу</button>')
  t.equal(recognizePage(observe(automated, 403)).page_kind, 'challenge', 'Russian: "took your actions for automated ones"')
  const english = page('<h1>Sorry</h1><p>We received automated requests from your network.</p><button>Try again</button>')
  t.equal(recognizePage(observe(english, 403)).page_kind, 'challenge', 'English: "automated requests"')
  // "Abnormal access", "we think you are a bot": a site's own block says why it took the visitor for one.
  for (const words of ['Access was restricted because abnormal access was detected.', 'We detected suspicious activity from your network.', 'We think you are a bot.',
    '비정상적인 접근으로 일시적으로 서비스 접속이 제한 되었습니다.', '检测到异常访问，请稍后再试。', '不正なアクセスを検知しました。', 'Algo en tu navegador nos hizo pensar que eres un bot.']) {
    t.equal(recognizePage(observe(page(`<p>${words}</p>`), 403)).page_kind, 'challenge', words)
  }
  t.not(recognizePage(observe(page('<p>Our robots are abnormal in size.</p>'), 403)).page_kind, 'challenge', 'look-alike words')
  // Distil's template by its other reason, in the languages it is served in, on a page longer than a notice.
  const footerWords = `<div class="mt-SharedFooter">${'Part of a group of classified sites with many brands and offices. '.repeat(6)}</div>`
  for (const reason of ['You are a power user moving through this website with super-human speed.', 'Eres un usuario avanzado que se mueve con velocidad super humana.',
    'Vous naviguez sur ce site à une vitesse surhumaine.', 'Sie bewegen sich mit übermenschlicher Geschwindigkeit durch diese Website.']) {
    const r = recognizePage(observe(page(`<h1>Oops</h1><p>${reason}</p>${footerWords}`), 403))
    t.equal(r.challenge?.provider, 'imperva', reason)
  }
})

t.test("a bot check's own page: its assets come from a challenge directory", async t => {
  const notice = page('<img src="/s3/abt-challenge/images/warn.png" alt="warning"><div>No connection</div><button>Reload</button>',
    '<link rel="stylesheet" href="https://cdn.test/s3/abt-challenge/styles/common.css">')
  const r = recognizePage(observe(notice, 403))
  t.equal(r.challenge?.provider, 'generic', 'at a blocking status it is a gate, whatever its words')
  t.ok(r.challenge?.evidence.includes('shape: served from a challenge path'))
  t.notOk(recognizePage(observe(notice, 200)).challenge, 'at 200 it is not')
  const antibot = factsOf(observe(page('<p>Wait.</p>', '<script type="module" src="/__check/challenges/antibot/static/index.js"></script>'), 403))
  t.ok(gateShape(antibot).signals.includes('shape: served from a challenge path'), 'an anti-bot directory')
  // A guard's app, drawn by its script into an empty mount point, answered 403 (Newgrounds' NG Guard).
  const guard = page('<div id="root"></div>', '<title>NG Guard</title><script async type="module" crossorigin src="/_guard/assets/main-mfGdr1-b.js"></script><link rel="stylesheet" href="/_guard/assets/StatusCard-DZUjjTEW.css">')
  t.equal(recognizePage(observe(guard, 403)).challenge?.provider, 'generic', "a guard's app at 403")
  t.notOk(recognizePage(observe(guard, 200)).challenge, 'at 200 it is an app')
  const safeguard = page('<div id="root"></div>', '<script type="module" src="/safeguard/assets/main.js"></script>')
  t.notOk(recognizePage(observe(safeguard, 403)).challenge, 'a word that ends in "guard" names no guard')
  const cloudflare = factsOf(observe(page('<p>Forbidden.</p>', '<script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js"></script>'), 403))
  t.notOk(gateShape(cloudflare).signals.includes('shape: served from a challenge path'), "Cloudflare's script on every page is its detector's business")
  const link = factsOf(observe(page('<p>Try our <a href="/challenges/weekly/">weekly challenge</a>.</p>'), 403))
  t.notOk(gateShape(link).signals.includes('shape: served from a challenge path'), 'a link to a challenge page is not an asset')
})

t.test('a vendor sensor on an application shell is not the vendor\'s cookie check', async t => {
  const sensor = '<script src="/_Incapsula_Resource?SWJIYLWA=1"></script>'
  const check = page(sensor, '<meta name="robots" content="noindex,nofollow">')
  t.equal(recognizePage(observe(check)).challenge?.provider, 'imperva', 'alone on a blank page it is the check')
  const shell = page(`<div id="root"></div>${sensor}<script src="/app.js"></script>`)
  t.notOk(recognizePage(observe(shell)).challenge, 'beside a mount point it is a sensor on an app')
  const bundles = page(`${sensor}<script src="/a.js"></script><script src="/b.js"></script>`)
  t.notOk(recognizePage(observe(bundles)).challenge, 'beside the app\'s bundles too')
})

t.test('a notice that asks for verification, answered with a challenge status, is a gate even with a form to fill', async t => {
  // An unblock request: the person asks to be let through (name, e-mail) rather than solving a puzzle.
  const unblock = page(`<h1>Pardon our interruption</h1>${PROSE.slice(0, 400)}</p><form><input name="first"><input name="email"><input type="submit" value="Request"></form><form style="display:none"><input type="submit"></form>`)
  for (const status of [403, 405, 416, 456]) {
    const r = recognizePage(observe(unblock, status))
    t.equal(r.page_kind, 'challenge', `at ${status}`)
    t.ok(r.challenge?.evidence.includes(`shape: status ${status}`), `evidence names the status ${status}`)
  }
  t.not(recognizePage(observe(unblock, 200)).page_kind, 'challenge', 'at 200 a form that mentions verification is the page')
  t.not(recognizePage(observe(unblock, 404)).page_kind, 'challenge', 'a 404 is no challenge status')
})

t.test('a CAPTCHA widget on a page some infrastructure serves: the infrastructure put the gate there', async t => {
  const widget = '<script src="https://www.google.com/recaptcha/api.js"></script><div class="g-recaptcha" data-sitekey="k"></div>'
  const bare = page(`<h1>Please complete the CAPTCHA</h1>${widget}<button>Submit</button>`)
  t.equal(recognizePage(observe(bare, 405)).challenge?.provider, 'recaptcha', 'without an infrastructure marker: the CAPTCHA vendor')
  const distil = page(`<h1>Please complete the CAPTCHA</h1><form id="distilCaptchaForm">${widget}<button>Submit</button></form>`)
  const r = recognizePage(observe(distil, 405))
  t.equal(r.challenge?.provider, 'distil')
  t.match(r.challenge?.evidence[0], /^vendor marker/, 'the marker that named it comes first in the evidence')
  t.ok(r.challenge?.evidence.includes('widget .g-recaptcha'), 'and the widget is still named')
  // Turnstile's own frame and inputs carry cf-chl- names: they do not make Cloudflare the gate's owner.
  const turnstile = page('<h1>Verification required</h1><script src="https://challenges.cloudflare.com/turnstile/v0/api.js"></script><div class="cf-turnstile" data-sitekey="k"><input type="hidden" id="cf-chl-widget-abc_response" name="cf-turnstile-response"></div>')
  t.equal(recognizePage(observe(turnstile, 403)).challenge?.provider, 'turnstile')
})

t.test("a notice's own words name its protector ahead of the CAPTCHA widget it embeds", async t => {
  const widget = '<script src="https://www.google.com/recaptcha/api.js"></script><div class="g-recaptcha" data-sitekey="k"></div>'
  const signed = (footer: string): string => page(`<h1>Please confirm that you are not a robot</h1>${widget}<footer>${footer}</footer>`)
  const r = recognizePage(observe(signed('example.org is protected by Imunify360'), 200))
  t.equal(r.challenge?.provider, 'imunify360')
  t.equal(r.challenge?.evidence[0], 'text "protected by Imunify360"', 'the words that named it come first')
  t.equal(recognizePage(observe(signed('DDoS protection by Cloudflare'), 200)).challenge?.provider, 'cloudflare', "Cloudflare's older signature")
  // innerText keeps the no-break space a page writes as &nbsp;.
  const nbsp = signed('example.org is protected by Imunify360')
  const live = recognizePage({ ...observe(nbsp, 200), text: visibleText(nbsp).replace('by Imunify360', 'by\u00a0Imunify360') })
  t.equal(live.challenge?.provider, 'imunify360', 'a no-break space between the words')
  t.equal(recognizePage(observe(signed('This site is protected by reCAPTCHA'), 200)).challenge?.provider, 'recaptcha', 'a CAPTCHA vendor\'s own credit names nobody else')
  t.equal(recognizePage(observe(signed('Powered by WordPress'), 200)).challenge?.provider, 'recaptcha', 'nor does a name that is no bot vendor')
  const longDocument = factsOf(observe(page(`${PROSE}<footer>Secured by Sucuri</footer>`)))
  t.equal(vendorOf(longDocument), undefined, 'a document\'s footer is not a notice naming its protector')
})

t.test('a vendor the page loads names the gate ahead of vendors its script only configures', async t => {
  // A site's own check page may configure several vendors and load one of them.
  const config = '<script>window.checkConfig = {"datadomeClientKey":"k","arkosePublicKey":"k"}</script>'
  const arkose = page('<h1>Please verify you are a human</h1><div id="challenge"></div>', config + '<script src="https://client-api.arkoselabs.com/v2/K/api.js"></script>')
  const r = recognizePage(observe(arkose, 429))
  t.equal(r.challenge?.provider, 'arkose')
  t.ok(r.challenge?.evidence.includes('vendor marker "arkoselabs"'))
  const configured = page('<h1>Please verify you are a human</h1><div id="challenge"></div>', config)
  t.equal(recognizePage(observe(configured, 429)).challenge?.provider, 'datadome', 'with nothing loaded, the configuration still names someone')
  // A bot manager's own code in inline script is not configuration: its page that embeds a widget is its own.
  const widget = '<script src="https://www.google.com/recaptcha/api.js"></script><div class="g-recaptcha" data-sitekey="k"></div>'
  for (const [code, provider] of [['window.SSJSConnectorObj = {}', 'shieldsquare'], ['window.KPSDK = {}', 'kasada'], ['window._pxAppId = "PX1"', 'perimeterx'], ['window.gokuProps = {}', 'aws_waf'], ['var host = "geo.captcha-delivery.com"', 'datadome'], ['var sucuri_cloudproxy_js = ""', 'sucuri'], ['var wsidchk = 1', 'imunify360'], ['window._cf_chl_opt = {}', 'cloudflare']]) {
    const gate = page(`<h1>Please verify you are a human</h1>${widget}`, `<script>${code}</script>`)
    t.equal(recognizePage(observe(gate, 429)).challenge?.provider, provider, `${code} names ${provider}`)
  }
})

t.test('a notice on its way whose script submits its form back to the same site is a check', async t => {
  const signal = 'shape: its script submits its form to the same site'
  const notice = (action: string, extra = ''): string => page(`<a href="/"><img src="/logo.png" alt="Home"></a><form action="${action}" method="POST"><h1>Please wait, you will be forwarded to the page you asked for</h1><input type="hidden" name="check" value="1">${extra}<p>If nothing happens, <input type="submit" value="click here"></p></form>` +
    '<script>const f = document.forms[0]; f.elements.check.value = solve(); f.submit()</script>')
  const r = recognizePage(observe(notice('/tracklist/42/set.html')))
  t.equal(r.page_kind, 'challenge', 'a relative action')
  t.equal(r.challenge?.provider, 'generic')
  t.ok(r.challenge?.evidence.includes(signal), 'the signal is evidence')
  t.equal(recognizePage(observe(notice('http://127.0.0.1/verify'))).page_kind, 'challenge', 'an absolute action on the same site')
  t.notOk(gateShape(factsOf(observe(notice('')))).signals.includes(signal), 'no action (a pop-up callback posting back): not named as a check')
  // A sign-in hand-off posts to another site; a form a person fills in has fields; a page with
  // more to read or follow is not on its way.
  const has = (html: string): boolean => gateShape(factsOf(observe(html))).signals.includes(signal)
  t.notOk(has(notice('https://sp.example.org/saml/acs')), 'SAML or OAuth form_post to another site')
  t.notOk(has(notice('/search', '<input type="text" name="q">')), 'a field to fill in')
  t.notOk(has(page('<form action="/next"><p>Please wait</p></form><script>setup()</script>')), 'a script that submits nothing')
  t.notOk(has(page(`<form action="/next"><p>Please wait</p></form>${PROSE}<script>document.forms[0].submit()</script>`)), 'a document')
  t.notOk(has(page(`<form action="/next"><p>Please wait</p></form><nav>${'<a href="/x">x</a>'.repeat(4)}</nav><script>document.forms[0].submit()</script>`)), 'links to follow')
  t.notOk(has(page('<form action="/next"><p>Your order is confirmed.</p></form><script>document.forms[0].submit()</script>')), 'a page that does not say it is on its way')
})

t.test("a site's footer is its chrome: its words are not the gate's", async t => {
  const footer = (open: string, close: string): string => `${open}${Array.from({ length: 30 }, (_, i) => `<a href="/f${i}">Footer link number ${i}</a> |`).join(' ')}${close}`
  const gate = (chrome: string): string => page(`<h1>Ich bin kein Roboter</h1><p>${'Bitte löse diesen kurzen Test. '.repeat(5)}</p><div class="g-recaptcha" data-sitekey="x"></div>${chrome}`, '<script src="https://www.google.com/recaptcha/api.js"></script>')
  for (const [open, close] of [['<div class="footer">', '</div>'], ['<div id="site-footer">', '</div>'], ['<div role="contentinfo">', '</div>'], ['<footer>', '</footer>']]) {
    t.ok(gateShape(factsOf(observe(gate(footer(open, close)), 405))).gate, `${open}: its words and links are the site's`)
  }
  t.notOk(gateShape(factsOf(observe(gate(footer('<div class="links">', '</div>')), 405))).gate, 'the same words in the page are the page\'s')
  t.notOk(gateShape(factsOf(observe(gate(footer('<div class="footer-content">', '</div>')), 405))).gate, 'only an element that is the footer, not a part named after it')
})

t.test('a quiet page whose script works out a proof of work and moves on is a check', async t => {
  const signal = 'shape: its script works out a proof of work'
  const work = 'const sha = async s => Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(s))));' +
    'async function solve () { let n = 0; for (;;n++) { const h = await sha(seed + n); if (h[0] === 0) break } document.cookie = `_pass=${seed};${n}; path=/`; window.location.href = "/notebook" } solve()'
  const button = (attrs: string): string => `<div id="root"><button id="continue-button" ${attrs}><span class="spinner"></span> <span>Continuar</span></button></div>`
  const r = recognizePage(observe(page(button('disabled="disabled"'), `<script type="module">${work}</script>`)))
  t.equal(r.page_kind, 'challenge', 'a disabled button while the script works')
  t.equal(r.challenge?.provider, 'generic')
  t.ok(r.challenge?.evidence.includes(signal), 'the signal is evidence')
  t.equal(recognizePage(observe(page('', `<script>${work.replace('window.location.href = "/notebook"', 'location.reload()')}</script>`))).page_kind, 'challenge', 'a blank page that reloads')
  const has = (html: string): boolean => gateShape(factsOf(observe(html))).signals.includes(signal)
  t.notOk(has(page(button(''), `<script>${work}</script>`)), 'a button to press now')
  t.notOk(has(page('', '<script>document.cookie = "lang=en"; for (const k of keys) use(k); location.href = "/en/"</script>')), 'a cookie and a redirect, no hashing')
  t.notOk(has(page(button('disabled'), `<script src="/app.js"></script><script>${work}</script>`)), "an app's shell that loads its code")
  t.notOk(has(page(`${button('disabled')}<a href="/help">Help</a>`, `<script>${work}</script>`)), 'a link to follow')
  t.notOk(has(page(button('disabled'), `<script>${work.replace('document.cookie = `_pass=${seed};${n}; path=/`;', '')}</script>`)), 'no cookie kept')
})

t.test("a site's search box in its header does not make its check page a form", async t => {
  const header = (field: string): string => `<header><form action="/search">${field}<input type="submit" value="Search"></form></header>`
  const check = (field: string): string => page(`${header(field)}<h1>One last step</h1><p>Please solve the challenge below to continue.</p><div class="cf-turnstile" data-sitekey="x"></div>`,
    '<script src="https://challenges.cloudflare.com/turnstile/v0/api.js"></script>')
  t.equal(recognizePage(observe(check('<input type="search" name="q">'))).challenge?.provider, 'turnstile', 'a search box')
  t.equal(recognizePage(observe(check('<input name="q" role="searchbox">'))).challenge?.provider, 'turnstile', 'a search box by its role')
  t.not(recognizePage(observe(check('<input type="email" name="email">'))).page_kind, 'challenge', 'a field to fill in is the page\'s purpose')
})

t.test("a site's own check in its own layout: a CAPTCHA vendor's widget that asks, its header and menus around it", async t => {
  const menu = `<header><nav>${['Jobs', 'Companies', 'Salaries', 'Courses', 'Blog'].map(w => `<a href="/${w}">${w}</a>`).join(' ')}</nav>` +
    '<form action="/search"><input type="text" class="search__input" name="search" placeholder="Search by name"><button>Go</button></form></header>'
  const footer = `<footer>${['About', 'Privacy', 'Terms', 'Help'].map(w => `<a href="/${w}">${w}</a>`).join(' ')}</footer>`
  const loader = '<script src="https://challenges.cloudflare.com/turnstile/v0/api.js"></script>'
  const check = (body: string, head = loader): string => page(`${menu}${body}${footer}`, head)
  const step = '<h1>One last step</h1><p>Please solve the challenge below to continue.</p><div class="cf-turnstile" data-sitekey="x"></div>'
  const r = recognizePage(observe(check(step)))
  t.equal(r.challenge?.provider, 'turnstile', 'the widget that asks is the page')
  t.ok(r.challenge?.evidence.includes("shape: a widget that asks, in the site's own layout"), 'the signal is evidence')
  t.notOk(r.challenge?.evidence.includes('shape: little else on the page'), 'the page is not bare')
  t.notOk(gateShape(factsOf(observe(check(step.replace('class="cf-turnstile"', 'id="captcha-box"'), '')))).gate, 'an element named "captcha" without a vendor loader is not enough in a layout')
  t.notOk(gateShape(factsOf(observe(check(step.replace('<h1>One last step</h1><p>Please solve the challenge below to continue.</p>', '<h1>Contact</h1>'))))).gate, 'a widget that asks nothing')
  t.notOk(gateShape(factsOf(observe(check(`<article>${step}</article>`)))).gate, 'inside an article')
  t.notOk(gateShape(factsOf(observe(check(`${step}${PROSE}`)))).gate, 'beside more words than a notice')
  t.notOk(gateShape(factsOf(observe(check(`${step}<input type="email" name="email">`)))).gate, 'beside a field to fill in')
})

t.test("a site's own pages that carry a widget in its layout stay content (fifth review)", async t => {
  const loader = '<script src="https://www.google.com/recaptcha/api.js"></script>'
  const widget = '<div class="g-recaptcha" data-sitekey="x"></div>'
  const layout = (title: string, main: string): string => page(`<header><a href="/">Acme</a><nav>${['Shop', 'News', 'About', 'Help', 'Login'].map(w => `<a href="/${w}">${w}</a>`).join(' ')}</nav>` +
    `<form action="/search" role="search"><input type="text" name="q" placeholder="Search"><button>Go</button></form></header><main>${main}</main><footer><a href="/privacy">Privacy</a> <a href="/terms">Terms</a></footer>`,
  `<title>${title}</title>${loader}`)
  const content = (html: string): boolean => !gateShape(factsOf(observe(html))).gate
  const radios = ['Pepperoni', 'Mushroom', 'Pineapple'].map((v, i) => `<label><input type="radio" name="v" value="${i}"> ${v}</label>`).join('')
  t.ok(content(layout('Poll', `<h1>Vote: best pizza topping</h1><form method="post">${radios}<p>Please confirm you are not a robot.</p>${widget}<button>Vote</button></form>`)), "a poll: the widget's form has choices to make")
  t.ok(content(layout('Report this listing', `<h1>Report this listing</h1><form method="post"><select name="reason"><option>Spam</option></select><p>Complete the security check below, then submit.</p>${widget}<button>Report</button></form>`)), 'a report form with a list to choose from')
  t.ok(content(layout('reCAPTCHA demo', `<h1>reCAPTCHA v2 demo</h1><p>Tick the box and press submit to see the token.</p><form method="post">${widget}<button>Submit</button></form>`)), 'a demo names the widget, it does not ask')
  t.ok(content(layout('Your cart', `<h1>Your cart</h1><p>1 × Blue mug, $12.00</p><a href="/">Continue shopping</a><form method="post" action="/checkout">${widget}<button>Checkout</button></form>`)), "a cart's way on is not a step")
  t.ok(content(layout('Business entity search', `<h1>Business entity search</h1><form action="/entities"><input type="text" name="q" placeholder="Company name"><p>Complete the security check to search.</p>${widget}<button>Search</button></form>`)),
    "a lookup: a search box inside the widget's own form is what the widget guards")
  t.ok(gateShape(factsOf(observe(layout('Create account, step 2', `<h1>One more step</h1><p>Confirm you are human to finish creating your account.</p><form method="post"><input type="hidden" name="token" value="x">${widget}<button>Create account</button></form>`)))).gate,
    'a step that asks in so many words, with nothing else in its form, is a gate')
  const mfa = page('<h1>Two-step verification</h1><p>We sent a notification to your phone. Approve it, or complete the challenge below to continue.</p><button>Send again</button>', '<title>Two-step verification</title>')
  t.ok(content(mfa), 'only "solve the challenge below to continue" asks')
})

t.test("a notice that is short once the site's header and footer are left out", async t => {
  const tagline = '<p>Buy and sell electronics, cars, fashion apparel, collectibles, sporting goods, digital cameras, baby items, coupons, and everything else on the marketplace.</p>'
  const header = `<header><a href="/">Home</a> <a href="/help">Help</a> <a href="/sell">Sell</a>${tagline}</header>`
  const footer = `<footer>${tagline}${tagline}<a href="/about">About</a> <a href="/privacy">Privacy</a></footer>`
  const loader = '<script src="https://hcaptcha.com/1/api.js"></script>'
  const notice = '<h1>Please verify yourself to continue</h1><p>To keep the marketplace a safe place to buy and sell, we will occasionally ask you to verify yourself.</p><div class="h-captcha" data-sitekey="x"></div>'
  const check = (main: string): string => page(`${header}${main}${footer}`, `<title>Security measure</title>${loader}`)
  const r = recognizePage(observe(check(notice)))
  t.equal(r.challenge?.provider, 'hcaptcha')
  t.ok(r.challenge?.evidence.includes("shape: short notice inside the site's chrome"), 'the signal is evidence')
  t.notOk(r.challenge?.evidence.includes('shape: short notice'), 'the page as a whole is not short')
  t.notOk(gateShape(factsOf(observe(check(`${notice}${PROSE}`)))).gate, 'a longer page of its own is not')
  t.notOk(gateShape(factsOf(observe(check(`${notice}<div style="display:none">${PROSE}</div>`)))).gate, "hidden words of the page's own part count: they never make it look shorter")
})

t.test("a page short only without its chrome is a notice only when it asks and holds a vendor's widget itself (sixth review)", async t => {
  const header = '<header class="site-header"><a href="/">Acme</a> <a href="/shop">Shop</a> <a href="/help">Help</a></header>'
  const footer = (extra = ''): string => `<footer class="site-footer">${Array.from({ length: 30 }, (_, i) => `<a href="/f${i}">Footer link number ${i}</a>`).join(' ')}` +
    `<p>Registered in England and Wales, company number 01234567. All rights reserved. Prices include VAT where applicable.</p>${extra}</footer>`
  const content = (main: string, head = '', extra = ''): boolean => !gateShape(factsOf(observe(page(`${header}<main>${main}</main>${footer(extra)}`, head)))).gate
  t.ok(content('<h1>Thank you!</h1><p>Your message has been sent. We will get back to you within two working days.</p>',
    '<title>Thank you</title><script src="https://www.google.com/recaptcha/api.js?render=k"></script>', '<p class="recaptcha-terms">This site is protected by reCAPTCHA.</p>'),
  "a thank-you page with the footer's reCAPTCHA line")
  t.ok(content('<h1>Complete your payment</h1><p>Your bank asks you to confirm this payment.</p><iframe src="https://acs.bank.test/3ds2/challenge?tx=1"></iframe>', '<title>Checkout</title>'), "a bank's 3-D Secure step")
  t.ok(content('<h1>Security checkup</h1><p>Review your recent sign-ins and recovery options.</p><button>Start checkup</button>', '<title>Security checkup</title>'), 'an account page that names a security check')
  t.ok(content('<h1>Turning on spam protection</h1><p>Open Settings, then switch on spam protection.</p><img src="/help/img/captcha-settings.png" alt="Settings">', '<title>Help</title>'), "a help page's screenshot")
  const hero = page(`<header class="hero"><nav>${['Home', 'Blog', 'About', 'Shop'].map(w => `<a href="/${w}">${w}</a>`).join(' ')}</nav><h1>How human verification works</h1>${PROSE}${PROSE}${PROSE}</header>` +
    '<main><div class="g-recaptcha" data-sitekey="k"></div></main>', '<title>Human verification explained</title><script src="https://www.google.com/recaptcha/api.js"></script>')
  t.notOk(gateShape(factsOf(observe(hero))).gate, 'an article in a hero header is more words than a gate, whatever element holds it')
})

t.test("a site's sidebar and cookie banner are its chrome, not its notice's words", async t => {
  const blurb = '<p>Find centralized, trusted content and collaborate around the technologies you use most. Connect and share knowledge within a single location that is structured and easy to search.</p>'
  const sidebar = (attrs: string): string => `<div ${attrs}><a href="/questions">Questions</a> <a href="/tags">Tags</a>${blurb}${blurb}</div>`
  const cookies = (attrs: string): string => `<div ${attrs}><p>By clicking "Accept all cookies", you agree we can store cookies on your device and disclose information in accordance with our Cookie Policy.</p><button>Accept all cookies</button><button>Customize settings</button></div>`
  const header = `<header>${['Products', 'Teams', 'About'].map(w => `<a href="/${w}">${w}</a>`).join(' ')}${blurb}</header>`
  const footer = `<footer>${['Help', 'Privacy', 'Terms'].map(w => `<a href="/${w}">${w}</a>`).join(' ')}${blurb}</footer>`
  const step = '<h1>Human verification</h1><p>We can\'t quite tell if you\'re a person or a script. Check the CAPTCHA box, and we\'ll be out of your way.</p><p>Please verify you are a human.</p>' +
    '<form method="post"><div class="g-recaptcha" data-sitekey="k"></div><button>Submit</button></form>'
  const check = (side: string, banner: string, main = step): string => page(`${header}${side}<div id="content">${main}</div>${footer}${banner}`,
    '<title>Human verification</title><script src="https://www.google.com/recaptcha/api.js"></script>')
  for (const [side, banner] of [['id="left-sidebar"', 'class="js-consent-banner"'], ['class="sidebar"', 'id="onetrust-banner-sdk"'], ['role="navigation"', 'class="cookie-notice bottom"']]) {
    const r = recognizePage(observe(check(sidebar(side), cookies(banner))))
    t.equal(r.challenge?.provider, 'recaptcha', `${side}, ${banner}`)
  }
  t.notOk(gateShape(factsOf(observe(check(sidebar('class="column"'), cookies('class="notice"'))))).gate, 'without them, their words are the page\'s own')
  t.notOk(gateShape(factsOf(observe(check(sidebar('id="left-sidebar"'), cookies('class="js-consent-banner"'), `${step}${PROSE}`)))).gate, 'a longer page of its own is not')
  t.notOk(gateShape(factsOf(observe(page(`<main class="has-sidebar">${step}${PROSE}</main>`, '<script src="https://www.google.com/recaptcha/api.js"></script>')))).gate,
    "a class that only mentions a sidebar is not one, and a page's main part is never chrome")
})

t.test("the fields of an overlay the page keeps closed are not on show beside a widget", async t => {
  const feedback = (attrs: string, extra = ''): string => `<div ${attrs}><div class="c-overlay-body"><form method="post" action="/feedback"><input type="text" name="name"><input type="text" name="organization">` +
    `<textarea name="remark"></textarea>${extra}<button>Send</button></form></div></div>`
  const check = (overlay: string): string => page(`<h1>Security Check</h1><p>Please verify you are human to continue.</p><form method="post"><div class="cf-turnstile" data-sitekey="k"></div><button>Continue</button></form>${overlay}`,
    '<title>Security Check</title><script src="https://challenges.cloudflare.com/turnstile/v0/api.js"></script>')
  const r = recognizePage(observe(check(feedback('class="c-overlay-container"'))))
  t.equal(r.challenge?.provider, 'turnstile', "a feedback form in a closed overlay")
  t.notOk(r.challenge?.evidence.includes('shape: form fields'), 'its fields are not counted')
  t.equal(recognizePage(observe(check(feedback('class="modal fade"')))).challenge?.provider, 'turnstile', "a Bootstrap modal not yet shown")
  t.notOk(gateShape(factsOf(observe(check(feedback('class="modal fade show"'))))).gate, 'an open modal shows its fields')
  t.notOk(gateShape(factsOf(observe(check(feedback('class="feedback-box"'))))).gate, 'fields in no overlay are on show')
  const signIn = page(`<div class="login-modal"><h1>Sign in</h1><p>Please verify you are human to continue.</p><form method="post"><input type="email" name="email"><input type="password" name="password">` +
    '<div class="cf-turnstile" data-sitekey="k"></div><button>Sign in</button></form></div>', '<script src="https://challenges.cloudflare.com/turnstile/v0/api.js"></script>')
  t.notOk(gateShape(factsOf(observe(signIn))).gate, "an overlay that holds the widget is the page's form: its fields count")
})

t.test("a site's sidebar and cookie banner are its chrome only when they are (seventh review)", async t => {
  const recaptcha = '<script src="https://www.google.com/recaptcha/api.js"></script>'
  const content = (html: string): boolean => !gateShape(factsOf(observe(html))).gate
  const hero = (attrs: string, after = ''): string => page(`<header class="hero"${attrs}><nav>${['Home', 'Blog', 'About', 'Shop'].map(w => `<a href="/${w}">${w}</a>`).join(' ')}</nav>` +
    `<h1>How human verification works</h1>${PROSE}${PROSE}${PROSE}</header><main><div class="g-recaptcha" data-sitekey="k"></div></main>${after}`, `<title>Human verification explained</title>${recaptcha}`)
  t.ok(content(hero(' role="banner"')), "a hero header with the banner role: a header's words count")
  t.ok(content(hero('', `<div id="onetrust-consent-sdk"><div id="onetrust-pc-sdk" style="display:none">${PROSE}${PROSE}${PROSE}</div></div>`)),
    "a hidden consent centre's words never make the rest of the page shorter")
  const post = (attrs: string, heading: string): string => page(`<div ${attrs}><h1>${heading}</h1>${PROSE}${PROSE}</div>` +
    '<h2>Are you a robot? Rate this</h2><form method="post"><div class="g-recaptcha" data-sitekey="k"></div><button>Rate 5 stars</button></form>', `<title>${heading} - Blog</title>${recaptcha}`)
  t.ok(content(post('id="post-42" class="post-42 post type-post status-publish hentry category-gdpr"', 'Is bot protection GDPR-compliant?')), "a post's category token is not a cookie banner")
  t.ok(content(post('id="cookie-recipes"', 'Chocolate chip cookies')), 'nor is a recipe list')
  t.ok(content(post('class="entry tag-consent-forms"', 'Consent forms explained')), 'nor a tag')
  t.ok(content(post('data-widget-id="sidebar" class="entry"', 'Widgets explained')), 'a data attribute is no class or id')

  const header = `<header>${['Questions', 'Tags', 'Users', 'Companies', 'Jobs', 'Teams', 'About'].map(w => `<a href="/${w}">${w}</a>`).join(' ')}<p>Where developers share knowledge.</p><p>Build your employer brand.</p></header>`
  const step = '<h1>Human verification</h1><p>Are you a human being? We can\'t quite tell if you\'re a person or a script. Please verify you are a human.</p>' +
    '<form method="post"><div class="g-recaptcha" data-sitekey="k"></div><button>Submit</button></form>'
  const gate = (body: string): boolean => gateShape(factsOf(observe(page(`${header}${body}<footer><a href="/help">Help</a></footer>`, `<title>Human verification</title>${recaptcha}`)))).gate
  const blurb = '<p>Find centralized, trusted content and collaborate around the technologies you use most, in one place that is easy to search.</p>'
  t.ok(gate(`<div id="left-sidebar"><div class="nav-links"><a href="/questions">Questions</a> <a href="/tags">Tags</a></div>${blurb}${blurb}<div id="content">${step}</div>`),
    'a sidebar never closed does not take the step with it')
  t.ok(gate(`<div id="left-sidebar"><a href="/tags">Tags</a>${blurb}${blurb}<script>document.write('<div id="ad"><\\/div>')</script></div><div id="content">${step}</div>`),
    "a sidebar whose script writes a tag: the step after it is the page's own")
  t.ok(gate(`<div id="left-sidebar">${blurb}${blurb}</div><div id="content" class="snippet-hidden has-cookie-banner">${step}</div>`), 'a wrapper that has a cookie banner is not one')
})

t.test("a blank error page with a search box is no check that runs its script first (batch 18)", async t => {
  const error = (form: string): string => page(`${form}<div><a href="/"><img src="/error/500-title.png" alt="Sorry! Something went wrong."></a></div>` +
    '<img id="d" alt="Dogs of the shop"><script>document.getElementById("d").src = "/error/" + (Math.floor(Math.random() * 200) + 1) + ".jpg"</script>', '<title>Something went wrong</title>')
  const search = '<form action="/s" method="GET" role="search"><a href="/"><img src="/logo.png" alt="Shop"></a><input name="field-keywords" placeholder="Search"><input type="submit" value="Go"></form>'
  t.not(recognizePage(observe(error(search), 503)).page_kind, 'challenge', 'a search box and a button to use')
  t.ok(gateShape(factsOf(observe(error(''), 503))).signals.includes('shape: runs a script first'), 'the same page with nothing to use waits for its script')
})

t.test('a short denial signed by the protection that made it is its block, whatever reason it gives (batch 18)', async t => {
  const denial = (signature: string): string => page(`<h1>Error 403 - Forbidden</h1><p>Your requested access to the website is forbidden. You do not have permission to access this page.</p><p>example.org ${signature}</p>`, '<title>Error 403</title>')
  const r = recognizePage(observe(denial('is protected by Deflect'), 403))
  t.equal(r.page_kind, 'challenge')
  t.equal(r.challenge?.provider, 'deflect')
  t.ok(r.challenge?.evidence.includes('text "protected by Deflect" on a short denial'), 'the signature is evidence')
  t.equal(recognizePage(observe(denial('is protected by Sucuri'), 429)).challenge?.provider, 'sucuri', 'any infrastructure vendor that signs')
  t.not(recognizePage(observe(denial('is protected by reCAPTCHA'), 403)).page_kind, 'challenge', 'a CAPTCHA vendor signs forms, not blocks')
  t.not(recognizePage(observe(denial(''), 403)).page_kind, 'challenge', 'an unsigned denial is the site\'s own')
  t.not(recognizePage(observe(denial('is protected by Deflect'), 200)).page_kind, 'challenge', 'not a denial at 200')
})

t.test('closed overlays, quoted requests and blank checks with a button (eighth review)', async t => {
  const recaptcha = '<script src="https://www.google.com/recaptcha/api.js"></script>'
  // The challenge frame reCAPTCHA adds to the end of any page that loads it.
  const bframe = '<div style="visibility:hidden"><iframe src="https://www.google.com/recaptcha/api2/bframe?k=k"></iframe></div>'
  const content = (html: string): boolean => !gateShape(factsOf(observe(html))).gate
  const signIn = '<form method="post" action="/login"><input type="email" name="email"><input type="password" name="password"><button>Sign in</button></form>'
  t.ok(content(page(`<h1>My account</h1><div class="login-modal">${signIn}<a href="/forgot">Forgot password?</a></div>${bframe}`, `<title>Sign in</title>${recaptcha}`)),
    "a sign-in form in an element named as a modal, beside the widget's frame in no form")
  t.ok(content(page(`<div class="drawer lg:drawer-open"><div class="drawer-content"><h1>Sign in</h1>${signIn}</div></div>${bframe}`, `<title>Sign in</title>${recaptcha}`)), 'a drawer that wraps the app')
  const contact = (extra: string): string => page('<h1>Contact us</h1><p>Please verify you are human.</p><form method="post"><div class="g-recaptcha" data-sitekey="k"></div><button>Verify</button></form>' +
    `<form method="post" action="/contact"><input type="text" name="name"><input type="email" name="email"><textarea name="message"></textarea><button>Send</button></form>${extra}`, `<title>Contact</title>${recaptcha}`)
  t.ok(content(contact('<div class="modal"><!-- <input name="a"><input name="b"><input name="c"> --></div>')), 'fields in a comment are no fields to take away')
  t.ok(content(contact('<div class="no-overlay"><input name="a"><input name="b"><input name="c"></div>')), 'a class that only says there is no overlay')

  const layout = (heading: string): string => page(`<header><a href="/"><img alt="Acme" src="/logo.png"></a><nav>${['Home', 'News', 'Shop', 'Help'].map(w => `<a href="/${w}">${w}</a>`).join('')}</nav></header>` +
    `<main><h1>${heading}</h1><p>${'We have noticed requests from your network that look automated to us. '.repeat(5)}</p>` +
    '<form method="post"><div class="g-recaptcha" data-sitekey="k"></div><button>Continue</button></form></main>' +
    `<footer>${Array.from({ length: 10 }, (_, i) => `<a href="/f${i}">Link ${i}</a>`).join('')}</footer>`, `<title>Acme</title>${recaptcha}`)
  for (const heading of ['Click "I\'m not a robot" to continue', 'Please tick “I am not a robot” to continue', 'Подтвердите, что вы «не робот»']) {
    t.equal(recognizePage(observe(layout(heading))).page_kind, 'challenge', `${heading}: a request that quotes the box asks`)
  }

  const blank = (body: string): string => page(body, '<script src="/static/check.js"></script>')
  for (const body of ['<form method="post" action="/page"><input type="hidden" name="token" value=""></form>', '<div id="c"></div><button class="d-none" aria-label="Retry"><svg></svg></button>',
    '<input type="hidden" name="cf-turnstile-response">']) {
    t.equal(recognizePage(observe(blank(body), 403)).page_kind, 'challenge', `${body}: a blank check with no field to type in`)
  }
})

t.test("a site's search box beside a widget is known by its name too", async t => {
  const gate = (field: string): boolean => gateShape(factsOf(observe(page(`<form action="/find">${field}</form><h1>Security check</h1><div class="h-captcha" data-sitekey="x"></div>`,
    '<script src="https://hcaptcha.com/1/api.js"></script>')))).gate
  for (const field of ['<input name="q">', '<input type="text" name="search">', '<input id="site-search" type="text">', '<input type="text" placeholder="Search products">', '<input type="text" aria-label="Search">']) {
    t.ok(gate(field), `${field}: a search box`)
  }
  for (const field of ['<input type="text" name="username">', '<input type="text" name="researcher">', '<input type="text" placeholder="Searching for a job? Leave your email">']) {
    t.notOk(gate(field), `${field}: a field to fill in`)
  }
})

t.test('a refusal that names the security layer which made it is a block, however much it explains', async t => {
  const causes = '<h2>Common causes</h2><ul>' + ['Unusual network activity from your connection', 'Browsing many pages very quickly', 'Use of automated tools or scrapers',
    'A shared network address that others misused', 'Browser extensions that change requests'].map(c => `<li>${c}, which our systems may read as a threat to other users.</li>`).join('') + '</ul>'
  const block = page(`<h1>Request Blocked</h1><p>Our security system detected suspicious activity. Your request was temporarily blocked to protect users and system integrity. We apologize for any inconvenience.</p>${causes}<a href="/support">Contact support</a>`)
  const r = recognizePage(observe(block, 403))
  t.equal(r.challenge?.provider, 'generic', 'at 403')
  t.ok(r.challenge?.evidence.includes('shape: a security layer refused it'), 'the signal is evidence')
  t.not(recognizePage(observe(block, 200)).page_kind, 'challenge', 'at 200 it refuses nothing')
  const menu = `<nav>${['Jobs', 'Companies', 'Salaries', 'Blog'].map(w => `<a href="/${w}">${w}</a>`).join(' ')}</nav>`
  t.not(recognizePage(observe(page(`${menu}${block}`), 403)).page_kind, 'challenge', "a site's navigation around it makes a document")
})

t.test('ordinary pages that look like the new rules are not gates', async t => {
  const content = (html: string, status = 200): void => { t.not(recognizePage(observe(html, status)).page_kind, 'challenge', html.slice(0, 90)) }
  // A search for a verification word, with no widget: the search box is the page's purpose.
  content(page('<form action="/search"><input type="search" name="q" value="captcha"><button>Search</button></form><p>No results for captcha.</p>', '<title>Search results for captcha - Acme Docs</title>'))
  // A consent dialog that lists reCAPTCHA among its services asks nothing.
  content(page('<main><h1>Acme Studio</h1><p>We design furniture in Lisbon.</p><a href="/shop">Shop</a></main><div role="dialog" aria-modal="true"><h3>Cookies</h3><p>We use cookies for analytics and Google reCAPTCHA.</p><button>Accept</button><button>Reject</button></div>'))
  // A bank's 3-D Secure frame over a checkout, and a captcha container kept see-through for later.
  content(page(`<nav>${'<a href="/x">x</a>'.repeat(4)}</nav>${PROSE}${PROSE}<iframe src="https://acs.bank.test/3ds2/challenge?txn=1" style="position:fixed;top:0;left:0;width:100%;height:100%"></iframe>`))
  content(page(`<nav>${'<a href="/x">x</a>'.repeat(4)}</nav>${PROSE}${PROSE}<div class="geetest_box_wrap" style="position:fixed;width:100%;height:100%;opacity:0;pointer-events:none"></div>`))
  // A log-out form and a payment return submit what the server wrote; a sign-in bootstrap hashes once.
  content(page('<p>Logging you out, please wait…</p><form id="logout" action="/logout" method="POST"><input type="hidden" name="_token" value="abc"></form>', '<script>setTimeout(function () { document.getElementById("logout").submit() }, 1500)</script>'))
  content(page('<p>Redirecting…</p>', '<script>const v = new Uint8Array(32); for (let i = 0; i < v.length; i++) v[i] = rnd(); crypto.subtle.digest("SHA-256", v).then(h => { document.cookie = "pkce=" + enc(v); location.href = "https://idp.test/authorize?code_challenge=" + enc(h) })</script>'))
  // Refusals that name a security layer but no bot, and a word that only starts like "block".
  content(page('<h1>Account locked</h1><p>After several failed attempts our security system has blocked sign-in to this account for 30 minutes. You can reset your password.</p>'), 403)
  content(page('<p>Our blockchain security service is only available to verified members.</p>'), 403)
})

t.test('footers inside footers count once, and an element named like style is not one', async t => {
  const words = (n: number, w: string): string => Array.from({ length: n }, () => w).join(' ')
  const html = page(`<h1>Security check</h1><p>${words(190, 'word')}</p><footer><div class="footer">${words(20, 'foot')}</div><div class="footer">${words(40, 'foot')}</div></footer>`)
  t.notOk(gateShape(factsOf(observe(html, 403))).signals.includes('shape: little else on the page'), '190 words of the page stay the page\'s')
  const swatch = factsOf(observe(page('<style>p { color: red }</style><style-swatch color="red">Red</style-swatch><p>Pick a colour.</p>')))
  t.ok(swatch.tags.some(tag => tag.name === 'style-swatch'), '<style-swatch> is an element of the page, not a style body')
})

t.test('a check that says what it is only in its no-JavaScript fallback is a gate', async t => {
  const fallback = '<noscript><h2>Please, enable JavaScript to continue</h2><p>We need to make sure that you are not a robot.</p></noscript>'
  const notice = page(`${fallback}<div><p>ID: 4f2a9c</p><p>Try: reload the page, turn off extensions, use another browser.</p></div>`)
  const r = recognizePage(observe(notice, 403))
  t.equal(r.page_kind, 'challenge')
  t.equal(r.challenge?.provider, 'generic')
  t.ok(r.challenge?.evidence.includes('shape: its no-JavaScript fallback asks for verification'), 'the signal is evidence')
  const signals = (html: string, status = 200): string[] => gateShape(factsOf(observe(html, status))).signals
  const asked = 'shape: its no-JavaScript fallback asks for verification'
  t.notOk(signals(notice, 200).includes(asked), 'answered with 200: nothing says it came back where content was expected')
  // Ninth review: site-wide fallback lines that speak of checks, and short ordinary pages under them.
  const ordinary: Array<[string, string, number]> = [
    ['<noscript><p>Bitte aktivieren Sie JavaScript. Unser Spamschutz prüft damit bei Formularen, dass Sie kein Roboter sind.</p></noscript><h1>404 – Seite nicht gefunden</h1><p>Die angeforderte Seite gibt es leider nicht (mehr).</p><p><a href="/">Zur Startseite</a></p>', "a 404 under a spam filter's note", 404],
    ['<noscript><p>Bitte aktivieren Sie JavaScript. Unser Spamschutz prüft damit bei Formularen, dass Sie kein Roboter sind.</p></noscript><h1>Danke!</h1><p>Ihre Nachricht ist angekommen.</p>', "a thank-you page under a spam filter's note", 200],
    ['<h1>Сайт временно недоступен</h1><p>Идут плановые технические работы.</p><noscript>Для корректной работы сайта включите JavaScript. Проверка доступности выполняется автоматически.</noscript>', 'a maintenance page whose fallback speaks of a check', 503],
    ['<main><h1>Potwierdź logowanie</h1><p>Potwierdź logowanie w aplikacji.</p><a href="/logowanie">Anuluj</a></main><noscript>Weryfikacja bezpieczeństwa wymaga włączonej obsługi JavaScript w przeglądarce.</noscript>', "a bank's sign-in step", 403],
    ['<p>Please wait while we take you to your card issuer.</p><form action="https://acs.bank.test/pareq" method="post"><input type="hidden" name="PaReq" value="eJx"><noscript><p>Press Continue to go to your card issuer\'s security check.</p><input type="submit" value="Continue"></noscript></form>', 'a 3-D Secure hand-off', 403]
  ]
  for (const [body, name, status] of ordinary) t.notOk(signals(page(body), status).includes(asked), name)
  t.notOk(signals(page('<noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div>')).includes(asked), "an app's fallback asks for JavaScript only")
  t.notOk(signals(page(`${fallback}<form><input type="email" name="email"><input type="password" name="password"><button>Sign in</button></form>`)).includes(asked), 'a sign-in form says so in its fallback: its fields are the page')
  t.notOk(signals(page(`${fallback}<h1>Bread</h1>${PROSE}`)).includes(asked), 'a page with a document of its own')
  const lecture = `<noscript><p>${'We need to make sure that you are not a robot, and here is why. '.repeat(10)}</p></noscript>`
  t.notOk(signals(page(`${lecture}<p>Sign-up closed.</p>`)).includes(asked), 'a fallback with more than a notice in it says more than it asks')
})

t.test("a vendor's challenge frame waiting in a hidden block is no widget; shown, it is", async t => {
  // reCAPTCHA appends its challenge frame to any page that loads it, in a block kept hidden until
  // it challenges; a rendered page with an invisible reCAPTCHA on its one button carries it.
  const loader = '<script src="https://www.google.com/recaptcha/api.js" async defer></script>'
  const frame = (visibility: string): string => `<div style="visibility: ${visibility}; position: absolute; width: 100%; top: -10000px; left: 0px; right: 0px;">` +
    '<div style="width: 100%; height: 100%; position: fixed; top: 0px; left: 0px; z-index: 2000000000; background-color: rgb(255, 255, 255); opacity: 0.05;"></div>' +
    '<div style="z-index: 2000000000; position: relative;"><iframe title="recaptcha challenge expires in two minutes" src="https://www.google.com/recaptcha/api2/bframe?hl=en&amp;v=abc&amp;k=6LcKey" style="width: 100%; height: 100%;"></iframe></div></div>'
  const confirm = (visibility: string): string => page(`<h1>Confirm your subscription</h1><p>One click and the weekly letter is yours.</p><form action="/confirm" method="post"><button class="g-recaptcha" data-sitekey="6LcKey" data-callback="go">Confirm</button></form>${frame(visibility)}`, loader)
  const waiting = recognizePage(observe(confirm('hidden')))
  t.equal(waiting.page_kind, 'content', 'a confirmation page whose frame waits hidden')
  t.notOk(gateShape(factsOf(observe(confirm('hidden')))).signals.includes('shape: verification widget'), 'the waiting frame is no widget')
  t.ok(gateShape(factsOf(observe(confirm('visible')))).signals.includes('shape: verification widget'), 'the frame shown: the challenge is open')
  const shown = page(`<h1>One more step</h1><p>Please complete the security check to continue.</p>${frame('visible')}`, loader)
  t.equal(recognizePage(observe(shown, 403)).page_kind, 'challenge', 'a notice with the challenge open over it')
  const hiddenAttr = page(`<h1>Thanks for writing</h1><div hidden><iframe src="https://newassets.hcaptcha.com/captcha/v1/abc/static/hcaptcha.html#frame=challenge"></iframe></div>`)
  t.notOk(gateShape(factsOf(observe(hiddenAttr))).signals.includes('shape: verification widget'), "hCaptcha's frame under the hidden attribute")
  // The anchor beside it is the widget a person sees: the waiting frame takes nothing away.
  const anchor = page(`<h1>Are you a robot?</h1><iframe src="https://www.google.com/recaptcha/api2/anchor?k=6LcKey&amp;size=normal"></iframe>${frame('hidden')}`, loader)
  t.equal(recognizePage(observe(anchor, 403)).page_kind, 'challenge', 'the checkbox is shown')
})

t.test("a check's way on asks only on a page answered with a throttle's status", async t => {
  // "Continue shopping" and "one more step" are Amazon's check's way on (served with 503), and a
  // shop's empty cart, an order's thank-you page and a sign-up's last page say them too, bare
  // notices served with 200.
  const ordinary: Array<[string, string]> = [
    ['<h1>Your cart is empty</h1><p><a href="/">Continue shopping</a></p>', 'an empty cart'],
    ['<h1>Thank you for your order!</h1><p>Your order number is 12345. We sent you a confirmation.</p><a href="/">Continue shopping</a>', "an order's thank-you page"],
    ['<h1>One more step</h1><p>Check your inbox to confirm your email address.</p>', "a sign-up's last page"]
  ]
  for (const [body, name] of ordinary) t.not(recognizePage(observe(page(body, '<title>Shop</title>'), 200)).page_kind, 'challenge', name)
  t.not(recognizePage(observe(page('<h1>Your session has expired</h1><p>Please sign in again.</p><a href="/">Continue shopping</a>'), 401)).page_kind, 'challenge', 'an expired session (401)')
  t.not(recognizePage(observe(page('<h1>This item is not available in your region</h1><a href="/">Continue shopping</a>'), 403)).page_kind, 'challenge', "a region's refusal (403)")
  const check = page('<h4>Click the button below to continue shopping</h4><form action="/errors/validateCaptcha"><button type="submit">Continue shopping</button></form>', '<title>Amazon.com</title>')
  const answered = recognizePage(observe(check, 503))
  t.equal(answered.page_kind, 'challenge', 'the check answered 503')
  t.ok(answered.challenge?.evidence.includes('shape: asks for verification'), 'its way on asks')
  t.notOk(gateShape(factsOf(observe(page(ordinary[0][0]), 200))).signals.includes('shape: asks for verification'), 'the cart asks for nothing')
  // Saved without its status, the check says nothing of what it is; its form says where the answer
  // goes (thirty-fourth review).
  const saved = recognizePage(observe(check, 200))
  t.equal(saved.page_kind, 'challenge', 'the check answered 200: its one button submits to a CAPTCHA address')
  t.ok(saved.challenge?.evidence.includes("shape: its form submits to a check's address"), 'the form is evidence')
  t.not(recognizePage(observe(check.replace('/errors/validateCaptcha', '/cart/update'), 200)).page_kind, 'challenge', 'the same words and button, posting to the cart')
  t.not(recognizePage(observe(check.replace('/errors/validateCaptcha', '/errors/validateCaptcha/help'), 200)).page_kind, 'challenge', 'an address under such a directory is not the check')
  const signIn = page('<h1>Sign in</h1><form action="/account/captcha" method="post"><input name="email" type="email"><input name="password" type="password"><button type="submit">Sign in</button></form>', '<title>Shop</title>')
  t.not(recognizePage(observe(signIn, 200)).page_kind, 'challenge', 'a sign-in form that posts to a CAPTCHA address asks for its fields')
  const twoButtons = check.replace('</form>', '</form><form action="/cart"><button type="submit">View cart</button></form>')
  t.not(recognizePage(observe(twoButtons, 200)).page_kind, 'challenge', 'with a second action, the form is one of the page\'s things to do')
})

t.test("a blank page whose script fills in its hidden form and posts it to a check's address is the check (Archive-It's proof of work, batch 116)", async t => {
  const signal = "shape: its script submits its answer to a check's address"
  const form = (action: string, fields = '<input type="hidden" name="ts" value="1784939484"><input type="hidden" name="tries" value="">'): string => `<form method="post" action="${action}" name="challenge">${fields}</form>`
  const script = '<script>function solve (form) { form.tries.value = work(form.ts.value); form.submit() } window.addEventListener("load", () => solve(document.forms.challenge))</script>'
  const check = page(`${form('https://archive.example/_challenge')}<div id="progress"><span id="progressText"></span></div>${script}`, '<title>Session Verification</title>')
  const r = recognizePage(observe(check, 200, 'https://scholar.example/lookup?doi=10.1000/1'))
  t.equal(r.page_kind, 'challenge', 'at 200, posting to another site')
  t.ok(r.challenge?.evidence.includes(signal), 'the signal is evidence')
  // Hand-offs that post to an address named "challenge": their own fields name the protocol.
  const handoffs: Array<[string, string]> = [
    ['https://acs.bank.example/3ds2/challenge', '<input type="hidden" name="creq" value="eyJ0aHJlZURT"><input type="hidden" name="threeDSSessionData" value="">'],
    ['https://idp.example/oauth2/challenge', '<input type="hidden" name="SAMLResponse" value="PHNhbWxw"><input type="hidden" name="RelayState" value="">']
  ]
  for (const [action, fields] of handoffs) {
    const handoff = page(`${form(action, fields)}<script>document.forms.challenge.elements[1].value = location.hash; document.forms.challenge.submit()</script>`, '<title>Redirecting</title>')
    t.not(recognizePage(observe(handoff, 200, 'https://shop.example/pay')).page_kind, 'challenge', `a hand-off to ${action}`)
  }
  // Another form's hidden "state" (a search's filter) is not the posted form's: the check is still one.
  const besideSearch = page(`<form action="/search" name="find"><input type="hidden" name="state" value="all"></form>${form('https://archive.example/_challenge')}<div id="progress"></div>${script}`, '<title>Session Verification</title>')
  const beside = recognizePage(observe(besideSearch, 200, 'https://scholar.example/lookup?doi=10.1000/1'))
  t.ok(beside.page_kind === 'challenge' && beside.challenge?.evidence.includes(signal), `beside a search form's hidden state: ${beside.page_kind} (${beside.challenge?.evidence.join('; ') ?? 'no evidence'})`)
  const notFilled = page(`${form('https://archive.example/_challenge')}<script>document.forms.challenge.submit()</script>`)
  t.not(recognizePage(observe(notFilled, 200, 'https://scholar.example/')).page_kind, 'challenge', 'a form submitted as the server wrote it answers nothing')
  t.not(recognizePage(observe(page(`<h1>Our coding challenges</h1><p>${PROSE}</p>${form('/challenges')}${script}`, '<title>Challenges</title>'), 200)).page_kind, 'challenge', 'a page with something to read')
})

t.test('ordinary pages in the words of a check are not gates (tenth review)', async t => {
  // Each was a gate: the broad words (any Chinese 验证, any Russian проверка, "unusual activity",
  // "press and hold", "automatically", "please wait while we verify", "your request is being
  // verified") now ask only in the forms a check uses.
  const titled = (title: string, body: string): string => page(body, `<title>${title}</title>`)
  const ordinary: Array<[string, number, string]> = [
    [titled('邮箱验证成功', '<h1>邮箱验证成功</h1><p>您的邮箱已验证，现在可以登录。</p><a href="/login">去登录</a>'), 200, 'an email confirmed (Chinese)'],
    [titled('验证码', '<p>验证码已发送至您的手机</p>'), 200, 'a code sent to the phone (Chinese)'],
    [titled('Оплата прошла успешно — Проверка авто по VIN', '<h1>Спасибо! Оплата прошла успешно</h1><p>Отчёт придёт на почту.</p>'), 200, 'a VIN-check service paid (Russian)'],
    [titled('Проверка электронной почты', '<h1>Проверка электронной почты</h1><p>Мы отправили письмо.</p>'), 200, 'an email check (Russian)'],
    [titled('Voice', '<p>Press and hold the mic button to record</p><button>Mic</button>'), 200, "a voice note's press and hold"],
    [titled('Locked', '<p>Our security system has automatically blocked your account after several failed sign-in attempts.</p>'), 403, 'an account locked automatically'],
    [titled('Payment', '<p>Please wait while we verify your payment with your bank.</p>'), 200, 'a payment being verified'],
    [titled('Thanks', '<p>Thanks for applying. Your request is being verified by our team.</p>'), 200, 'an application being verified'],
    [titled('Unusual activity detected', '<p>We noticed unusual activity on your account. Reset your password.</p><a href="/reset">Reset password</a>'), 200, "an account's unusual activity"]
  ]
  for (const [html, status, name] of ordinary) t.not(recognizePage(observe(html, status)).page_kind, 'challenge', name)
  // A 401 is the answer to a sign-in: its fields are the page, whatever widget guards them.
  const signIn = page('<h1>Sign in</h1><p>Wrong password. Please try again.</p><form method="post" action="/login"><input type="email" name="email"><input type="password" name="password"><div class="g-recaptcha" data-sitekey="x"></div><button>Sign in</button></form>', '<script src="https://www.google.com/recaptcha/api.js"></script>')
  t.not(recognizePage(observe(signIn, 401)).page_kind, 'challenge', 'a sign-in form re-shown with a CAPTCHA (401)')
  const gates: Array<[string, number, string]> = [
    [titled('安全验证', '<p>请完成安全验证</p><div id="nc_1"></div>'), 200, 'a security verification (Chinese)'],
    [titled('验证中...', '<p>验证中... 请稍候...</p>'), 200, 'verifying, please wait (Chinese)'],
    [titled('Проверка безопасности', '<p>Подождите...</p>'), 200, 'a security check (Russian)'],
    [titled('Access denied', '<p>Press &amp; Hold to confirm you are a human (and not a bot).</p><div id="hold"></div>'), 403, "PerimeterX's press and hold"],
    [titled('Blocked', '<p>We have noticed an unusual activity from your IP and blocked access to this website.</p>'), 403, 'unusual activity from your IP'],
    [titled('One moment', '<p>Please wait while your request is being verified...</p>'), 200, "a splash's request being verified"]
  ]
  for (const [html, status, name] of gates) t.equal(recognizePage(observe(html, status)).page_kind, 'challenge', name)
  t.equal(provider(titled('Access denied', '<p>Press &amp; Hold to confirm you are a human (and not a bot).</p>'), 403), 'perimeterx', "PerimeterX's own words name it")
})

t.test("a vendor's script that also rides on ordinary pages is not their gate (tenth review)", async t => {
  const awsCaptcha = '<script src="https://abc.us-east-1.captcha.awswaf.com/abc/jsapi.js"></script>'
  const signIn = '<h1>Sign in</h1><form method="post" action="/login"><input type="email" name="email"><input type="password" name="password"><div id="captcha-container"></div><button>Sign in</button></form>'
  t.not(recognizePage(observe(page(signIn, `<title>Sign in</title>${awsCaptcha}`), 200)).page_kind, 'challenge', "a sign-in form that embeds AWS WAF's CAPTCHA")
  t.not(recognizePage(observe(page(signIn, '<title>Sign in</title><script>window.awsWafCookieDomainList = [];</script>'), 200)).page_kind, 'challenge', "a sign-in form beside AWS WAF's cookie list")
  t.equal(provider(page(signIn, `<title>Sign in</title>${awsCaptcha}`), 405), 'aws_waf', "the same form answered with AWS WAF's CAPTCHA status")
  t.equal(provider(page('<div id="captcha-container"></div>', `<title>Human Verification</title>${awsCaptcha}`), 200), 'aws_waf', "AWS WAF's CAPTCHA page itself")
  const ddosGuard = '<script src="https://check.ddos-guard.net/check.js"></script>'
  t.not(recognizePage(observe(page('<h1>Order placed</h1><p>Thank you. Your order 123 is confirmed.</p><a href="/">Home</a>', ddosGuard), 200)).page_kind, 'challenge', "a short order confirmation carrying DDoS-Guard's script")
  t.equal(provider(page('', ddosGuard), 200), 'ddos_guard', "DDoS-Guard's script on a blank page")
  t.equal(provider(page('<p>Checking your browser before accessing the site.</p>', ddosGuard), 403), 'ddos_guard', 'and on a short page answered 403')
})

t.test("a Cloudflare title or a Sucuri header alone is not their page (tenth review)", async t => {
  const preparing = page('<h1>Preparing your download</h1><p>Your file will start in a few seconds.</p>', '<title>Just a moment...</title>')
  t.not(recognizePage(observe(preparing, 200)).challenge?.provider, 'cloudflare', "a site's own page titled \"Just a moment...\" (200)")
  t.equal(provider(page('<p>Checking your browser before accessing the site.</p>', '<title>Just a moment...</title>'), 403), 'cloudflare', 'the title on a short 403')
  const forbidden = (text: string): PageObservation => ({ ...observe(page(`<h1>Forbidden</h1><p>${text}</p>`), 403), headers: { 'x-sucuri-id': '18012' } })
  t.not(recognizePage(forbidden("You don't have permission to access /wp-admin/ on this server.")).challenge?.provider, 'sucuri', "the origin's own 403 through the firewall")
  t.equal(recognizePage(forbidden('Access Denied - Sucuri Website Firewall')).challenge?.provider, 'sucuri', "the firewall's own block")
})

t.test('a slider or a button that only asks to confirm a person is a gate, in each language (tenth review)', async t => {
  // None of these says "robot" or "captcha": the step is named only by asking for a person.
  const slider = '<div class="slider"><div class="handle"></div></div>'
  const asks: Array<[string, string]> = [
    ['Please confirm you are a real person', 'English'],
    ['Please slide to continue', 'English, a slider'],
    ['Sicherheitsüberprüfung', 'German'],
    ['Bitte bestätigen Sie, dass Sie ein Mensch sind', 'German'],
    ['Подтвердите, что вы человек', 'Russian'],
    ['Confirmez que vous êtes un humain', 'French'],
    ['Potwierdź, że jesteś człowiekiem', 'Polish'],
    ['Bevestig dat je een mens bent', 'Dutch'],
    ['İnsan olduğunuzu doğrulayın', 'Turkish']
  ]
  for (const [words, language] of asks) {
    const r = recognizePage(observe(page(`<h1>${words}</h1>${slider}<button>→</button>`), 200))
    t.equal(r.page_kind, 'challenge', `${language}: "${words}"`)
    t.ok(r.challenge?.evidence.includes('shape: asks for verification'), `${language}: the words ask`)
  }
  // The same words in the body of an article, or above a contact form's fields, ask for no page.
  const article = page(`<nav><a href="/">Home</a><a href="/blog">Blog</a></nav><article><h1>How sliders tell people from bots</h1>${PROSE}<p>A slider says "Please confirm you are a real person".</p>${PROSE}</article>`)
  t.not(recognizePage(observe(article, 200)).page_kind, 'challenge', 'an article quoting the words')
  const contact = page('<h1>Kontakt</h1><form method="post"><input name="name"><input type="email" name="email"><textarea name="msg"></textarea><label>Sicherheitsüberprüfung: 3 + 4 =</label><input name="sum"><button>Senden</button></form>')
  t.not(recognizePage(observe(contact, 200)).page_kind, 'challenge', "a contact form's arithmetic question")
})

t.test('ordinary pages the eleventh review built are not gates, and the guards it found missing are named', async t => {
  // Each was a gate (or, for the guards, missed): the reasons a check gives and the words other
  // pages share ask only with a challenge status; a bare "captcha" in a heading asks only beside a
  // widget or with that status; a poll's choices are its form's; PerimeterX's captcha.js is its own
  // path; hosting badges sign no block; a user's upload is no check's asset.
  const cases: Array<[string, number, string, string | undefined, string]> = [
    ["<title>알림</title><h2>비정상적인 접근입니다.</h2><p>세션이 만료되었거나 잘못된 경로로 접근하셨습니다. 다시 로그인해 주세요.</p><a href=\"/login\">로그인 페이지로 이동</a>", 200, 'content', undefined, "a Korean \"abnormal access\" notice of an expired session"],
    ["<title>Account locked</title><h1>We detected suspicious activity on your account</h1><p>For your protection we have temporarily locked your account. To unlock it, reset your password.</p><a href=\"/reset\">Reset password</a>", 200, 'content', undefined, "an account locked after suspicious activity"],
    ["<title>Вход заблокирован</title><h1>Подозрительная активность в вашем аккаунте</h1><p>Мы временно ограничили вход. Смените пароль, чтобы продолжить.</p><button>Сменить пароль</button>", 200, 'content', undefined, "the same in Russian"],
    ["<title>ログイン通知</title><h1>不正なアクセスを検知しました</h1><p>普段と異なる環境からのログインがありました。心当たりがない場合はパスワードを変更してください。</p><a href=\"/password\">パスワードを変更する</a>", 200, 'content', undefined, "the same in Japanese"],
    ["<title>Your access to this site has been limited by the site owner</title><h1>Your access to this site has been limited by the site owner</h1><p>If you think you have been blocked in error, contact the owner of this site for assistance.</p><h2>Block Technical Data</h2><table><tr><th>Block Reason:</th><td>A potentially unsafe operation has been detected in your request to this site</td></tr></table><p>Generated by Wordfence at Mon, 3 Mar 2025 10:22:31 GMT.</p>", 403, 'challenge', 'wordfence', "Wordfence's block (403)"],
    ["<title>Your access to this site has been limited by the site owner</title><h1>Your access to this site has been limited by the site owner</h1><p>If you think you have been blocked in error, contact the owner of this site for assistance.</p><p>Block Reason: Access from your area has been temporarily limited for security reasons.</p><p>Generated by Wordfence at Mon, 3 Mar 2025 10:22:31 GMT.</p>", 503, 'challenge', 'wordfence', "Wordfence's rate limit (503)"],
    ["<title>406 Not Acceptable</title><h1>Not Acceptable!</h1><p>An appropriate representation of the requested resource could not be found on this server. This error was generated by Mod_Security.</p>", 406, 'challenge', 'modsecurity', "ModSecurity's 406"],
    ["<title>Queue-it</title><link rel=\"stylesheet\" href=\"//static.queue-it.net/static/queue/layouts/default/css/layout.css\"><script src=\"//static.queue-it.net/static/queue/js/queue.min.js\"></script><h1 id=\"headertext\"><span id=\"lbHeaderH2\">You're in line!</span></h1><p>When it is your turn, you will have 10 minutes to enter the website.</p><a id=\"hlThisIsQueueIt\" href=\"https://queue-it.com/what-is-this.html?customerId=acme\">What is this?</a><div id=\"MainPart_divProgressbar\" class=\"progressbar\" role=\"progressbar\"></div><p><span id=\"MainPart_lbUsersInLineAheadOfYouText\">Number of users in line ahead of you:</span> <span id=\"MainPart_lbUsersInLineAheadOfYou\">12135</span></p><button id=\"hlLinkToQueueTicket2Text\">Queue ID:</button> <span id=\"hlLinkToQueueTicket2\">fd929e22-fd9d-485e-9cd2-6d8d68e08911</span>", 200, 'challenge', 'queue_it', "Queue-it's waiting room"],
    ["<title>注册成功</title><h1>请查收邮件</h1><p>我们已向 user@example.com 发送了一封邮件，请点击邮件中的链接完成验证。</p><button>重新发送</button>", 200, 'content', undefined, "a Chinese sign-up's \"check your email to complete the verification\""],
    ["<title>邮箱验证</title><p>邮箱验证中，请稍候...</p>", 200, 'content', undefined, "a Chinese \"email being verified\""],
    ["<title>Poll</title><script src=\"https://www.google.com/recaptcha/api.js\" async defer></script><h1>Which pizza topping is best?</h1><form method=\"post\" action=\"/poll/12/vote\"><label><input type=\"radio\" name=\"c\" value=\"1\"> Pepperoni</label><label><input type=\"radio\" name=\"c\" value=\"2\"> Mushroom</label><div class=\"g-recaptcha\" data-sitekey=\"k\"></div><button>Vote</button></form>", 200, 'content', undefined, "a poll guarded by reCAPTCHA"],
    ["<title>Register</title><script src=\"https://www.google.com/recaptcha/api.js\" async defer></script><div class=\"card-header\">Register</div><form id=\"captcha-form\" method=\"post\" action=\"/register\"><input type=\"text\" name=\"username\"><input type=\"email\" name=\"email\"><input type=\"password\" name=\"password\"><div class=\"g-recaptcha\" data-sitekey=\"k\"></div><button type=\"submit\">Register</button></form>", 200, 'content', undefined, "a registration form named captcha-form"],
    ["<title>Contact us</title><script src=\"/js/captcha/captcha.js\"></script><h1>Contact us</h1><form method=\"post\"><input name=\"email\" type=\"email\"><textarea name=\"msg\"></textarea><img src=\"/captcha/image.php\" alt=\"code\"><input name=\"captcha\"><button>Send</button></form>", 200, 'content', undefined, "a contact form loading the site's own /js/captcha/captcha.js"],
    ["<title>Error</title><h2>reCAPTCHA verification failed</h2><p>Please go back and try again.</p><a href=\"javascript:history.back()\">Back</a>", 200, 'content', undefined, "a \"reCAPTCHA verification failed\" error notice"],
    ["<title>Why am I seeing a CAPTCHA? – Help Center</title><a href=\"/help\">Help Center</a><h1>Why am I seeing a CAPTCHA?</h1><p>We sometimes ask you to complete a CAPTCHA when we notice many sign-in attempts. If you see it every time, clear your cookies or try another browser.</p><button>Helpful</button><button>Not helpful</button>", 200, 'content', undefined, "a help page titled \"Why am I seeing a CAPTCHA?\""],
    ["<title>Sicherheitsabfrage</title><h1>Sicherheitsabfrage</h1><p>Möchten Sie die Adresse „Musterstraße 1“ wirklich löschen?</p><form method=\"post\" action=\"/konto/adressen/4/loeschen\"><button>Ja, löschen</button></form><a href=\"/konto/adressen\">Abbrechen</a>", 200, 'content', undefined, "a German \"Sicherheitsabfrage\" before deleting an address"],
    ["<title>Members only</title><h1>Members only</h1><p>You need an active subscription to read this post.</p><a href=\"/subscribe\">Subscribe</a><footer>© 2025 Acme Newsletter · Powered by Vercel</footer>", 403, 'denied', undefined, "a members-only 403 with a \"Powered by Vercel\" footer"],
    ["<title>403 Forbidden</title><h1>Forbidden</h1><p>You don't have permission to view this page.</p><footer>Website secured by Sucuri</footer>", 403, 'denied', undefined, "a 403 with a \"secured by Sucuri\" badge"],
    ["<title>Course</title><p>Please wait while we verify that you have access to this course...</p>", 200, 'content', undefined, "a course \"please wait while we verify that you have access\""],
    ["<title>Get the app</title><p>Checking your device…</p><p>You will be sent to the App Store or Google Play in a moment.</p><a href=\"/download\">Download manually</a>", 200, 'content', undefined, "an app-store redirect \"checking your device\""],
    ["<title>Private challenge</title><img src=\"/uploads/challenges/812/cover.jpg\" alt=\"10k steps a day\"><h1>This challenge is private</h1><p>Ask the organizer for an invitation to join.</p><a href=\"/challenges\">Browse public challenges</a>", 403, 'denied', undefined, "a private fitness challenge with its cover under /uploads/challenges/"],
    ["<title>Einen Moment bitte…</title><p>Wir überprüfen, ob Sie ein Mensch sind. Dies kann einige Sekunden dauern.</p><script src=\"/js/check.js\"></script>", 403, 'challenge', 'generic', "German \"wir überprüfen, ob Sie ein Mensch sind\""],
    ["<title>Подождите…</title><p>Проверяем, человек ли вы. Это может занять несколько секунд.</p><script src=\"/js/check.js\"></script>", 403, 'challenge', 'generic', "Russian \"проверяем, человек ли вы\""],
    ["<title>Un momento…</title><p>Verificando que usted es un ser humano. Esto puede tardar unos segundos.</p><script src=\"/js/check.js\"></script>", 403, 'challenge', 'generic', "Spanish \"verificando que usted es un ser humano\""]
  ]
  for (const [html, status, kind, provider, name] of cases) {
    const r = recognizePage(observe(html, status))
    if (kind === 'challenge') t.equal(r.challenge?.provider, provider, name)
    else t.not(r.page_kind, 'challenge', name)
  }
})

t.test("FortiWeb's block is known by its attack and message numbers; a web filter's category page stays a denial (batch 23)", async t => {
  const fortiWeb = page('<h2>Web Page Blocked!</h2><p>The page cannot be displayed. Please contact the administrator for additional information.</p><p>URL: example.org/catalogue</p><p>Attack ID: 20000051</p><p>Message ID: 001110248159</p>', '<title>The URL you requested has been blocked</title>')
  t.equal(provider(fortiWeb, 403), 'fortiweb', "FortiWeb's block")
  const filter = page('<h1>FortiGuard Intrusion Prevention - Access Blocked</h1><h2>Web Page Blocked</h2><p>You have tried to access a web page that is in violation of your Internet usage policy.</p><p>Category: Gambling</p>', '<title>Web Filter Violation</title>')
  t.equal(recognizePage(observe(filter, 403)).page_kind, 'denied', "a network's web filter")
  const article = page(`<nav><a href="/">Home</a><a href="/docs">Docs</a></nav><article><h1>Reading FortiWeb logs</h1>${PROSE}<p>Each block shows "Attack ID: 20000051" and "Message ID: 001110248159".</p>${PROSE}</article>`)
  t.not(recognizePage(observe(article, 200)).page_kind, 'challenge', 'an article quoting the numbers')
  const turkish = page('<p>Tarayıcınızı kontrol ediyoruz...</p><input type="button" value="Devam Et" disabled>', '<title>Yükleniyor</title>')
  t.equal(recognizePage(observe(turkish, 403)).page_kind, 'challenge', 'Turkish "we are checking your browser"')
})

t.test("a server's back-soon form and a passkey API's address are not a gate's (eleventh review)", async t => {
  const recaptcha = '<script src="https://www.google.com/recaptcha/api.js"></script>'
  const maintenance = page('<h1>We\'ll be back soon</h1><p>Leave your email and we will let you know when we are back.</p><form method="post" action="/notify"><input type="email" name="email"><div class="g-recaptcha" data-sitekey="k"></div><button>Notify me</button></form>', `<title>Maintenance</title>${recaptcha}`)
  t.not(recognizePage(observe(maintenance, 503)).page_kind, 'challenge', 'a 503 maintenance page with a notify-me form and a CAPTCHA')
  const captcha = page('<h4>Enter the characters you see below</h4><form action="/errors/validateCaptcha"><img src="/captcha/abc.jpg"><input id="captchacharacters" name="field-keywords"><button type="submit">Continue shopping</button></form>')
  t.equal(recognizePage(observe(captcha, 503)).page_kind, 'challenge', "a CAPTCHA's own answer box at 503 is still the gate's")
  const passkey = page('', "<title>Signing in…</title><script>fetch('/api/auth/passkey/challenge',{method:'POST'}).then(function(r){ if(!r.ok){ window.location.href='/login'; } });</script>")
  t.not(recognizePage(observe(passkey, 200)).page_kind, 'challenge', 'a blank page that fetches a passkey challenge')
  const redirect = page('', "<script>window.location.href = '/challenge/';</script>")
  t.equal(recognizePage(observe(redirect, 200)).page_kind, 'challenge', 'a blank page that goes to a challenge path')
})

t.test("Akamai Bot Manager's bm-verify interstitial is Akamai's by its verify address or its token (batch 24)", async t => {
  const verify = "<script>function go () { var xhr = new XMLHttpRequest(); xhr.open('POST', '/_sec/verify?provider=interstitial', false); xhr.send('{}') } go()</script>"
  t.equal(provider(page('<p>Powered and protected by</p><img id="akam-logo" src="/logo.svg" alt="Akamai">', verify), 200), 'akamai', 'its script posts to /_sec/verify')
  const refresh = '<meta http-equiv="refresh" content="5; URL=\'/shop/all?bm-verify=AAQAAAAL\'">'
  t.equal(provider(page('<p>Powered and protected by</p>', refresh), 200), 'akamai', 'its refresh carries the bm-verify token')
  t.not(recognizePage(observe(page(`<h1>Shop</h1>${PROSE}${PROSE}`, verify), 200)).page_kind, 'challenge', 'not on a page with content')
  // Its sensor interstitial: a blank page whose script reloads it once the sensor's request comes
  // back with the challenge's id (Coupang's search, thirty-first review).
  const sensor = '<script src="/YIEnD9uBMl2Tq1ut0pzy/zmJEfpc7fEif/B3Y9b00D/Ak/VTaDxAPgk?v=2f0ecc7e-f3d2-a857-2067-4f252c80173b&amp;t=271518733"></script>' +
    "<script>(function () { var chlgeId = ''; var s = document.getElementsByTagName('script'); for (var i = 0; i < s.length; i++) { if (s[i].src && s[i].src.match(/t=([^&#]*)/)) chlgeId = s[i].src.match(/t=([^&#]*)/)[1] }" +
    " var proxied = window.XMLHttpRequest.prototype.send; window.XMLHttpRequest.prototype.send = function () { var p = this; var id = setInterval(function () { if (p.readyState === 4 && p.responseURL && p.responseURL.indexOf('t=' + chlgeId) > -1) { location.reload(true); clearInterval(id) } }, 1); return proxied.apply(this, [].slice.call(arguments)) } })()</script>"
  const interstitial = recognizePage(observe(page('<div style="width: 50px; height: 50px; opacity: 0; position: absolute; overflow: scroll"><div style="width: 100px; height: 100px"></div></div>', sensor), 200))
  t.equal(interstitial.challenge?.provider, 'akamai', 'its sensor interstitial at 200')
  t.ok(interstitial.challenge?.evidence.includes('sensor interstitial (chlgeId, reload)'), 'named by its script')
  t.not(recognizePage(observe(page(`<h1>Shop</h1>${PROSE}${PROSE}`, sensor), 200)).page_kind, 'challenge', 'the same script on a page with content')
})

t.test("a CAPTCHA image's one field, in the form that posts to its check, is the image's answer whatever it is named (thirty-first review)", async t => {
  // Yandex's image CAPTCHA: the answer box is named "rep", the image stands above the form.
  const image = '<img class="AdvancedCaptcha-Image" src="https://example.test/captchaimg?k=1">'
  const form = (field: string, action = '/checkcaptcha?key=1'): string => `<form method="post" action="${action}">${field}<input type="hidden" name="key" value="1"><button type="submit">Отправить</button></form>`
  const r = recognizePage(observe(page(`<p>Введите текст с картинки</p>${image}${form('<input name="rep" placeholder="Строчные или прописные буквы">')}`), 200))
  t.equal(r.page_kind, 'challenge', 'its only field answers the image')
  t.equal(r.challenge?.provider, 'generic')
  // Not where the page names its answer box itself, nor a form that has nothing of the CAPTCHA's.
  t.not(recognizePage(observe(page(`<p>Enter the text from the picture</p>${image}${form('<input name="email" type="email"><input name="captcha_code">', '/subscribe')}`), 200)).page_kind, 'challenge', "a newsletter's e-mail field beside its named answer box")
  t.not(recognizePage(observe(page(`<p>Enter the text from the picture</p>${image}${form('<input name="email" type="email">', '/subscribe')}`), 200)).page_kind, 'challenge', 'a form that posts elsewhere and does not hold the image')
})

t.test("a page whose only field answers its CAPTCHA is the CAPTCHA's page, with its help below, up to twice a gate's words", async t => {
  // A portal's own image check explains why it was shown and what to do (Yandex's "Ой!", 261 words).
  const image = '<img class="captcha-image" src="/captchaimg?k=1" alt="">'
  const form = (field = '<input name="rep">'): string => `<form method="get" action="/checkcaptcha">${field}<input type="hidden" name="key" value="1"><button>Отправить</button></form>`
  const help = (sentences: number, why = 'запросы с вашего адреса похожи на автоматические'): string => '<h2>Почему так случилось?</h2><p>' + Array.from({ length: sentences }, (_, i) => `Причина ${i}: ${why}.`).join(' ') + '</p>'
  const captchaPage = ({ extra = '', sentences = 24, field = '<input name="rep">', line = 'Чтобы продолжить, введите символы с картинки в поле ввода.', why = undefined as string | undefined } = {}): string =>
    page(`<h1>Ой!</h1><p>${line}</p>${image}${form(field)}${help(sentences, why)}${extra}`)
  const words = (html: string): number => factsOf({ status: 200, url: 'http://127.0.0.1/page', title: documentTitle(html), html, text: visibleText(html), headers: {} }).words
  const kind = (html: string): string | undefined => recognizePage(observe(html, 200)).page_kind
  t.ok(words(captchaPage()) > 160 && words(captchaPage()) <= 320, `more words than a gate carries, within twice that (${words(captchaPage())})`)
  const r = recognizePage(observe(captchaPage(), 200))
  t.equal(r.page_kind, 'challenge', 'its only field answers the image, whatever else it explains')
  t.equal(r.challenge?.provider, 'generic')
  t.ok(r.challenge?.evidence.includes("shape: a CAPTCHA's page with its help"), 'evidence says why')
  t.ok(r.challenge?.evidence.includes('shape: its only field answers the CAPTCHA'))
  // Up to twice a gate's words, not one sentence more.
  let most = 24
  while (words(captchaPage({ sentences: most + 1 })) <= 320) most++
  t.equal(kind(captchaPage({ sentences: most })), 'challenge', `at ${words(captchaPage({ sentences: most }))} words`)
  t.not(kind(captchaPage({ sentences: most + 1 })), 'challenge', `not at ${words(captchaPage({ sentences: most + 1 }))} words`)
  // As many links as a gate carries, not one more.
  const links = (n: number): string => '<p>' + Array.from({ length: n }, (_, i) => `<a href="/help/${i}">?</a>`).join(' ') + '</p>'
  t.equal(kind(captchaPage({ extra: links(8) })), 'challenge', 'with 8 links of help')
  t.not(kind(captchaPage({ extra: links(9) })), 'challenge', 'not with 9')
  // Not a page with more to it: the site's navigation, an article, a field elsewhere on the page, a second field in the form.
  const nav = '<nav>' + Array.from({ length: 6 }, (_, i) => `<a href="/section/${i}">Раздел ${i}</a>`).join('') + '</nav>'
  t.not(kind(captchaPage({ extra: nav })), 'challenge', "in the site's navigation")
  t.not(kind(captchaPage({ extra: '<article><p>Новости дня.</p></article>' })), 'challenge', 'beside an article')
  t.not(kind(captchaPage({ extra: '<form action="/subscribe"><input name="city"></form>' })), 'challenge', 'with a field elsewhere on the page')
  t.not(kind(captchaPage({ field: '<input name="rep"><input name="email" type="email">' })), 'challenge', 'with a second field in its form')
  // The unnamed box is a plain text box: an e-mail or a code the browser fills in asks for something else.
  t.not(kind(captchaPage({ field: '<input name="rep" type="email">' })), 'challenge', 'an e-mail box')
  t.not(kind(captchaPage({ field: '<input name="rep" autocomplete="one-time-code">' })), 'challenge', 'a one-time code')
  // The image CAPTCHA's own line ("enter the characters in the picture") in the other languages
  // scrapers meet says the same; without such a line the page is a form beside a picture and its help.
  const lines = [
    'Bitte geben Sie die Zeichen aus dem Bild ein.', 'Saisissez les caractères affichés dans l’image.', 'Introduzca los caracteres que ve en la imagen.',
    'Digite os caracteres da imagem.', "Inserisci i caratteri dell'immagine.", '次の画像に表示されている文字を入力してください。',
    '请输入图片中的字符。', '請輸入圖片中的字元。', '이미지에 보이는 문자를 입력하세요.'
  ]
  // The help here gives a reason that asks nothing (a page refreshed too often), so the line alone asks.
  const why = 'так бывает, если очень часто обновлять страницу'
  for (const line of lines) t.equal(kind(captchaPage({ line, why })), 'challenge', line)
  t.not(kind(captchaPage({ line: 'Чтобы продолжить, ответьте в поле ввода.', why })), 'challenge', 'a line that asks nothing of the picture')
})

t.test("Jiasule's JavaScript check is Jiasule's by the cookie its script sets (thirty-first review)", async t => {
  // Nothing but an obfuscated script that computes __jsl_clearance and reloads, answered 521.
  const check = page('', '<script>var x="@@join@@__jsl_clearance@cookie@location@reload".split("@");eval(x.join(""))</script>')
  const r = recognizePage(observe(check, 521))
  t.equal(r.challenge?.provider, 'jiasule', 'at 521')
  t.ok(r.challenge?.evidence.includes('inline script __jsl_clearance (Jiasule)'), 'by its cookie')
  t.equal(provider(check, 200), 'jiasule', 'at 200')
  t.not(recognizePage(observe(page(`<h1>Company records</h1>${PROSE}${PROSE}`, '<script>document.cookie.indexOf("__jsl_clearance")</script>'), 200)).page_kind, 'challenge', 'an ordinary page that reads the cookie')
  // Its edge's header is evidence beside the check, and alone makes nothing a gate: the site's
  // ordinary pages come through the same edge.
  const withHeader = (html: string, status: number): PageObservation => ({ ...observe(html, status), headers: { 'x-via-jsl': '099bae7,-' } })
  t.ok(recognizePage(withHeader(check, 521)).challenge?.evidence.includes('header x-via-jsl'), 'the header is evidence on the check')
  t.equal(recognizePage(withHeader(page(`<h1>Company records</h1>${PROSE}${PROSE}`), 200)).page_kind, 'content', 'an ordinary page through the same edge')
})

t.test("Ruishu's check is Ruishu's by its scripts on a blank page (thirty-seventh review, batch 110)", async t => {
  // A token in a <meta>, the configuration's inline script and the obfuscated script, each marked r="m".
  const scripts = '<meta content="gZLmGrT7oUh66F9BfMPA" r="m"><script type="text/javascript" r=\'m\'>$_ts=window[\'$_ts\'];if(!$_ts)$_ts={};$_ts.nsd=2143;$_ts.cd="qtrqrpAloS3q";</script><script type="text/javascript" src="/tQrlMwxgEtCS/c.FxJzG50F.js" r=\'m\'></script>'
  const check = page('', scripts)
  for (const status of [412, 200]) {
    const r = recognizePage(observe(check, status))
    t.equal(r.page_kind, 'challenge', `at ${status}`)
    t.equal(r.challenge?.provider, 'ruishu', `at ${status}: Ruishu's`)
  }
  t.ok(recognizePage(observe(check, 412)).challenge?.evidence.includes('inline script $_ts.nsd (Ruishu)'), 'by its configuration')
  const newer = page('', '<meta id="9DhefwqGPrzGxEp9hPaoag" content="Lum-j+|jvTj"><script type="text/javascript" src="/4QbVtADbnLVIc/c.FxJzG50F.6152bb9.js" r=\'m\'></script><script type="text/javascript" r=\'m\'>_$Ab();</script>')
  t.equal(provider(newer, 412), 'ruishu', 'a newer version, by its marked scripts alone')
  t.not(recognizePage(observe(page(`<h1>裁判文书</h1>${PROSE}`, scripts), 200)).page_kind, 'challenge', "the site's own page, carrying the same scripts once the cookie is set")
  t.not(recognizePage(observe(page('', '<script src="/app.js"></script>'), 412)).page_kind, 'challenge', 'a blank page without its scripts')
  t.not(provider(newer, 200), 'ruishu', 'its marked scripts alone, neither at 412 nor with its marked token')
  // The site's own pages once the check is passed: an app's shell, a frameset, carrying the scripts.
  t.equal(recognizePage(observe(page('<div id="app"></div><script src="/js/chunk-vendors.4f2a.js"></script><script src="/js/app.9c1e.js"></script>', scripts), 200)).page_kind, 'empty', "an app's shell")
  t.not(recognizePage(observe(page('<iframe src="/main.html" style="width:100%;height:100%"></iframe>', scripts), 200)).page_kind, 'challenge', 'a page that frames another')
})

t.test("a title that says the browser is being checked, over a request to wait, is a check at work however long its list (Knownsec's, batch 110)", async t => {
  const items = ['异常网络链路检查', '浏览器恶意插件检查', '请求执行环境检查', '机器流量检查', '异常请求频率检查', '自动化工具特征检查', '网络代理环境检查', '页面完整性检查', '脚本注入行为检查', '跨站请求伪造检查', '恶意爬虫特征检查', '异常会话状态检查', '设备指纹一致性检查', '访问来源信誉检查'].map(item => `<li>${item}</li>`).join('')
  const check = (title: string, wait: string): string => page(`<h2>浏览器安全检查</h2><p>创宇盾将在您访问前对浏览器访问环境进行安全检查，${wait}</p><ul>${items}</ul><p>如果您对安全防护有疑问，点击进一步了解知道创宇云防御</p><p>当前网址：客户端特征：</p>`, `<title>${title}</title>`)
  t.ok(factsOf(observe(check('x', '请等待 5 秒…'))).words > SHORT_NOTICE_MAX_WORDS, 'longer than a short notice')
  const r = recognizePage(observe(check('知道创宇云防御-浏览器安全检查', '请等待 5 秒…'), 521))
  t.equal(r.page_kind, 'challenge', 'titled so, at 521')
  t.ok(r.challenge?.evidence.includes('shape: its title says the browser is being checked'), 'the title is evidence')
  t.not(recognizePage(observe(check('知道创宇云防御-浏览器安全检查', '检查项目如下。'), 521)).page_kind, 'challenge', 'no request to wait')
  t.not(recognizePage(observe(check('帮助中心', '请等待 5 秒…'), 521)).page_kind, 'challenge', 'the same words under another title')
  t.not(recognizePage(observe(check('浏览器安全检查报告', '报告已收到，请等待审核。'), 200)).page_kind, 'challenge', 'answered as content: a report of the same name')
  const help = page(`<h1>Verifying your browser settings</h1><ol>${Array.from({ length: 7 }, (_, i) => `<li>Step ${i + 1}: open the settings and check that verifying your browser's extensions is turned on for this site.</li>`).join('')}</ol>`, '<title>Verifying your browser settings – Help</title>')
  t.not(recognizePage(observe(help, 404)).page_kind, 'challenge', 'a help page that repeats its title asks no one to wait')
  t.not(recognizePage(observe(page('<p>360浏览器安全检查功能介绍：打开后请等待扫描完成。</p>', '<title>帮助中心</title>'), 200)).page_kind, 'challenge', 'the noun phrase in a short text asks for nothing')
  for (const title of ['正在检查您的浏览器', 'ブラウザを確認しています', '브라우저 확인 중']) {
    t.equal(recognizePage(observe(check(title, '请等待 5 秒…'), 521)).page_kind, 'challenge', title)
  }
})

t.test('short ordinary pages in the words of a check are not gates (twelfth review)', async t => {
  // Each was a gate: a 2xx page of a few lines and one phrase a check says. Answered as content,
  // a short page asks only with something more (its single action, a refresh, nothing else to
  // read); "security check" in any language asks only beside a widget or at a challenge status.
  const titled = (title: string, body: string): string => page(body, `<title>${title}</title>`)
  const ordinary: Array<[string, string]> = [
    [titled('Security Checkup', '<h1>Security Checkup</h1><p>Review your recent sign-ins, connected devices and recovery options to keep your account safe.</p><button>Start checkup</button>'), "an account's security checkup"],
    [titled('Anmeldung bestätigen – Meine Bank', '<h1>Sicherheitsüberprüfung</h1><p>Wir haben eine Push-Nachricht an Ihr Smartphone gesendet. Bitte bestätigen Sie die Anmeldung in der Banking-App.</p><button>Erneut senden</button><a href="/login">Abbrechen</a>'), "a bank's two-step sign-in (German)"],
    [titled('Confirma el acceso', '<h1>Verificación de seguridad</h1><p>Hemos enviado una notificación a tu móvil. Confirma el acceso en la app del banco.</p><button>Reenviar</button>'), "a bank's two-step sign-in (Spanish)"],
    [titled('Подтверждение входа', '<h1>Проверка безопасности</h1><p>Мы отправили уведомление на ваш телефон. Подтвердите вход в приложении банка.</p><button>Отправить снова</button>'), "a bank's two-step sign-in (Russian)"],
    [titled('安全验证', '<h1>安全验证</h1><p>您正在新设备上登录，为保障账号安全，请使用手机App扫描下方二维码确认登录。</p><img src="/qrcode/login?id=8f2a" alt="二维码"><a href="/login">返回登录</a>'), 'a QR-code sign-in confirmation (Chinese)'],
    [titled('セキュリティ確認 | マイページ', '<h1>セキュリティ確認</h1><p>ご登録のメールアドレスに確認用のリンクを送信しました。メール内のリンクをクリックして、ログインを完了してください。</p><a href="/login">ログイン画面に戻る</a>'), 'an email sign-in link (Japanese)'],
    [titled('統一身份认证', '<p>身份验证中，请稍候…</p><p>如果页面长时间没有跳转，请<a href="/sso/login">点击这里</a>。</p>'), 'a single sign-on hand-off (Chinese)'],
    [titled("Why am I asked to confirm I'm not a robot? – Help", "<h1>Why am I asked to confirm I'm not a robot?</h1><p>To protect accounts from automated sign-ups, we sometimes show a checkbox when you create an account from a new network. Ticking it takes a second.</p><p>Was this article helpful?</p><button>Yes</button><button>No</button>"), 'a help article about the check'],
    [titled('Error', '<h2>Human verification failed</h2><p>Your message was not sent. Please go back and try again.</p><a href="javascript:history.back()">Back</a>'), 'a contact form\'s "verification failed"'],
    [titled('Sign-in blocked', "<h1>We blocked suspicious access to your account</h1><p>Someone tried to sign in from a new device. If this wasn't you, change your password now.</p><a href=\"/account/password\">Change password</a>"), "an account's suspicious sign-in"],
    [titled('Account temporarily locked', '<h1>Account temporarily locked</h1><p>We noticed unusual activity from your account, so we locked it to keep it safe.</p><a href="/reset">Reset password</a>'), "an account's unusual activity"],
    [titled('Daily Jigsaw', "<h1>Solve the puzzle!</h1><p>Drag the pieces into place. Today's picture: Lighthouse at dawn, 48 pieces.</p><canvas id=\"board\"></canvas><button>Shuffle</button>"), 'a jigsaw game'],
    [titled('Défi du jour', '<h1>Résolvez le défi du jour !</h1><p>Trouvez le mot de cinq lettres en six essais.</p><button>Commencer</button>'), 'a word game (French)'],
    [titled('Safety policy', '<h1>Workplace safety policy</h1><p>Please complete the test below to confirm you have read and understood the policy.</p><form method="post" action="/quiz"><label><input type="radio" name="q1"> Car park</label><button>Submit answers</button></form>'), "a course's quiz"],
    [titled('Dashboard login loop – Status', '<h1>Dashboard login loop</h1><p>Investigating – Some visitors are stuck on a "Checking your browser" screen when opening the dashboard. We are working with our CDN provider on a fix.</p><a href="/subscribe">Subscribe</a>'), 'a status page quoting the words'],
    [titled('Service check – Broadband', '<h1>Service check</h1><p>Please wait while we check your connection. This can take up to 30 seconds; do not close this page.</p><a href="/help/outages">Known outages</a>'), "an ISP's line check"],
    [titled("Video won't play – Help", '<h1>The video player does not load</h1><p>A third-party browser plugin, such as Ghostery or NoScript, may be preventing JavaScript from running. Allow scripts for this site and reload the page.</p><a href="/help">All help articles</a>'), "a help article naming Distil's plugins"]
  ]
  for (const [html, name] of ordinary) t.not(recognizePage(observe(html, 200)).page_kind, 'challenge', name)
  // The same words still ask where a check says them: at a challenge status, beside a widget, or
  // on a page with nothing else to read.
  t.equal(recognizePage(observe(titled('Проверка безопасности', '<h1>Проверка безопасности</h1><p>Мы проверяем ваш браузер.</p>'), 403)).page_kind, 'challenge', 'a security check answered 403 (Russian)')
  t.equal(recognizePage(observe(titled('Security check', '<h1>Security check</h1><div class="g-recaptcha" data-sitekey="x"></div>') + '<script src="https://www.google.com/recaptcha/api.js"></script>', 200)).page_kind, 'challenge', 'a security check beside its widget')
  t.equal(recognizePage(observe(titled('滑动验证页面', '<p>TraceID: ac11000117719141</p>'), 200)).page_kind, 'challenge', 'a title that asks over a trace id')
  t.equal(recognizePage(observe(titled('Quick check', '<h1>Please solve this puzzle to continue</h1><button>Start</button>'), 200)).page_kind, 'challenge', 'a puzzle to continue')
  t.equal(recognizePage(observe(titled('One moment', '<p>Please wait while we verify that your connection is secure.</p>'), 503)).page_kind, 'challenge', "Cloudflare's words for the connection check")
})

t.test('an element a stylesheet class hides is not on show (twelfth review)', async t => {
  // VK's check keeps a close button with class "hidden" beside its one "Продолжить": one action.
  const vk = page('<h1>Проверяем, что вы не робот</h1><button class="start" type="button">Продолжить</button><button class="close-button hidden" type="button">Закрыть</button>', '<title>Проверяем, что вы не робот</title>')
  t.ok(gateShape(factsOf(observe(vk, 200))).signals.includes('shape: a single action'))
  t.equal(recognizePage(observe(vk, 200)).page_kind, 'challenge')
  // A responsive class shows it again on a wider screen: two actions there.
  const responsive = page('<h1>Are you a robot?</h1><button>Yes</button><button class="hidden md:block">No</button>', '<title>Check</title>')
  t.notOk(gateShape(factsOf(observe(responsive, 200))).signals.includes('shape: a single action'))
})

t.test("what only looks like a check's widget, mark or page is not one (twelfth review)", async t => {
  const titled = (title: string, body: string, head = ''): string => page(body, `<title>${title}</title>${head}`)
  const ordinary: Array<[string, number, string]> = [
    [titled('Confirm payment – Checkout', '<h1>Confirm your payment</h1><p>Your bank asks you to confirm this payment of €42.90.</p><iframe src="https://acs.bank.test/3ds2/challenge?id=8a88" width="400" height="500"></iframe><a href="/checkout">Cancel</a>'), 200, "a bank's 3-D Secure frame"],
    [titled('Week 3: FizzBuzz', '<h1>Week 3 exercise: FizzBuzz</h1><p>Write your solution in the editor below and press Run.</p><iframe src="https://www.hackerrank.com/challenges/fizzbuzz/problem?embed=1"></iframe><a href="/week-2">Previous</a>'), 200, "a coding exercise's frame"],
    [titled('Plank Challenge', '<div class="challenge-container"><h1>30-day plank challenge</h1><p>Day 12 of 30. Today: hold for 2 minutes.</p><button>Mark as done</button></div><a href="/challenges">All challenges</a>'), 200, "a fitness challenge's container"],
    [titled('Front desk', '<h1>Front desk</h1><div class="device turnstile"><h2>Main entrance</h2><p>Status: online.</p><button>Open once</button></div><a href="/devices">All devices</a>'), 200, "a gym's entry turnstile"],
    [titled('Spam protection – Help', '<h1>Turning on spam protection</h1><p>Open Settings, then Forms, and switch on spam protection.</p><img src="/help/img/captcha-settings.png" alt="Settings screen"><a href="/help">All help articles</a>'), 200, 'a help screenshot named captcha'],
    [titled('Thank you', '<h1>Thank you!</h1><p>Your message has been sent. We will reply within two working days.</p><a href="/">Back to home</a>', '<noscript><meta http-equiv="refresh" content="0;url=/nojs.html"></noscript>'), 200, "a thank-you page with its template's no-JavaScript fallback"],
    [titled('30-day plank challenge', '<h1>Join the 30-day plank challenge</h1><p>Start on Monday with 20 seconds.</p><form id="challenge-form" method="post"><input type="email" name="email"><button>Join</button></form>'), 200, 'a sign-up form called challenge-form'],
    [titled('Payment failed', '<h1>Payment failed</h1><p>Your payment was rejected by the card issuer. Please quote your support ID: 2024061512345678901.</p><a href="/checkout">Try another card</a>'), 200, "a payment failure's long support id"],
    [titled('Sign in', '<h1>Sign in</h1><form method="post" action="/login"><md-outlined-text-field label="Email" name="email" type="email"></md-outlined-text-field><md-outlined-text-field label="Password" name="password" type="password"></md-outlined-text-field><div class="g-recaptcha" data-sitekey="x"></div><md-filled-button type="submit">Sign in</md-filled-button></form>', '<script src="https://www.google.com/recaptcha/api.js"></script>'), 200, "a sign-in of a design system's fields beside reCAPTCHA"],
    [titled('Just a moment...', "<h1>We're upgrading our servers</h1><p>The shop will be back in a few minutes.</p>"), 503, 'a maintenance page titled "Just a moment..."'],
    [titled('Down for maintenance', "<h1>We'll be back soon</h1><p>Acme is down for scheduled maintenance until 02:00 UTC. Thank you for your patience.</p>", '<script src="https://abc.edge.sdk.awswaf.com/abc/def/challenge.js" defer></script>'), 503, "a maintenance page carrying AWS WAF's SDK"],
    [titled('Members only', '<h1>Members only</h1><p>This board is only visible to signed-in members.</p><a href="/login">Sign in</a>', '<script src="https://check.ddos-guard.net/check.js"></script>'), 403, "a members-only refusal carrying DDoS-Guard's script"]
  ]
  for (const [html, status, name] of ordinary) t.not(recognizePage(observe(html, status)).page_kind, 'challenge', name)
  t.equal(recognizePage(observe(titled('Too Many Requests', '<h1>Too many requests</h1><p>You have sent too many requests in a short time. Please wait a minute and try again.</p>'), 200)).page_kind, 'denied', 'a rate limit served with 200 is a denial, not content')
})

t.test('checks the twelfth review found missed are gates', async t => {
  const titled = (title: string, body: string, head = ''): string => page(body, `<title>${title}</title>${head}`)
  const hiddenForm = (label: string): string => `<form method="post" action="/__check"><input type="hidden" name="t" value="a81f"><button>${label}</button></form>`
  const gates: Array<[string, number, string]> = [
    [titled('Quick check', `<h1>Please confirm that you are not a bot</h1><p>We need to make sure requests come from people.</p>${hiddenForm('I am not a bot')}`), 200, '"confirm that you are not a bot"'],
    [titled('Kurze Prüfung', `<h1>Bitte bestätigen Sie, dass Sie kein Bot sind</h1>${hiddenForm('Weiter')}`), 200, 'German "kein Bot"'],
    [titled('Проверка', `<h1>Подтвердите, что вы не бот</h1>${hiddenForm('Продолжить')}`), 200, 'Russian "не бот"'],
    [titled('Weryfikacja', `<h1>Potwierdź, że nie jesteś robotem</h1>${hiddenForm('Dalej')}`), 200, 'Polish "nie jesteś robotem"'],
    [titled('访问确认', `<h1>请确认您不是机器人</h1>${hiddenForm('继续')}`), 200, 'Chinese "不是机器人"'],
    [titled('アクセス確認', `<h1>ロボットではないことを確認してください</h1>${hiddenForm('続行')}`), 200, 'Japanese "ロボットではないこと"'],
    [titled('请稍候…', '<p>正在验证您是否是真人。这可能需要几秒钟时间。</p>'), 403, "Cloudflare's words in Chinese, no vendor mark"],
    [titled('Bir dakika lütfen...', '<h1>İnsan olduğunuz doğrulanıyor</h1><p>Bu işlem birkaç saniye sürebilir.</p>'), 200, 'Turkish "verifying you are human", answered 200'],
    [titled('접속 확인', '<h1>사람인지 확인하고 있습니다</h1><p>잠시 후 자동으로 이동합니다.</p>'), 200, 'Korean "checking you are a person", answered 200'],
    [titled('لحظة من فضلك...', '<p>جارٍ التحقق مما إذا كنت إنسانًا. قد يستغرق هذا بضع ثوانٍ.</p>'), 403, 'Arabic "checking whether you are human"'],
    [titled('Access check', '<h1>Before you continue</h1><p>Press and hold the button until the bar is full.</p><div id="hold-button" role="button">Press and hold</div>', '<script src="/assets/hold.js"></script>'), 403, "a site's own press and hold"],
    [titled('One more step', `<h1>One more step</h1><p>Please click the button below to continue to example.com.</p>${hiddenForm('Continue')}`), 403, '"one more step" answered 403']
  ]
  for (const [html, status, name] of gates) t.equal(recognizePage(observe(html, status)).page_kind, 'challenge', name)
  // "One more step" at 200 is a sign-up's last page.
  t.not(recognizePage(observe(titled('One more step', '<h1>One more step</h1><p>Choose a username to finish signing up.</p><a href="/profile">Set up profile</a>'), 200)).page_kind, 'challenge', 'a sign-up\'s "one more step"')
})

t.test('a short check answered 200 is still a gate, whatever its one thing to do (thirteenth review)', async t => {
  // After the twelfth review a short 2xx page needs its one action, a refresh, nothing else to
  // read, or words that it is at work: each of these was missed that way.
  const titled = (title: string, body: string, head = ''): string => page(body, `<title>${title}</title>${head}`)
  const gates: Array<[string, string]> = [
    [titled('Check', '<h1>Are you a robot?</h1><p>Drag the slider all the way to the right to continue.</p><div id="slide-track"></div>', '<script src="/static/js/slide.js"></script>'), 'a slider its script draws'],
    [titled('访问验证', '<h2>访问验证</h2><p>请按住滑块，拖动到最右边</p><div id="slide-box"></div>'), 'a slider (Chinese)'],
    [titled('Check', '<h1>Please confirm you are not a robot</h1><form method="post" action="/_check"><input type="hidden" name="t" value="a8"><label><input type="checkbox" name="human"> I\'m not a robot</label></form>'), 'a box to tick'],
    [titled('Check', '<h1>Please confirm that you are not a bot</h1><p><a href="/_verify?t=a81f">Click here to continue</a></p>'), 'a link on through the check'],
    [titled('Check', '<h1>Prove you are human</h1><a class="btn btn-primary" role="button" href="/verify?token=a8">Verify</a>'), 'a link styled as a button'],
    [titled('Einen Moment bitte…', '<p>Wir prüfen, ob Sie ein Mensch sind</p><p>Sie werden in 5 Sekunden automatisch weitergeleitet.</p>'), 'a countdown (German)'],
    [titled('Un momento…', '<p>Stiamo verificando che tu non sia un robot</p><p>Verrai reindirizzato tra 5 secondi.</p>'), 'a countdown (Italian)'],
    [titled('Controle', '<h1>Bevestig dat je geen robot bent</h1><form method="post"><input type="hidden" name="t"><button>Doorgaan</button></form>'), 'Dutch'],
    [titled('Ověření', '<h1>Potvrďte, že nejste robot</h1><form method="post"><input type="hidden" name="t"><button>Pokračovat</button></form>'), 'Czech'],
    [titled('Перевірка', '<h1>Підтвердіть, що ви не бот</h1><form method="post"><input type="hidden" name="t"><button>Продовжити</button></form>'), 'Ukrainian'],
    [titled('Queue', "<h1>You're in the queue</h1><p>Your place in line: <strong>1,482</strong>. Estimated wait: 6 minutes.</p>", '<meta http-equiv="refresh" content="20">'), "a site's own waiting room"]
  ]
  for (const [html, name] of gates) t.equal(recognizePage(observe(html, 200)).page_kind, 'challenge', name)
  t.equal(recognizePage(observe(titled('Slow down', '<h1>Rate limit exceeded</h1><p>Please try again in a minute.</p>'), 200)).page_kind, 'denied', 'a rate limit in other words')
})

t.test('ordinary pages the thirteenth review built are not gates', async t => {
  const titled = (title: string, body: string, head = ''): string => page(body, `<title>${title}</title>${head}`)
  const ordinary: Array<[string, string]> = [
    [titled('Security check', '<h1>Security check</h1><p>One moment – we sent a notification to your phone. Approve the sign-in in the app to continue.</p>'), 'a sign-in that starts "One moment"'],
    [titled('Chat', "<p>Hi, this is Anna from support. I'm not a bot! Please wait while I look at your order.</p>"), "a chat agent's \"I'm not a bot\""],
    [titled('Message sent', '<h1>Human verification passed</h1><p>Thanks, your message was sent. You will be redirected to the home page.</p>'), 'a verification that passed'],
    [titled('Set up your plug', '<h1>Pair your smart plug</h1><p>Press and hold the button until the light blinks blue.</p><button>Next</button>'), "a device's pairing step"],
    [titled("I'm Not a Robot – Short film", "<h1>I'm Not a Robot</h1><p>A music producer fails a series of CAPTCHA tests. 22 min.</p><button>Watch now</button>"), 'a film of that name'],
    [titled('Get verified', "<h1>Confirm you're a real person</h1><p>Take a quick video selfie so we can match it to your profile photos.</p><button>Start verification</button>"), "a dating app's selfie check"],
    [titled('人脸验证', '<p>人脸验证中，请稍候…</p>'), 'a face check (Chinese)'],
    [titled('Sign-in blocked', '<h1>We blocked suspicious access to your account</h1><p>Redirecting you to your account settings…</p>'), 'an account notice on its way']
  ]
  for (const [html, name] of ordinary) t.not(recognizePage(observe(html, 200)).page_kind, 'challenge', name)
  // A request that tells a person to tick the box still asks.
  t.equal(recognizePage(observe(titled('Check', '<p>Click "I\'m not a robot" to continue.</p><div class="g-recaptcha" data-sitekey="x"></div>', '<script src="https://www.google.com/recaptcha/api.js"></script>'), 200)).page_kind, 'challenge')
})

t.test("a site's own check in its own layout, a CAPTCHA-only form, and scripts that send a check back to itself (held-out misses, mended)", async t => {
  // Douban's shape: a site header of divs named "global-nav" and "nav" with many links and a search
  // box, and under it a line asking for proof of a person and a button that opens Tencent's
  // CAPTCHA (its script on the page, its puzzle drawn after the click), answered 403.
  const header = '<div id="db-global-nav" class="global-nav">' + Array.from({ length: 12 }, (_, i) => `<a href="/s${i}">Section ${i}</a>`).join(' ') +
    '<form action="/search"><input name="q"><input type="submit" value="Search"></form></div>'
  const footer = '<div id="footer"><a href="/about">About</a> <a href="/help">Help</a> © 2025 the site</div>'
  const check = (button: string, loader = '<script src="https://turing.captcha.qcloud.com/TCaptcha.js"></script>'): string =>
    page(header + '<div id="content"><p>Hm… you visit the site like a robot program. To protect our users\' data, please prove you are human:</p>' +
      `<form method="POST" action="/misc/sorry"><input type="hidden" name="ticket">${button}</form></div>` + footer, '<title>Forbidden</title>' + loader)
  t.equal(recognizePage(observe(check('<button id="tcaptcha_btn" type="button">Click to prove it</button>'), 403)).page_kind, 'challenge', "a button that opens a vendor's CAPTCHA, under the site's header")
  t.not(recognizePage(observe(check('<button id="tcaptcha_btn" type="button">Click to prove it</button>', ''), 403)).page_kind, 'challenge', "a button merely named so, without the vendor's script, opens nothing")
  // The regional vendors whose loaders' addresses do not say "captcha".
  for (const loader of ['https://v.vaptcha.com/v3.js', 'https://cdn.dingxiang-inc.com/ctu-group/captcha-ui/index.js', 'https://castatic.fengkongcloud.cn/pr/auto-build/v1.0.3-100/sdk.js', 'https://cdn.captchafox.com/api.js', 'https://widget.arcaptcha.ir/1/api.js']) {
    t.equal(recognizePage(observe(check('<button id="captcha-btn" type="button">Click to prove it</button>', `<script src="${loader}"></script>`), 403)).page_kind, 'challenge', loader)
  }
  for (const other of ['https://cdn.example.com/sdk.js', 'https://cdn.dingxiang-inc.com/ctu-group/constid-js/index.js']) {
    t.not(recognizePage(observe(check('<button id="captcha-btn" type="button">Click to prove it</button>', `<script src="${other}"></script>`), 403)).page_kind, 'challenge', `${other} opens nothing`)
  }
  t.not(recognizePage(observe(check('<button class="g-recaptcha" data-sitekey="x" type="submit">Send</button>', '<script src="https://www.google.com/recaptcha/api.js"></script>'), 200)).page_kind, 'challenge',
    'a submit button bound to an invisible reCAPTCHA shows nothing to solve')
  const signIn = page(header + '<form action="/login"><input name="user"><input type="password" name="pass"><img src="/captcha.gif"><input name="captcha">' +
    '<button id="captcha-refresh" type="button">New image</button><button>Sign in</button></form>' + footer, '<title>Sign in</title><script src="/js/captcha.js"></script>')
  t.equal(recognizePage(observe(signIn)).page_kind, 'content', "a sign-in form with an image CAPTCHA and its renew button is content")

  // A page whose only field is the CAPTCHA's answer, beside the CAPTCHA, with little else, even
  // at 200 and a little longer than a short notice (the Polish procurement site's "Validation request").
  const notes = '<ul>' + Array.from({ length: 8 }, (_, i) => `<li>Note ${i}: if you get here while sending a form, send it again.</li>`).join('') + '</ul>'
  const imageCheck = (form: string): string => page('<h3>User validation required to continue</h3><p><img src="/captcha.gif"></p>' + form + notes, '<title>Validation request</title>')
  t.equal(recognizePage(observe(imageCheck('<form action="/captcha_resp" method="POST"><input type="text" name="captcha_resp_txt"><input type="submit" value="Submit"></form>'))).page_kind, 'challenge',
    "nothing to type but the CAPTCHA's answer")
  t.equal(recognizePage(observe(imageCheck('<form action="/comment" method="POST"><textarea name="comment"></textarea><input type="text" name="captcha"><input type="submit" value="Post"></form>'))).page_kind, 'content',
    'a comment form with a CAPTCHA is content')

  // The same in Chinese, its image and answer named "seccode", its "another picture" and "submit"
  // links that run script (Sogou's anti-spider page, thirty-third review), under a header of eight
  // links that go somewhere, and longer than a short notice (a short one with nothing else is a
  // gate by its shape alone, as the same page in English is), so that what it asks decides.
  const links = Array.from({ length: 8 }, (_, i) => `<a href="/help/${i}">帮助 ${i}</a>`).join(' ')
  const seccode = (ask: string, img: string): string => page(`<div class="header">${links}</div><p>用户您好，${ask}</p>` +
    `<form id="seccodeForm" method="POST" action="/">验证码：${img}<input type="text" name="c" id="seccodeInput" placeholder="请输入验证码">` +
    '<a href="javascript:void(0);" id="change-img">换一张</a><a href="javascript:void(0);" id="submit">提交</a></form>' +
    `<p>${'访问时间记录在此。'.repeat(16)}</p>`, '<title>搜狗搜索</title>')
  t.ok(factsOf(observe(seccode('欢迎光临本店，请留言。', '<img src="/a.png">'))).words > SHORT_NOTICE_MAX_WORDS, 'longer than a short notice')
  const sogouAsk = '您的访问过于频繁，为确认本次访问为正常用户行为，需要您协助验证。'
  const sogouImg = '<img id="seccodeImage" src="util/seccode.php?tc=1500993379" alt="请输入图中的验证码">'
  const sogou = recognizePage(observe(seccode(sogouAsk, sogouImg)))
  t.equal(sogou.page_kind, 'challenge', "a Chinese check whose only field answers its image")
  t.ok(sogou.challenge?.evidence.includes("shape: its only field answers the CAPTCHA"), 'the seccode field is the answer')
  t.equal(recognizePage(observe(seccode(sogouAsk, '<img id="codeImage" src="util/code.php" alt="请输入图中的验证码">'))).page_kind, 'challenge', 'an image described as a CAPTCHA')
  t.equal(recognizePage(observe(seccode('需要您协助验证。', sogouImg))).page_kind, 'challenge', '"we need your help to verify"')
  t.equal(recognizePage(observe(seccode('为确认本次访问为正常用户行为，请输入下图中的字符。', sogouImg))).page_kind, 'challenge', '"to confirm this visit is a normal user\'s"')
  t.not(recognizePage(observe(seccode('欢迎光临本店，请留言。', sogouImg))).page_kind, 'challenge', 'the same form under a greeting asks nothing')
  t.not(recognizePage(observe(seccode(sogouAsk, '<img id="logoImage" src="util/logo.png" alt="搜狗">'))).page_kind, 'challenge', 'a logo is no CAPTCHA image')
  t.not(recognizePage(observe(seccode(sogouAsk, sogouImg).replaceAll('javascript:void(0);', '/next'))).page_kind, 'challenge', 'with ten links that go somewhere, it is a page of its own')

  // Quiet pages whose script sends them back to their own address with a mark. The host follows
  // such a script at once, so a fetch ends on one only when the check sent the browser back.
  const url = 'https://stocks.example/tw/StockDetail.asp?STOCK_ID=2317'
  const goodinfo = "<!DOCTYPE html><html><head><title></title><script>setCookie('CLIENT_KEY', '2.2|' + String(Date.now()), 7, '/');</script></head><body></body>" +
    "<script>setTimeout(function(){ window.location.replace('StockDetail.asp?STOCK_ID=2317&REINIT=46134.77'); }, 500);</script></html>"
  t.equal(recognizePage(observe(goodinfo, 200, url)).page_kind, 'challenge', 'sets a cookie and comes back to itself with a mark')
  const token = "<html><head><title>Loading...</title></head><body><script>window.location.replace('https://stocks.example/v/nike?ch=1&js=eyJhbGciOi.eyJhdWQi.SHXEAH&sid=caca');</script></body></html>"
  t.equal(recognizePage(observe(token, 200, 'https://stocks.example/v/nike')).page_kind, 'challenge', 'comes back to itself with a signed token')
  t.not(recognizePage(observe(token, 200, 'https://stocks.example/v/adidas')).page_kind, 'challenge', 'a quiet page that sends the browser elsewhere is a redirect')
  // A fetch that followed the check once ends on an address that carries the old mark: a new
  // value is a mark too (fourteenth review). The very same address is none.
  t.equal(recognizePage(observe(token, 200, 'https://stocks.example/v/nike?ch=1&js=old&sid=caca')).page_kind, 'challenge', 'a new value for the mark it carries')
  t.not(recognizePage(observe(token, 200, 'https://stocks.example/v/nike?ch=1&js=eyJhbGciOi.eyJhdWQi.SHXEAH&sid=caca')).page_kind, 'challenge', 'the same address and query is no mark')
  const search = (query: string): string => `<html><head><title>Loading...</title></head><body><script>window.location.search = '${query}';</script></body></html>`
  t.equal(recognizePage(observe(search('?ch=1&js=eyJhbGciOi.eyJhdWQi.SHXEAH'), 200, 'https://stocks.example/v/nike')).page_kind, 'challenge', 'a token set as its own query')
  t.not(recognizePage(observe(search('lang=en-GB'), 200, 'https://stocks.example/v/nike')).page_kind, 'challenge', 'a locale set as its own query is no mark')
  const locale = "<html><head><title>Loading...</title></head><body><script>window.location.replace('/v/nike?lang=en-GB&currency=GBP');</script></body></html>"
  t.not(recognizePage(observe(locale, 200, 'https://stocks.example/v/nike')).page_kind, 'challenge', 'a locale added to its own address is no mark')
  const app = '<html><head><title>Loading...</title><script src="/static/app.8f2a.js"></script></head><body><div id="root"></div>' +
    "<script>window.location.replace('/v/nike?lang=en')</script></body></html>"
  t.not(recognizePage(observe(app, 200, 'https://stocks.example/v/nike')).page_kind, 'challenge', "an app's shell adding a language to its address")
  // A refresh to the page's own address is a refresh, as one without an address is.
  const waitingRoom = (refresh: string): string => page("<h1>You're in the queue</h1><p>Your place in line: <strong>1,482</strong>.</p>", `<title>Queue</title><meta http-equiv="refresh" content="${refresh}">`)
  t.equal(recognizePage(observe(waitingRoom('30; url=https://shop.example/drop?id=7'), 200, 'https://shop.example/drop?id=7')).page_kind, 'challenge', 'a refresh to its own address')
  t.not(recognizePage(observe(waitingRoom('30; url=https://shop.example/drop?id=8'), 200, 'https://shop.example/drop?id=7')).page_kind, 'challenge', 'another query is another page (fourteenth review)')
  t.not(recognizePage(observe(waitingRoom('30; url=https://shop.example/home'), 200, 'https://shop.example/drop')).page_kind, 'challenge', 'a refresh to another page is a redirect')
})

t.test("a vendor's own name for its CAPTCHA is a widget's, and a parked domain's router is no cookie check (batch 27)", async t => {
  // Taobao's "access restricted" page: Alibaba's older noCaptcha slider in a container named
  // "nocaptcha", its script from /sd/ncpc/, a short request to verify, answered 200.
  const slider = page('<p>亲，慢慢来，请先坐下来喝口水！我们马上回来。为保证您的正常访问，请进行验证：</p><div id="nocaptcha" class="nc-container"></div>' +
    '<form id="nc-verify-form" action="/nc_verify_v3.php"><input type="hidden" name="nc_token" value="1e41"></form>' +
    '<script src="https://g.alicdn.com/sd/ncpc/nc.js?t=2018102018"></script>', '<title>亲，访问受限了</title>')
  t.equal(provider(slider), 'alibaba', "a container named for the vendor's CAPTCHA, on a short page")
  t.not(recognizePage(observe(page(PROSE + '<div class="nocaptcha-note">No CAPTCHA needed for members.</div>'))).page_kind, 'challenge', 'an article with such a name is content')

  // A lapsed domain's parking page: blank, titled "Redirecting...", its script asks a router on
  // another site where to go, sets a cookie and reloads by its answer.
  const router = '<html><head><title>Redirecting...</title></head><body><script>const o=new XMLHttpRequest;o.open("POST","https://router.parking.example/SOCKS5",!0);' +
    'o.onload=function(){document.cookie="m6RW=1;max-age=5";location.reload()};o.send()</script></body></html>'
  t.not(recognizePage(observe(router, 200, 'https://lapsed.example/SOCKS5')).page_kind, 'challenge', "a router on another site decides: no cookie check")
  const check = '<html><head><title>Redirecting...</title></head><body><script>fetch("/cdn/probe").then(function(){document.cookie="m6RW=1;max-age=5";location.reload()})</script></body></html>'
  t.equal(recognizePage(observe(check, 200, 'https://lapsed.example/SOCKS5')).page_kind, 'challenge', 'the same on its own site is a cookie check')
})

t.test('ordinary pages the fourteenth review built against the newest rules are not gates', async t => {
  const recaptcha = '<script src="https://www.google.com/recaptcha/api.js?render=6LcX"></script>'
  const pages: Array<[string, number, string, string]> = [
    [page('<h1>Thank you!</h1><p>Your order has been placed.</p><div class="grecaptcha-badge" data-style="bottomright"></div>', `<title>Thank you</title>${recaptcha}`), 200, 'https://shop.example/thank-you', "reCAPTCHA v3's badge on a thank-you page"],
    [page('<h1>Message sent</h1><p>We will answer within a day.</p><div id="pnlCaptcha"></div>', '<title>Contact</title>'), 200, 'https://shop.example/contact', "an ASP.NET form's empty CAPTCHA panel"],
    [page('<h1>ubuntu-24.04-desktop-amd64.iso</h1><p>Size: 5.7 GB.</p><button id="recaptcha-download" class="btn btn-primary">Download</button>', '<title>Download ubuntu</title><script src="https://www.google.com/recaptcha/api.js"></script>'), 200, 'https://files.example/d/abc', 'a download button bound to an invisible reCAPTCHA'],
    [page('<h2>Cause List</h2>' + PROSE.slice(0, 500) + '</p><form method="post" action="/causelist"><select name="bench"><option>Jaipur</option></select><input type="date" name="listdate">' +
      '<img id="captchaImage" src="/causelist/captcha.php" alt="captcha"><input type="text" name="captcha"><button type="submit">Show list</button></form>', '<title>Cause List – High Court</title>'), 200, 'https://hc.example/causelist', 'a search with a list and a date beside its CAPTCHA'],
    [page('<div class="site-header">' + Array.from({ length: 25 }, (_, i) => `<a href="/p${i}">Our seasonal dishes, part ${i}</a>`).join(' ') + '</div><div class="post"><h1>Our spring menu</h1><p>Fresh peas and wild garlic from Tuesday.</p></div>' +
      '<div class="comments"><h3>Comments</h3><p>To keep spam out, please verify you are human before commenting.</p><div class="g-recaptcha" data-sitekey="6Lc"></div><button id="show-comment-form">Write a comment</button></div>',
    "<title>Our spring menu – Luigi's blog</title><script src=\"https://www.google.com/recaptcha/api.js\"></script>"), 200, 'https://luigis.example/blog/spring-menu', "a blog post's comment box under a header of divs"],
    ['<html><head><title>Searching flights…</title></head><body><p>Loading...</p><script>setTimeout(function(){ location.href = "/flights/LHR-JFK?sid=7c9e6679742540de944be07fc1f2d180"; }, 3000)</script></body></html>', 200, 'https://travel.example/flights/LHR-JFK', 'a search that moves on after a wait a person sees'],
    ['<html><head><title>Signing you in</title></head><body><script>if(!location.hash){window.location.replace("/auth/callback?error=missing_fragment_token")}</script></body></html>', 200, 'https://app.example/auth/callback', "an OAuth callback's error branch"],
    ['<html><head><title></title></head><body><script>document.cookie="cookietest=1"; location.href="/login?c=1"</script></body></html>', 200, 'https://app.example/login', 'a cookie-support test']
  ]
  for (const [html, status, url, name] of pages) t.not(recognizePage(observe(html, status, url)).page_kind, 'challenge', name)
  // A cookie check that names the SVG namespace, or builds its address from its own host, still asks no other site.
  const svg = '<html><head><title></title></head><body><script>const e=document.createElementNS("http://www.w3.org/2000/svg","svg");fetch(`https://${location.host}/probe`).then(function(){document.cookie="fp=" + e.tagName;location.reload()})</script></body></html>'
  t.equal(recognizePage(observe(svg, 200, 'https://shop.example/item')).page_kind, 'challenge', "a cookie check's own namespace and host")
})

t.test("a site's own check under a header named otherwise, opened by a link, or with NetEase's CAPTCHA (fourteenth review)", async t => {
  const check = (header: string, opener: string, loader: string): string => page(
    `<div class="${header}">` + Array.from({ length: 14 }, (_, i) => `<a href="/s${i}">Section number ${i} of the site</a>`).join(' ') + '</div>' +
    `<div id="content"><p>Your visits look like a robot program's. To protect our users, please prove you are human:</p>${opener}</div>` +
    '<div class="footer"><a href="/about">About</a> © 2025</div>', `<title>Forbidden</title><script src="${loader}"></script>`)
  const tencent = 'https://turing.captcha.qcloud.com/TCaptcha.js'
  t.equal(recognizePage(observe(check('gnb', '<button id="tcaptcha_btn" type="button">Prove it</button>', tencent), 403)).page_kind, 'challenge', "a Korean site's gnb header")
  t.equal(recognizePage(observe(check('topnav', '<a id="TencentCaptcha" href="#">Prove it</a>', tencent), 403)).page_kind, 'challenge', 'an opener that is a link')
  t.equal(recognizePage(observe(check('l-header', '<button class="btn-captcha">Prove it</button>', 'https://cstaticdun.126.net/load.min.js'), 403)).page_kind, 'challenge', "NetEase Yidun's CAPTCHA")
  t.not(recognizePage(observe(check('gnb', '<a class="captcha-help" href="/help/captcha">What is this?</a>', 'https://www.google.com/recaptcha/api.js'), 200)).page_kind, 'challenge', "a help link named for reCAPTCHA at 200 opens nothing")
})

t.test("a site's own CAPTCHA in its full layout, and a cookie its script decrypts (batch 28)", async t => {
  // Anjuke's check: a header dense with city links, the title asking, 58.com's own CAPTCHA drawn
  // into a container named for it by a script named for it, answered 200.
  const cities = '<div id="header">' + Array.from({ length: 60 }, (_, i) => `<a href="/city${i}">City number ${i} listings</a>`).join(' ') + '</div>'
  const own = (title: string, box: string, script: string): string => page(cities + `<div id="content"><p>系统检测到您正在使用网页抓取工具访问安居客网站，请卸载删除后访问。</p><form id="captchaForm" method="post" action="#">${box}</form></div>` +
    '<div id="footer"><a href="/about">About</a> © 2024</div>', `<title>${title}</title><script src="//cdn.example.cn/resource/captcha/js/isd_captcha_v20210125.js"></script>${script}`)
  t.equal(recognizePage(observe(own('访问验证-安居客', '<div id="ISDCaptcha"></div>', ''))).page_kind, 'challenge', "a container named for the site's own CAPTCHA, its title asking")
  t.not(recognizePage(observe(own('二手房-安居客', '<div id="ISDCaptcha"></div>', ''))).page_kind, 'challenge', 'the same container where nothing asks is a form kept for later')
  t.not(recognizePage(observe(own('访问验证-安居客', '<div id="ISDbox"></div>', ''))).page_kind, 'challenge', 'no container named for a CAPTCHA: nothing drawn to solve')

  // nginx's testcookie module: a blank page on a free host, and Google's Project Shield.
  const aes = 'function toNumbers(d){var e=[];d.replace(/(..)/g,function(d){e.push(parseInt(d,16))});return e}var a=toNumbers("ca93"),b=toNumbers("7f42"),c=toNumbers("9bb0");'
  const freeHost = `<html><body><script src="/aes.js"></script><script>${aes}document.cookie="__test="+toHex(slowAES.decrypt(c,2,a,b))+"; path=/"; location.href="http://site.example/?i=1";</script>` +
    '<noscript>This site requires Javascript to work, please enable Javascript in your browser</noscript></body></html>'
  t.equal(recognizePage(observe(freeHost, 200, 'http://site.example/')).page_kind, 'challenge', "a free host's testcookie check")
  const shield = '<html><body><div><img src="https://storage.googleapis.com/ddos-shield.appspot.com/shield-logo.svg" alt="Project Shield Logo"><p>You will be connected to <b>news.example</b> in just a moment...</p>' +
    `<p><a href="https://g.co/shield">Learn about Project Shield</a></p></div><script>${aes}document.cookie="STC="+toHex(slowAES.decrypt(c,2,a,b))+"; path=/";location.href="https://news.example/a?sckattempt=1";</script></body></html>`
  t.equal(provider(shield), 'google', "Project Shield's check is Google's")
  const consent = '<html><body><p>Saving your choice…</p><script>document.cookie="consent=all; path=/"; location.href="/";</script></body></html>'
  t.not(recognizePage(observe(consent, 200, 'https://news.example/consent')).page_kind, 'challenge', 'a cookie set and a move on, with nothing decrypted, is a consent step')
})

t.test('what a page keeps in blocks its classes hide is not what it says (batch 27 and 28: Baidu\'s check)', async t => {
  const baidu = (cls: string): string => page(`<div class="${cls}"><div class="timeout-title">网络不给力，请稍后重试</div><button type="button" class="timeout-button">返回首页</button></div>` +
    `<div class="timeout-feedback ${cls}"><p>问题反馈</p></div><script src="https://wappass.example.com/static/machine/js/api/mkd.js"></script>`, '<title>百度安全验证</title>')
  t.equal(recognizePage(observe(baidu('timeout hide'))).page_kind, 'challenge', 'a title that asks over nothing but hidden blocks')
  t.not(recognizePage(observe(baidu('timeout'))).page_kind, 'challenge', 'the same notice on show is a page that says something')
  for (const cls of ['invisible', 'ng-hide', 'layui-hide']) t.equal(recognizePage(observe(baidu(`timeout ${cls}`))).page_kind, 'challenge', `other frameworks' hiding class: ${cls}`)
  t.not(recognizePage(observe(baidu('timeout hidden md:block'))).page_kind, 'challenge', 'a class that shows it again at a screen size does not hide it')
})

t.test('ordinary pages the fifteenth review built against the rules of batch 28 are not gates', async t => {
  const pages: Array<[string, string, string]> = [
    ['<html><head><title>Session expired - Acme Portal</title><script src="/js/crypto-js.min.js"></script><script>var APP_KEY="a9f3";</script></head><body>' +
      '<h1>Your session has expired</h1><p>For your security you were signed out after 30 minutes without activity.</p><p><a href="/login">Sign in again</a> · <a href="/">Home</a></p>' +
      "<script>function getToken(){var t=localStorage.getItem('tk');if(!t)return null;return CryptoJS.AES.decrypt(t,APP_KEY).toString(CryptoJS.enc.Utf8)}" +
      'function setCookie(n,v,d){document.cookie=n+"="+v+";path=/"}' + "function logout(){setCookie('sid','',-1);window.location.href='/login'}</script></body></html>",
    'https://portal.example/expired', 'a session notice whose script decrypts a token, not its cookie'],
    ['<html><head><title>Security check - MyBank</title></head><body><header><input type="checkbox" id="menu-toggle" class="hidden"><label for="menu-toggle">Menu</label></header>' +
      '<main><h1>Security check</h1><p>We sent a notification to your phone. Open the MyBank app and approve the sign-in to continue. This keeps your account safe.</p>' +
      '<button type="button">Resend notification</button></main></body></html>', 'https://bank.example/login/confirm', 'a hidden menu toggle hides nothing after it'],
    ['<html><head><title>百度安全验证</title></head><body><div class="timeout hide" style="display: block"><div class="timeout-title">网络不给力，请稍后重试</div><button type="button">返回首页</button></div></body></html>',
      'https://wappass.example.com/static/captcha', "a block jQuery's .show() shows is on show"],
    ['<html><head><title>Estimated wait time | CityCare Walk-in</title><script src="https://www.google.com/recaptcha/api.js?render=6LcA"></script></head><body>' +
      '<h1>Estimated wait time</h1><p>Downtown clinic: about 25 minutes. Uptown clinic: about 40 minutes. Times are updated every 5 minutes.</p><a href="/locations">All locations</a>' +
      '<div class="grecaptcha-badge" data-style="bottomright" style="display: block; position: fixed"><div class="grecaptcha-logo"></div><span id="recaptchaNotice">Protected by reCAPTCHA.</span></div></body></html>',
    'https://clinic.example/wait-times', "reCAPTCHA v3's badge and a notice named for it"],
    ['<html><head><title>行为验证码_免费试用 - 网易易盾</title><script src="https://cstaticdun.126.net/load.min.js"></script></head><body><div class="header"><a href="/">易盾</a><ul class="menu">' +
      Array.from({ length: 15 }, (_, i) => `<li><a href="/p/${i}">产品 ${i}</a><p>产品介绍与接入指南，帮助企业快速上线，拦截机器人攻击，保障业务安全 ${i}</p></li>`).join('') + '</ul></div>' +
      '<div class="banner"><h1>行为验证码</h1><p>无感验证，拦截机器人攻击，保障业务安全。</p><div id="captcha-demo"></div><a class="btn" href="/trial">免费试用</a></div><div class="footer"><a href="/about">关于</a> © 2024</div></body></html>',
    'https://dun.example/product/captcha', "a CAPTCHA vendor's product page under a menu with descriptions"]
  ]
  for (const [html, url, name] of pages) t.not(recognizePage(observe(html, 200, url)).page_kind, 'challenge', name)
  // A gate's footer that links to Project Shield does not make Google its provider.
  const own = page('<h1>Please verify you are human</h1><div class="g-recaptcha" data-sitekey="x"></div><footer><a href="https://g.co/shield">Protected with Project Shield</a></footer>',
    '<title>Verify</title><script src="https://www.google.com/recaptcha/api.js"></script>')
  t.equal(provider(own), 'recaptcha', "a link to Project Shield names no provider")
})

t.test("a self-hosted check against scrapers at work (nineteenth review: go-away's 'Checking you are not a bot')", async t => {
  const check = (head = '', footer = ''): string => page('<h1>Checking you are not a bot</h1><p id="status">Loading challenge <em>js-refresh</em>...</p>' +
    '<details><summary>Why am I seeing this?</summary><p>You are seeing this because the administrator of this website has set up a protection against AI companies aggressively scraping websites.</p></details>' +
    `<p><small>If you have any issues contact the site administrator and provide the following Request Id: <em>da8b1587d1ac9e7c</em></small></p>${footer}`,
  `<title>Checking you are not a bot</title>${head}`)
  const plain = recognizePage(observe(check()))
  t.equal(plain.page_kind, 'challenge', 'a short page that asks and says it is loading, at 200, with no vendor named')
  t.equal(plain.challenge?.provider, 'generic')
  t.equal(recognizePage(observe(check(), 418)).page_kind, 'challenge', "at 418, go-away's status for its checks")
  t.same(recognizePage(observe(page("<h1>418 I'm a teapot</h1><p>Short and stout.</p>"), 418)), { page_kind: 'http_error' }, 'a teapot that asks nothing is an error page')
  t.not(recognizePage(observe(page('<h1>Loading your dashboard…</h1><p>Fetching your projects.</p>'))).page_kind, 'challenge', 'loading alone asks nothing')
  const named = check('<link rel="stylesheet" href="/.well-known/.git.gammaspectra.live/git/go-away/cmd/go-away/assets/static/anubis/style.css">',
    '<footer><p>Protected by <a href="https://git.gammaspectra.live/git/go-away">go-away</a> :: Request Id <em>da8b1587d1ac9e7c</em></p></footer>')
  t.equal(provider(named, 418), 'go_away', "go-away's assets name it")
  t.equal(provider(check('', '<footer><p>Protected by Anubis From Techaro. Made with ❤️ in 🇨🇦.</p></footer>'), 418), 'anubis', "Anubis's signature names it")
})

t.test("a widget where a bot manager's own code runs came back in the content's place (twenty-first review: ImmobilienScout24)", async t => {
  const reasons = Array.from({ length: 4 }, (_, i) => `<li>Grund ${i}: du hast in kurzer Zeit mehr Anfragen gestellt, als es üblicherweise der Fall ist, oder Cookies deaktiviert.</li>`).join('')
  const check = (script: string): string => page('<div class="header"><a href="/">Logo</a><a href="/login">Anmelden</a></div><div class="main"><div class="headline">Ich bin kein Roboter</div>' +
    '<p>Um unsere Services weiterhin zu nutzen, löse bitte diesen kurzen Test.</p><div id="captcha-box"></div>' +
    `<div>Warum haben wir deine Anfrage blockiert?</div><ul>${reasons}</ul></div>`,
  `<title>Ich bin kein Roboter - ImmobilienScout24</title><script>${script}</script><script src="https://static.geetest.com/static/tools/gt.js"></script>`)
  const managed = recognizePage(observe(check("sessionStorage.setItem('distil_referrer', document.referrer)")))
  t.equal(managed.page_kind, 'challenge', 'at 200, beside Distil\'s own code')
  t.equal(managed.challenge?.provider, 'distil')
  t.not(recognizePage(observe(check('window.dataLayer = []'))).page_kind, 'challenge', 'the same long page without a bot manager at work is a help page')
})

t.test("the page's structure is read as the page shows it: commented-out or scripted markup is none of it", async t => {
  // A heading left in a comment asks for nothing; a notice of its own heading does.
  const commented = page('<!-- <h1>Please verify you are a human</h1> --><p>Nothing to see here.</p><button>Go on</button>', '<title>Example</title>')
  t.notOk(gateShape(factsOf(observe(commented, 403))).signals.includes('shape: asks for verification'), 'a commented-out heading does not ask')
  const shown = commented.replace('<!-- ', '').replace(' -->', '')
  t.ok(gateShape(factsOf(observe(shown, 403))).signals.includes('shape: asks for verification'), 'the same heading shown asks')
  // Links a script writes into a footer are not the footer's: they are not taken off the page's own.
  const links = Array.from({ length: 12 }, (_, i) => `<a href="/p${i}">Part ${i}</a>`).join(' ')
  const scripted = page(`<h1>Please verify you are a human</h1><div id="captcha-box"></div><button>Continue</button>${links}<footer><script>document.write('${links}')</script></footer>`)
  t.notOk(gateShape(factsOf(observe(scripted, 200))).signals.includes('shape: little else on the page'), "twelve links of the page's own are more than a gate carries")
})

t.test("a redirect's script names where it sends the page; a check's comes back or posts its answer", async t => {
  // SharePoint's not-found stub: a fallback for browsers without JavaScript, a script that hands
  // another page's address to its navigate function (twenty-third review).
  const stub = '<noscript><meta http-equiv="refresh" content="0; url=/_layouts/spsredirect.aspx?noscript=1"></noscript><script src="/_layouts/init.js"></script>' +
    '<script>var requestedUrl = escape(window.location.href); STSNavigate("/pages/error.aspx?oldUrl=" + requestedUrl);</script>'
  t.not(recognizePage(observe(page('', stub))).page_kind, 'challenge', 'a function named for the move')
  t.not(recognizePage(observe(page('', stub.replace('STSNavigate("/pages/error.aspx?oldUrl=" + requestedUrl)', 'window.location = "/pages/error.aspx"')))).page_kind, 'challenge', 'the location set to another page')
  t.equal(recognizePage(observe(page('', stub.replace(/<script>.*<\/script>/, '<script>run()</script>')))).page_kind, 'challenge', 'a script that names no address leaves the fallback a check\'s')
  t.equal(recognizePage(observe(page('', stub.replace('var requestedUrl', 'document.cookie = "pass=1"; var requestedUrl')))).page_kind, 'challenge', 'a check sets its pass before going on')
})

t.test("AngularJS's markers and a mount point named app-mount make an app: a shell behind its fallback is no check", async t => {
  const fallback = '<noscript><meta http-equiv="refresh" content="0;url=/unsupported.html"></noscript><script src="/js/site.js"></script>'
  t.equal(recognizePage(observe(page('', fallback))).page_kind, 'challenge', 'without an app marker, a blank page behind a fallback waits for its script')
  for (const attr of ['ng-app', 'data-ng-app="portal"', 'ng-controller="Header"', 'data-ng-controller="Index"', 'id="app-mount"']) {
    t.not(recognizePage(observe(page(`<div ${attr}></div>`, fallback))).page_kind, 'challenge', attr)
  }
})

t.test("a form the script only submits when a person calls it (ASP.NET's __doPostBack) is not submitted on load", async t => {
  const signal = 'shape: its script submits its form to the same site'
  const postBack = 'function __doPostBack(eventTarget, eventArgument) { if (!theForm.onsubmit || (theForm.onsubmit() != false)) { theForm.__EVENTTARGET.value = eventTarget; theForm.submit(); } }'
  const webForm = (script: string): string => page(`<form method="post" action="./missing?404"><input type="hidden" name="__VIEWSTATE" value="x"><input type="hidden" name="__EVENTTARGET"></form><script>var theForm = document.forms[0]; ${script}</script>`, '<title>Not Found</title>')
  t.notOk(gateShape(factsOf(observe(webForm(postBack)))).signals.includes(signal), 'declared, never called: a person would call it')
  t.ok(gateShape(factsOf(observe(webForm(`${postBack} __doPostBack('check', solve());`)))).signals.includes(signal), 'called on load: it submits')
  t.ok(gateShape(factsOf(observe(webForm(`function go () { theForm.answer.value = solve(); theForm.submit() } window.onload = go;`)))).signals.includes(signal), 'handed to onload: it submits')
})

t.test('a page with nothing on show whose title calls it a challenge is the check (Fastly names itself by its directory)', async t => {
  const fastly = page('<noscript><p>Please enable JavaScript to proceed.</p></noscript><div id="loading-error" style="display: none">A required part of this site could not load.</div>',
    '<title>Client Challenge</title><link href="/_fs-ch-1T1wmsGaOgGaSxcX/assets/styles.css" rel="stylesheet"><script>loadScript("/_fs-ch-1T1wmsGaOgGaSxcX/errors.js")</script>')
  const r = recognizePage(observe(fastly))
  t.equal(r.page_kind, 'challenge', 'at 200')
  t.equal(r.challenge?.provider, 'fastly')
  t.equal(recognizePage(observe(page('', '<title>Challenge</title><script src="/check.js"></script>'))).challenge?.provider, 'generic', 'no vendor marker')
  t.not(recognizePage(observe(page(`<h1>The thirty-day baking challenge</h1>${PROSE}`, '<title>The thirty-day baking challenge</title>'))).page_kind, 'challenge', 'an article titled so')
  t.not(recognizePage(observe(page('<div id="root"></div>', '<title>Coding Challenge</title><script type="module" src="/assets/index-4f2a.js"></script>'))).page_kind, 'challenge', "an app's shell titled so")
  t.not(recognizePage(observe(page('<p>Share your photo for the challenge.</p><form><input type="file" name="photo"><button>Enter</button></form>', '<title>Photo Challenge</title>'))).page_kind, 'challenge', 'a page with something on show')
})

t.test("a widget beside the challenge code a bot manager serves is its check however much the page explains (Netacea's at The Sun)", async t => {
  // Longer than a notice, no longer than a gate: its terms on data mining, as The Sun's.
  const terms = '<p>Our system has indicated that your user behaviour is potentially automated.</p>' +
    `<p>${Array.from({ length: 8 }, (_, i) => `Term ${i} forbids collecting our content by automated means.`).join(' ')}</p>`
  const widget = '<script src="https://www.recaptcha.net/recaptcha/api.js" async defer></script>'
  const netacea = '<script src="https://assets.ntcacdn.net/Mitigations/submit-captcha-2.1.4.js"></script>'
  const check = (head: string): string => page(`<h1>Help us verify you as a real visitor</h1>${terms}<form method="post"><div class="g-recaptcha" data-sitekey="6Lc"></div><button type="submit">Submit</button></form>`, `<title>Captcha Page</title>${head}`)
  const r = recognizePage(observe(check(widget + netacea)))
  t.equal(r.page_kind, 'challenge', 'at 200, longer than a notice')
  t.equal(r.challenge?.provider, 'netacea')
  t.ok(r.challenge?.evidence.includes("shape: a bot manager's code runs beside the widget"), 'the signal is evidence')
  t.not(recognizePage(observe(check(widget))).page_kind, 'challenge', 'the same page without the manager\'s code is a help page')
  t.not(recognizePage(observe(check(widget + '<script src="https://assets.ntcacdn.net/sensor.js"></script>'))).page_kind, 'challenge', 'another script from its address is no challenge code')
})

t.test("a blank page that refreshes at once to a captcha path is the check's first step (SiteGround's)", async t => {
  const refresh = (target: string, delay = 0): string => `<html><head><link rel="icon" href="data:;"><meta http-equiv="refresh" content="${delay};${target}"></meta></head></html>`
  const r = recognizePage(observe(refresh('/.well-known/sgcaptcha/?r=%2Fcookiepolicy&y=ipc:79.137.75.49:1'), 202))
  t.equal(r.page_kind, 'challenge')
  t.equal(r.challenge?.provider, 'siteground')
  t.equal(recognizePage(observe(refresh('/captcha/?from=%2F'))).challenge?.provider, 'generic', 'another site\'s captcha path')
  t.not(recognizePage(observe(refresh('/en/home'))).page_kind, 'challenge', 'a refresh elsewhere')
  t.not(recognizePage(observe(refresh('url=/captcha/', 5))).page_kind, 'challenge', 'a refresh after a wait a person sees')
})

t.test('a quiet page whose script posts an answer to its own address and reloads is a check', async t => {
  const signal = 'shape: its script posts an answer to its own address and reloads'
  const post = (target: string, after: string): string => `<script>Challenge=723292; var client = new XMLHttpRequest(); client.onreadystatechange = function () { if (client.readyState == 4) { ${after} } }; client.open("POST", ${target}, true); client.setRequestHeader('X-Challenge-Result', solve(Challenge)); client.send();</script>`
  const check = page('<noscript>JavaScript must be enabled in order to view this page.</noscript>', post('window.location', 'window.location.reload(true);'))
  const r = recognizePage(observe(check))
  t.equal(r.page_kind, 'challenge', 'a blank page')
  t.equal(r.challenge?.provider, 'generic')
  t.ok(r.challenge?.evidence.includes(signal), 'the signal is evidence')
  t.equal(recognizePage(observe(page('', post('location.href', 'location.reload()')))).page_kind, 'challenge', 'location.href')
  const shape = (body: string, script: string): boolean => gateShape(factsOf(observe(page(body, script)))).signals.includes(signal)
  t.notOk(shape('', post('"/api/session"', 'location.reload()')), 'a post to another address (an API) is not the page asking itself')
  t.notOk(shape('', post('window.location', 'render(client.responseText)')), 'a post that does not come back')
  t.notOk(shape('<button onclick="go()">Send</button>', post('window.location', 'location.reload()')), 'a page with a button to press')
})

t.test("a site's own refusal of automated visitors in its full layout is a gate", async t => {
  const signal = 'shape: its own part refuses automated visitors'
  const header = `<header><nav>${Array.from({ length: 20 }, (_, i) => `<a href="/s${i}">Section ${i} of the site</a>`).join('')}</nav><form action="/search"><input type="search" name="q" placeholder="Search"></form></header>`
  const footer = `<footer>${Array.from({ length: 20 }, (_, i) => `<a href="/f${i}">Footer link ${i}</a>`).join('')}</footer>`
  const layout = (title: string, main: string): string => page(`${header}<main><h2>${main}</h2><a href="/">Home page</a></main>${footer}`, `<title>${title}</title>`)
  const refused = layout('Your request has been blocked', 'Your current User-Agent string appears to be from an automated process, if this is incorrect, please click this link:')
  const r = recognizePage(observe(refused, 200))
  t.equal(r.page_kind, 'challenge', 'at 200, in the layout')
  t.equal(r.challenge?.provider, 'generic')
  t.ok(r.challenge?.evidence.includes(signal), 'the signal is evidence')
  t.not(recognizePage(observe(layout('Your request has been blocked', 'This video is not available in your country.'), 200)).page_kind, 'challenge', 'a refusal giving another reason')
  t.not(recognizePage(observe(layout('Bots and automation', 'Our automated process ships your order the same day.'), 200)).page_kind, 'challenge', 'a title that refuses nothing')
  t.not(recognizePage(observe(layout('Your request has been blocked', `Automated ${PROSE}`), 200)).page_kind, 'challenge', 'an own part longer than a notice')
  t.not(recognizePage(observe(page(`${header}<main><p>Your account was blocked after automated sign-in attempts. Sign in again:</p><form><input type="email" name="e"><input type="password" name="p"></form></main>${footer}`, '<title>Account blocked</title>'), 200)).page_kind, 'challenge', 'a form to fill in beside it')
})

t.test("one sentence of a site's own part that refuses for unusual traffic, at a challenge status, is a gate without a heading (batch 106)", async t => {
  const signal = 'shape: its own part refuses automated visitors'
  const header = `<header><nav>${Array.from({ length: 12 }, (_, i) => `<a href="/s${i}">Section ${i}</a>`).join('')}</nav><form action="/search"><input type="text" name="q" placeholder="Search"></form></header>`
  const footer = `<footer>${Array.from({ length: 12 }, (_, i) => `<a href="/f${i}">Footer link ${i}</a>`).join('')}</footer>`
  // ResearchGate's layout: the sentence is a headline styled by its class, then an offer to sign in.
  const blocked = (sentence: string): string => page(`${header}<main><div class="headline">${sentence}</div><div class="card"><div>Are you a researcher?</div><div>To avoid being denied access, log in if you're a member or create an account if you're not.</div><a href="/login">Log in</a><a href="/signup">Create account</a></div></main>${footer}`, '<title>Example Research</title>')
  const traffic = blocked("We've picked up some unusual traffic from your network and have temporarily blocked access from your IP address.")
  const r = recognizePage(observe(traffic, 403))
  t.equal(r.page_kind, 'challenge', 'at 403, in the layout')
  t.equal(r.challenge?.provider, 'generic')
  t.ok(r.challenge?.evidence.includes(signal), 'the signal is evidence')
  t.equal(recognizePage(observe(blocked('Access from your network has been blocked because of automated requests.'), 429)).page_kind, 'challenge', 'automated requests as the reason, at 429')
  t.equal(recognizePage(observe(blocked('Wir haben ungewöhnlichen Datenverkehr aus Ihrem Netzwerk festgestellt und den Zugriff vorübergehend gesperrt.'), 403)).page_kind, 'challenge', 'in German')
  t.not(recognizePage(observe(traffic, 200)).page_kind, 'challenge', 'answered as content: a page may report a block')
  t.not(recognizePage(observe(blocked('We noticed unusual activity on your account and have blocked it for your safety.'), 403)).page_kind, 'challenge', "an account's activity is the account's business")
  t.not(recognizePage(observe(blocked('We have blocked access from your network.'), 403)).page_kind, 'challenge', 'a refusal giving no reason')
  t.not(recognizePage(observe(blocked('We picked up some unusual traffic from your network. Please try again later.'), 403)).page_kind, 'challenge', 'the reason without a refusal in its sentence')
  for (const notice of ['Ihr Konto wurde automatisch gesperrt.', 'Votre compte a été bloqué automatiquement après trois tentatives.', 'Your account has been blocked and an automated email was sent to you.', 'Access to Power Automate is denied by your administrator.']) {
    t.not(recognizePage(observe(blocked(notice), 403)).page_kind, 'challenge', `nothing a robot does: ${notice}`)
  }
  t.not(recognizePage(observe(blocked('Requests from automated software are restricted to 60 per minute.'), 429)).page_kind, 'challenge', 'a quota "restricts", it refuses nothing yet')
  const twoBlocks = page(`${header}<main><div class="headline">Access denied</div><div class="card">Bot Framework Portal</div><a href="/login">Log in</a></main>${footer}`, '<title>Example</title>')
  t.not(recognizePage(observe(twoBlocks, 403)).page_kind, 'challenge', "a refusal and a name in blocks of their own are no sentence")
  t.equal(recognizePage(observe(blocked('系统检测到您的请求来自自动程序，已被拦截。'), 403)).page_kind, 'challenge', 'in Chinese, one sentence')
  t.not(recognizePage(observe(blocked('我们的自动程序会发送通知。您的访问已被拦截。'), 403)).page_kind, 'challenge', 'in Chinese, the reason and the refusal in sentences of their own')
})

t.test('a short refusal that gives automation as its reason is a gate at any status; an account lock is not', async t => {
  const refusal = page('<h1>Content Blocked</h1><p>We have detected that you may be using an automated script or search engine our site does not support. Please retry using an alternate way of accessing our site.</p><p>Reference Number: 88978ab89cc386cc</p>')
  for (const status of [200, 403]) t.equal(recognizePage(observe(refusal, status)).page_kind, 'challenge', `at ${status}`)
  t.ok(recognizePage(observe(refusal)).challenge?.evidence.includes('shape: its own part refuses automated visitors'))
  const locked = page('<h1>Account blocked</h1><p>We noticed suspicious activity on your account and blocked it. Contact support to unlock it.</p>')
  t.not(recognizePage(observe(locked)).page_kind, 'challenge', '"suspicious activity" is the account\'s business')
  t.not(recognizePage(observe(page('<h1>Web Page Blocked</h1><p>Access to the web page you were trying to visit has been blocked in accordance with company policy.</p><p>URL: roulette-bot-plus.com/robots.txt</p>'))).page_kind, 'challenge', 'a bot in an address it prints is a name')
  t.not(recognizePage(observe(page('<h1>How we handle bots</h1><p>Automated scripts are welcome to read our public pages.</p>'))).page_kind, 'challenge', 'a heading that refuses nothing')
  // Something done automatically is an account's lock-out; automated requests are a block's reason.
  for (const [heading, words] of [['Konto gesperrt', 'Ihr Konto wurde automatisch gesperrt, nachdem dreimal ein falsches Passwort eingegeben wurde.'], ['Compte bloqué', 'Votre compte a été bloqué automatiquement après trois tentatives.'],
    ['Доступ заблокирован', 'Ваш аккаунт автоматически заблокирован.'], ['アクセスが拒否されました', 'パスワードを3回間違えたため、アカウントは自動的にロックされました。'], ['退款申请被拒绝', '您的申请未通过系统自动化审核。']]) {
    t.not(recognizePage(observe(page(`<h1>${heading}</h1><p>${words}</p>`), 403)).page_kind, 'challenge', `a lock-out done automatically: ${words}`)
  }
  for (const [heading, words] of [['Zugriff gesperrt', 'Wir haben automatische Anfragen aus Ihrem Netzwerk erkannt.'], ['Accès bloqué', 'Nous avons détecté des requêtes automatiques depuis votre réseau.'],
    ['Доступ заблокирован', 'Мы обнаружили автоматические запросы с вашего IP-адреса.'], ['アクセスがブロックされました', '自動化されたアクセスを検出しました。'], ['访问被拒绝', '系统检测到您的请求来自自动化程序。'], ['访问被拒绝', '系统检测到您的访问疑似爬虫。']]) {
    t.equal(recognizePage(observe(page(`<h1>${heading}</h1><p>${words}</p>`), 403)).page_kind, 'challenge', `automated requests as the reason: ${words}`)
  }
  const unusual = (words: string): string => page(`<h1>Unusual Traffic Detected</h1><p>We have detected unusual activity from the IP address or connection you are using.</p><p>${words}</p>`)
  t.equal(recognizePage(observe(unusual('You may see this page if you are accessing our website using automated software of any kind.'))).page_kind, 'challenge', 'a heading that asks, over automation as the reason, at 200')
  t.not(recognizePage(observe(unusual('Please try again later.'))).page_kind, 'challenge', 'a heading that asks, with no reason given, at 200')
})

t.test('"unusual traffic" in the languages of the sites that copy its wording asks for the step (thirty-second review)', async t => {
  for (const words of ['ungewöhnlichen Datenverkehr', 'trafic inhabituel', 'tráfico inusual', 'traffico insolito', 'tráfego incomum', 'ongebruikelijk verkeer', 'nietypowy ruch', 'trafic neobișnuit', 'необычный трафик', '通常と異なるトラフィック']) {
    const r = recognizePage(observe(page(`<h1>Our systems have detected ${words} from your network.</h1><button>Continue</button>`), 200))
    t.equal(r.page_kind, 'challenge', words)
    t.ok(r.challenge?.evidence.includes('shape: asks for verification'), `${words}: it asks`)
  }
  t.not(recognizePage(observe(page('<h1>Heavy traffic on the motorway tonight</h1><button>Continue</button>'), 200)).page_kind, 'challenge', 'traffic of another kind')
})

t.test('a refusal of automated access in two languages, the browser showing one, is a gate (thirty-second review)', async t => {
  // Both languages are in the markup, a stylesheet hides the one the browser's language does not
  // want: what the browser shows is a short notice, though its markup is not.
  const section = (lang: string, words: string): string => `<section lang="${lang}"><p>${words}</p></section>`
  const notice = (en: string, reference: string): PageObservation => {
    const german = 'Leider können wir Ihnen keinen Zugriff auf unsere Daten gewähren. Wenn Sie Interesse an unseren Daten haben, kontaktieren Sie uns bitte telefonisch oder per E-Mail, wir helfen Ihnen gern weiter und beantworten Ihre Fragen zu unseren Angeboten, Montag bis Freitag von acht bis achtzehn Uhr.'
    const english = `${en} If you are interested in accessing our data, please contact us by phone or by e-mail, and we will gladly help you and answer your questions about our offers, Monday to Friday from eight to six.`
    const address = 'Example GmbH, Example Street 50, 14057 Berlin, Germany. Managing Directors: A. Person and B. Person. Registered office of the company: Berlin. Commercial register number 271620 B, local court of Charlottenburg. Phone Monday to Friday from eight to six for private users, commercial sellers and dealers.'
    const footer = `<footer><p>${address}</p></footer>`
    const html = page(`<main><h1 lang="de">Zugriff verweigert</h1><h1 lang="en">Access denied</h1><p>${reference}</p>${section('de', german)}${section('en', english)}</main>${footer}`,
      '<title>Zugriff verweigert / Access denied</title><style>html:not([lang="de"]) [lang="de"] { display: none; }</style>')
    const shown = `Access denied\n${reference}\n${english}\n${address}`
    return { status: 403, url: 'http://127.0.0.1/page', title: 'Zugriff verweigert / Access denied', html, text: shown }
  }
  const r = recognizePage(notice('Unfortunately, automated access to this page was denied.', 'Reference Error: 0.5c8f2117.1770660228.2aa2fad0'))
  t.equal(r.page_kind, 'challenge', 'automation as the reason, on what the browser shows')
  t.ok(r.challenge?.evidence.includes('shape: its own part refuses automated visitors'), 'the signal is evidence')
  // A reference of an edge's shape names no vendor on a site's own page (Housing.com's, batch 13).
  t.equal(r.challenge?.provider, 'generic', 'the site\'s own block')
  t.not(recognizePage(notice('Unfortunately, access to this page was denied.', 'Reference Error: 0.5c8f2117.1770660228.2aa2fad0')).page_kind, 'challenge', 'a refusal giving no reason')
})

t.test('a refusal worded as a policy, over automation as the reason, is a gate (twenty-ninth review)', async t => {
  const policy = (heading: string, reason: string): string => page(`<div class="box"><h1>${heading}</h1><h2>${reason}</h2><p>If you are a person using a browser, email us your IPv4 address and we will add you to our whitelist within 24 hours.</p></div>`)
  for (const heading of ['We do not allow automated access to our servers.', 'Automated requests are not permitted', "We don't allow bots", 'Scraping prohibited']) {
    const r = recognizePage(observe(policy(heading, 'Automated access to our data is prohibited by our data provider.'), 200))
    t.equal(r.page_kind, 'challenge', heading)
    t.ok(r.challenge?.evidence.includes('shape: its own part refuses automated visitors'), `${heading}: the signal is evidence`)
  }
  t.not(recognizePage(observe(policy('We do not allow returns after 30 days', 'Our automated system emails your label.'), 200)).page_kind, 'challenge', 'a policy about something else, automation named beside it')
  t.not(recognizePage(observe(policy('Pets are not allowed', 'Ask the front desk.'), 200)).page_kind, 'challenge', 'a policy with no automation in it')
})

t.test('PerimeterX: its container is the page only where the page is a block or what is on show asks (twenty-ninth review)', async t => {
  const sensor = '<style>#captcha-modal{display:none;position:fixed}</style><script>window._pxAppId = "PX1"</script>'
  const kept = `<div id="captcha-modal"><div>Hello!</div><p>Please verify you are a human:</p><div id="px-captcha"></div></div>`
  const landing = page(`<a href="/login">Log In</a>${PROSE}${PROSE}${PROSE}${kept}`, sensor)
  t.same(recognizePage(observe(landing, 200)), { page_kind: 'content' }, 'a long page keeping it in a modal its stylesheet hides')
  t.equal(provider(landing, 403), 'perimeterx', 'the same page at a challenge status')
  const shown = page(`<a href="/login">Log In</a>${PROSE}${PROSE}${PROSE}${kept}`, '<script>window._pxAppId = "PX1"</script>')
  t.equal(provider(shown), 'perimeterx', 'the modal on show, asking')
  t.equal(provider(page('<h1>Access to this page has been denied</h1><div id="px-captcha"></div>')), 'perimeterx', 'a short page at 200')
})

t.test("a waiting room's notice holds the visitor in line at any status (thirtieth review)", async t => {
  const footer = '<footer>Waiting Room powered by Example CDN © 2023 Example, Inc. | <a href="/privacy">Privacy Policy</a> | <a href="/terms">Terms of Use</a> | <a href="/trust">Trust &amp; Safety</a></footer>'
  const room = (words: string): string => page(`<main><h1>You are now in line.</h1><h2>Thank you for your patience.</h2><p>Your estimated wait time is 39 minutes.</p><p>${words}</p><p>Last updated 3:24:47 PM</p></main>${footer}`)
  const refreshing = room('We are experiencing a high volume of traffic and using a virtual queue to limit the amount of users on the website at the same time. This will ensure you have the best possible online experience. This page will automatically refresh, please do not close your browser.')
  for (const status of [200, 503]) {
    const r = recognizePage(observe(refreshing, status))
    t.equal(r.page_kind, 'challenge', `at ${status}`)
    if (status === 200) t.ok(r.challenge?.evidence.includes('shape: holds the visitor in line'), 'the signal is evidence')
  }
  t.not(recognizePage(observe(room('Your order will ship once your turn comes; we will email you.'), 200)).page_kind, 'challenge', 'in line, but nothing says the page is at work')
  const support = page(`<nav>${['Help', 'Orders', 'Account', 'Contact'].map(w => `<a href="/${w}">${w}</a>`).join('')}</nav><h1>Chat with us</h1><p>You are now in line for an agent. Your estimated wait time is 3 minutes. This page will refresh automatically.</p>${PROSE}${PROSE}`)
  t.not(recognizePage(observe(support, 200)).page_kind, 'challenge', 'a support page with its navigation and its own text')
})

t.test("a security layer's refusal on a short page a bot manager built is its block at any status (thirtieth review)", async t => {
  const error15 = (head: string): string => page('<h1>Access Denied</h1><h2>Error 15</h2><p>www.example.test 2025-03-26 23:11:55 UTC</p><h3>What happened?</h3><p>This request was blocked by our security service</p><p>Your IP: 192.0.2.7</p><p>Incident ID: 1838000260013532783-25472330166568590</p>', head)
  const imperva = '<link rel="stylesheet" href="/_Incapsula_Resource?CWUDNSAI=23&amp;xinfo=1&amp;incident_id=1&amp;edet=15&amp;cinfo=ffffffff&amp;pe=631&amp;rpinfo=0&amp;cts=x&amp;mth=GET&amp;errorpages=css">'
  for (const status of [200, 403]) {
    const r = recognizePage(observe(error15(imperva), status))
    t.equal(r.challenge?.provider, 'imperva', `at ${status}`)
    t.ok(r.challenge?.evidence.includes('shape: a security layer refused it'), `at ${status}: the signal is evidence`)
  }
  t.not(recognizePage(observe(error15(''), 200)).page_kind, 'challenge', 'no bot manager built it, no reason given, at 200')
  t.not(recognizePage(observe(page('<h1>Access Denied</h1><p>This request was blocked by our security service.</p>' + PROSE + PROSE, imperva), 200)).page_kind, 'challenge', 'a long page quoting the words')
})

t.test('a short notice that asks and says it is checking the browser is at work', async t => {
  const notice = (words: string): string => page(`<p>${words}</p>`, '<title>Verification</title><script src="https://www.google.com/recaptcha/api.js?render=explicit"></script>')
  t.equal(recognizePage(observe(notice('Rate limit exceeded. Verifying your browser before accessing the site.'))).page_kind, 'challenge', 'verifying your browser')
  t.equal(recognizePage(observe(notice('Checking your browser before you are let in.'))).page_kind, 'challenge', 'checking your browser')
  t.not(recognizePage(observe(notice('Rate limit exceeded. Please try again in five minutes.'))).page_kind, 'challenge', 'a rate limit alone asks for no step')
})

t.test('a search form with lists and a date beside its CAPTCHA is a form; the other fields of a header\'s search form are chrome (twenty-eighth review)', async t => {
  const captcha = '<div class="captcha-container"><img id="captchaImage" src="/captcha.png" alt="captcha"><input name="captcha_code" placeholder="Enter captcha"></div><button>Get Cause List</button>'
  const search = (entries: string): string => page(`<h1>Cause List</h1><form>${entries}${captcha}</form>`)
  t.not(recognizePage(observe(search('<select name="state"><option>Select State</option></select><select name="court"><option>Select Court</option></select><input type="date" name="date">'))).page_kind, 'challenge', 'lists and a date to fill in')
  t.not(recognizePage(observe(search('<input type="date" name="date">'))).page_kind, 'challenge', 'a date alone')
  t.equal(recognizePage(observe(search('<select class="captcha-lang-selector" aria-label="Select language"><option>English</option></select>'))).page_kind, 'challenge', "a list of the CAPTCHA's languages is the widget's")
  // Bing's own check: its header's search form holds a box for an image's address beside the query.
  const header = (extra: string, widgetThere = ''): string => `<header><form action="/search"><input type="search" name="q"><input type="text" placeholder="paste an image link">${extra}${widgetThere}</form></header>`
  const turnstile = '<div class="cf-turnstile" data-sitekey="x"></div>'
  const check = (head: string): string => page(`${head}<div class="captcha"><h2>One last step</h2><p>Solve the challenge below to continue</p>${turnstile}</div>`,
    '<script src="https://challenges.cloudflare.com/turnstile/v0/api.js"></script>')
  t.equal(recognizePage(observe(check(header('')))).challenge?.provider, 'turnstile', "the search's other fields are the search's")
  t.not(recognizePage(observe(check(header('<input type="email" name="email">') + `<form><input type="email" name="e"><input type="password" name="p">${turnstile}</form>`))).page_kind, 'challenge', 'a sign-in form beside it is still a form')
  t.not(recognizePage(observe(page(`<form><input type="search" name="q"><input type="text" name="case_number">${turnstile}</form>`, '<script src="https://challenges.cloudflare.com/turnstile/v0/api.js"></script>'))).page_kind, 'challenge', 'a search form that holds the widget is the page\'s form')
})

t.test('a title or heading that offers to block, or names a template block, refuses nothing (twenty-eighth review)', async t => {
  const tool = (title: string): string => page('<h1>Company Info Scraper</h1><p>Scrape company information from the web.</p>', `<title>${title}</title>`)
  t.not(recognizePage(observe(tool('{% block title %}Company Info Scraper{% endblock %}'))).page_kind, 'challenge', 'an unrendered template')
  t.not(recognizePage(observe(tool('Block Scraper'))).page_kind, 'challenge', 'an offer to block')
  t.equal(recognizePage(observe(tool('Scraper blocked'))).page_kind, 'challenge', 'a refusal that happened')
})

t.test("Google Search's JavaScript check is known by its reload link where its <noscript> is empty (twenty-eighth review)", async t => {
  const fallback = '<div style="display:none">If you\'re having trouble accessing Google Search, please <a href="/search?q=x&amp;hl=en&amp;emsg=SG_REL&amp;sei=1">click here</a>.</div>'
  t.equal(provider(page(`<script>(function(){})()</script><noscript></noscript>${fallback}`, '<title>Google Search</title>')), 'google', 'nothing on show but the hidden link')
  t.not(recognizePage(observe(page(PROSE + fallback, '<title>Google Search</title>'))).page_kind, 'challenge', 'a page with a document on show')
  t.not(recognizePage(observe(page('<script>(function(){})()</script><a href="/search?q=x&amp;emsg=SG_RELOAD">more</a>', '<title>Search</title>'))).page_kind, 'challenge', 'another value')
})

t.test('a page titled as checking the browser is the check, however much help it gives (twenty-eighth review)', async t => {
  const help = '<p>If you cannot pass the test, allow your extensions on this website, update your browser and use a modern web browser. You may try the automated checks a second time: some checks fail once and succeed on a second try.</p><p>Still having trouble? Ask for help by email with the browser you are using and this reference ID. We answer within a day, and most problems are solved by a newer browser.</p>'
  const check = (title: string): string => page(`<h1>Checking your browser</h1><p>Starting verification… This takes a couple of seconds and happens automatically.</p>${help}<p>Or <a href="/antibot/captcha">solve an image challenge instead</a>.</p>`, `<title>${title}</title>`)
  t.ok(factsOf(observe(check('x'))).words > 80, 'longer than a short notice')
  t.equal(recognizePage(observe(check('Verifying your browser…'))).page_kind, 'challenge', 'titled so')
  t.ok(recognizePage(observe(check('Verifying your browser…'))).challenge?.evidence.includes('shape: its title says the browser is being checked'))
  t.not(recognizePage(observe(check('Help center'))).page_kind, 'challenge', 'the same help under another title is a help page')
})

t.test('202 is a status checks are served with: a blank page that runs its script there is one', async t => {
  // A WAF's JavaScript check (a Chinese court records site's, batch 162): nothing on show but a
  // fallback asking for JavaScript, and a script that answers a question and posts the request
  // again. AWS WAF's challenge action, DuckDuckGo's and SiteGround's checks answer 202 too.
  const check = page('<noscript><h1>Please enable JavaScript and refresh the page.</h1></noscript><script>var wzwsquestion="x";var wzwsmethod="post";</script>')
  const at202 = recognizePage(observe(check, 202))
  t.equal(at202.challenge?.provider, 'generic', 'at 202 it is a check')
  t.ok(at202.challenge?.evidence.includes('shape: status 202'), 'and the status is evidence')
  t.same(recognizePage(observe(check, 200)), { page_kind: 'empty' }, 'the same page at 200 is a page not drawn yet')
  t.same(recognizePage(observe(page(`<article>${PROSE}</article>`), 202)), { page_kind: 'content' }, 'an article answered 202 is still the article')
})
