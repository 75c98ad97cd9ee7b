// What a verification step says (docs/spec.md section 6): the phrases a gate uses to ask for one,
// in the languages of the sites scrapers meet. gate-shape.ts reads them only in the title, the
// headings, a dialog, a short page's text, the page's own part at a challenge status and (NOT_A_ROBOT
// alone) a short no-JavaScript fallback, so an article about CAPTCHAs is not one.
import { DISTIL_TEMPLATE } from './challenge-vendors.js'

// The visitor asked to show, or said to be, a person and not a robot, in the languages below: the
// narrowest way a step asks. A bot check's fallback for browsers without JavaScript is read for
// these alone (gate-shape.ts): a site-wide fallback line may well say "security check" or
// "проверка" of something else.
const NOT_A_ROBOT_PHRASES = [
  'verify (?:that )?you(?:\'re| are) (?:a )?human', '(?:verify|verifying|confirm|prove|show|check|checking|make sure|making sure) (?:that )?you(?:\'re| are) not a (?:robot|bot)', '(?<!i\'m |i’m |i am )not a robot', '(?:click|tick|check|select|press)(?: on| the)? ["“„«]?i(?:\'m|’m| am) not a robot',
  'are you (?:a )?(?:human|robot)', 'robot or human', '(?:prove|confirm) (?:that )?you(?:\'re| are) (?:a )?human',
  'не робот', 'kein roboter', 'pas un robot', 'no (?:eres|soy) un robot', 'não (?:é|sou) um robô',
  'non sono un robot', 'ik ben geen robot', 'nie jest(?:em|eś) robotem', 'nejsem robot', 'robot değilim',
  // The same with "bot" (German "kein Bot", Russian "не бот", Spanish "no eres un bot"), and Chinese.
  '(?:dass (?:sie|du) )kein bot', 'что вы не (?:ро)?бот', 'no (?:eres|soy) un bot', '(?:确认|验证|证明)(?:您|你)?不是机器人', '(?:確認|驗證|證明)(?:您|你)?不是機器人', '证明(?:你|您)是人类', '證明(?:你|您)是人類',
  // "Confirm that you are not a robot" in the second person, in more of the languages scrapers meet:
  // Italian, Dutch, Czech, Turkish, Swedish, Danish, Finnish, Hungarian, Romanian, Ukrainian,
  // Hindi, Persian, Korean, Thai.
  'di non essere un robot', 'che (?:tu )?non sia un robot', 'geen robot (?:bent|is)', 'nejste robot', 'robot olmadığınızı',
  'att du inte är en robot', 'at du ikke er en robot', 'ettet ole robotti', 'hogy nem (?:robot|vagy robot)', 'nu sunteți (?:un )?robot',
  'що ви не (?:ро)?бот', 'आप रोबोट नहीं हैं', 'ربات نیستید', '로봇이 아님을', 'ไม่ใช่บอท', 'of je een mens bent', 'không phải (?:là )?(?:người máy|robot)', 'bukan robot',
  'ロボットではありません', 'ロボットで(?:は)?ないこと', '로봇이 아닙니다', 'لست روبوت', 'אני לא רובוט', 'δεν είμαι ρομπότ', 'ไม่ใช่หุ่นยนต์',
  // "(Confirm) that you are a (real) human/person": a slider's or a button's only words when the
  // page never says "robot" or "captcha" (tenth review).
  '(?:prove|confirm|verify) (?:that )?you(?:\'re| are) a real (?:human|person)', 'verify you as a real (?:visitor|person|human|user)', 'dass (?:sie|du) (?:ein )?mensch (?:sind|bist)',
  'что вы (?:—\\s*|-\\s*)?(?:живой )?человек',
  // "Verifying you are human" in Cloudflare's other languages: Japanese, Chinese, Korean, Italian, Arabic.
  '人間であることを確認', '正在(?:验证|驗證)您?是否(?:是)?真人', '사람인지 확인(?:하고 있|하는 중)', '(?:che (?:tu )?sia|di essere) un essere umano', 'أنك إنسان', 'إذا كنت إنسان', 'que vous êtes (?:un )?(?:être )?humain', 'że jesteś człowiekiem', 'dat (?:je|u) een mens bent',
  '[iİ]nsan olduğunuz', 'ob (?:sie|du) ein mensch', 'человек ли вы', 'usted es un ser humano'
]
export const NOT_A_ROBOT = new RegExp(NOT_A_ROBOT_PHRASES.join('|'), 'i')

// A waiting room's own words: the visitor is in line, and for how long.
const QUEUE_PHRASES = ['your (?:place|position|number) in (?:the )?(?:line|queue)', 'you(?:\'re| are) (?:now )?in (?:the )?(?:line|queue|waiting room)', 'estimated wait(?:ing)? time']
export const IN_QUEUE = new RegExp(QUEUE_PHRASES.join('|'), 'i')

// Traffic a robot makes, as a check or a block names it: "unusual traffic" as Google's and the
// sites that copy its wording say it, in other languages too (eMAG's Romanian check, thirty-second
// review), and abnormal or suspicious requests. Traffic and requests, not an account's activity.
const UNUSUAL_TRAFFIC_PHRASES = [
  'unusual traffic', 'ungewöhnliche[nr]? (?:daten)?verkehr', 'trafic (?:réseau )?inhabituel', 'tráfico (?:de red )?inusual', 'traffico (?:di rete )?insolito', 'tráfego (?:de rede )?incomum',
  'ongebruikelijk (?:netwerk)?verkeer', 'nietypowy ruch', 'trafic neobi[șş]nuit', 'необычный трафик', '通常と異なるトラフィック', 'abnormal (?:traffic|requests)', 'suspicious (?:traffic|requests)'
]
/**
 * The robots a block names as its reason, in one list the bot-reason patterns below and in
 * gate-shape.ts share: bots, scrapers and crawlers by those names (their nouns and "-ing" forms,
 * never "scrapbook" or a "crawl space"), and crawlers and robots in Chinese.
 */
export const ROBOT_WORDS: readonly string[] = [String.raw`\bbots?\b`, String.raw`\bscrap(?:ers?|ing)\b`, String.raw`\bcrawl(?:ers?|ing)\b`, '爬[虫蟲]', '[机機]器人']
/**
 * Traffic a robot makes, as the reason for a refusal: unusual traffic, bots, automated requests or
 * software, crawlers and scrapers. Not "automatic" or "automatisch", which an account's lock-out
 * says of itself.
 */
export const ROBOT_TRAFFIC = new RegExp([...UNUSUAL_TRAFFIC_PHRASES, ...ROBOT_WORDS, String.raw`\bautomated (?:requests?|queries|traffic|access|software|scripts?|tools?|programs?|browsing|processes)\b`,
  '自动程序', '自動程式', '自動プログラム', 'автоматизированн'].join('|'), 'i')

// "Checking your browser" in the languages of the regional sites scrapers meet; not "请检查您的
// 浏览器设置" (please check your browser's settings), which is advice.
const CHECKING_BROWSER_ELSEWHERE = [
  '(?:überprüfung|prüfung) (?:ihres|deines) browsers', 'vérification (?:de )?votre navigateur', 'vérifions votre navigateur',
  '(?:comprobando|verificando) (?:su|tu) navegador', 'verificando (?:o )?seu navegador', '(?:controllo|verifica) (?:del )?(?:tuo )?browser',
  'uw browser (?:wordt )?(?:gecontroleerd|controleren)', 'sprawdzanie (?:twojej )?przeglądarki', 'kontrola (?:vašeho )?prohlížeče',
  'tarayıcınız(?:ı)? kontrol (?:ediliyor|ediyoruz)', 'đang kiểm tra trình duyệt', 'sedang memeriksa (?:browser|peramban)', 'ブラウザ(?:を|の)?(?:確認|チェック)(?:しています|中)', '브라우저(?:를)?\\s?확인\\s?중',
  '正在(?:检查|检测|验证)(?:您的)?浏览器', '正在(?:檢查|檢測|驗證)(?:您的)?瀏覽器'
]
/**
 * The browser being checked, as a title says it ("Verifying your browser…"), the noun phrase too
 * ("浏览器安全检查", browser security check: a help page's text says it as well, so only a title).
 */
export const CHECKING_BROWSER = new RegExp([String.raw`\b(?:checking|verifying) (?:your|the) browser\b`, ...CHECKING_BROWSER_ELSEWHERE, '(?:浏览器|瀏覽器)安全(?:检查|檢查|检测|檢測)'].join('|'), 'i')
/** Every CHECKING_BROWSER phrase in a text (global). */
export const CHECKING_BROWSER_ALL = new RegExp(CHECKING_BROWSER.source, 'gi')

// The phrases that ask for the step in so many words.
export const VERIFY_STEP = new RegExp([
  ...NOT_A_ROBOT_PHRASES, 'human verification(?! (?:passed|successful|succeeded|completed?|failed|error))', 'verifying (?:you are|your) (?:human|browser)',
  'press (?:&|and) hold to (?:confirm|verify|prove)', 'press (?:&|and) hold (?:the button )?until (?:the )?(?:bar|circle|progress|indicator|it (?:fills|is full))', 'pardon our interruption', 'unusual activity from your', ...UNUSUAL_TRAFFIC_PHRASES, 'abnormal access',
  '(?:made us|we) (?:think|thought|believe) (?:that )?you(?:\'re| are| were| might be) (?:a )?(?:ro)?bot\\b', '(?:detected|received|sent|from) automated (?:queries|requests|traffic)', 'checking (?:your |the )?browser',
  'complete the (?:security check|captcha)',
  '(?:challenge|puzzle|test) (?:below |above )?to (?:confirm|prove|verify|show) (?:that )?(?:you(?:\'re| are) (?:a |an |not |human|real)|this is you)', 'solve the challenge below to continue', 'verify yourself to continue',
  // A waiting room's own words (the issue asks for waiting rooms): on a short page that refreshes
  // itself, or says it is at work, it is the gate.
  ...QUEUE_PHRASES,
  'select all (?:the )?(?:squares|images|pictures|tiles|boxes) (?:with|containing)', 'bot (?:check|verification|protection)',
  'enter the characters', 'type the characters', 'solve (?:the|this) captcha', 'solve (?:the|this) puzzle (?:below |above )?to (?:continue|proceed|verify|prove|confirm)',
  // An image CAPTCHA's own line: "type the text you see in the image", "введите символы с картинки".
  '(?:type|enter) the (?:text|letters|numbers|code|words?) (?:you see |shown |displayed )?(?:in|on) the (?:image|picture)',
  'введите (?:символы|текст|код|цифры) (?:с|на) (?:картинк|изображени)',
  // The same line in the other languages above: German, French, Spanish, Portuguese, Italian,
  // Japanese, Chinese, Korean.
  'die (?:zeichen|buchstaben|ziffern|zahlen) (?:aus dem|im|auf dem) bild',
  '(?:saisissez|saisir|entrez|entrer|tapez|recopiez) (?:les )?(?:caractères|lettres|chiffres) (?:affichés |visibles |présents )?(?:dans|sur|de) l[\'’]image',
  '(?:introduce|introduzca|escribe|escriba|ingrese|ingresa) (?:los )?(?:caracteres|letras|números) (?:que (?:ves|ve|aparecen) )?(?:en|de) la imagen',
  '(?:digite|insira|introduza) (?:os )?(?:caracteres|letras|números) (?:que (?:você vê|vê|aparecem) )?(?:na|da) imagem',
  '(?:inserisci|inserire|digita|digitare) (?:i )?(?:caratteri|lettere|numeri) (?:che vedi |visualizzati |mostrati )?(?:nell|dell)[\'’]immagine',
  '画像(?:に表示されて(?:いる|いた)|に表示された|に書かれている|の)[^。\n]{0,12}(?:文字|数字|英数字)を入力',
  '输入(?:图片|图中|图像)(?:中|里|上)?的?(?:字符|文字|数字|字母)', '輸入(?:圖片|圖中|圖像)(?:中|裡|裏|上)?的?(?:字元|字符|文字|數字|字母)',
  '(?:이미지|그림)에 (?:보이는|표시된|나타난) (?:문자|글자|숫자)(?:를|을)? 입력',
  'slide to (?:verify|complete)', 'please slide to continue', '(?:人机|访问|滑动|滑块|行为)验证(?!码)', '(?<!邮箱|邮件|短信|手机|账号|账户|订单|支付|身份|登录|实名|人脸|刷脸|授权|权限|设备)验证中', '(?:人機|訪問|滑動|滑塊|行為)驗證(?!碼)', '(?<!郵箱|郵件|簡訊|手機|帳號|帳戶|訂單|支付|身份|登入|實名|人臉|刷臉|授權|權限|設備)驗證中',
  // "To confirm this visit is a normal user's, we need your help to verify" (Sogou's anti-spider
  // page over its image CAPTCHA, thirty-third review): the visit, not an account, is to be shown normal.
  '(?:确认|確認|证明|證明)[^，。,.]{0,10}(?:为|為|是)正常用(?:户|戶)', '需要(?:您|你)(?:协助|協助)(?:验证|驗證)',
  // The same steps in a few other languages: "(I am) not a robot", "checking (your)
  // browser/device". No \b: JavaScript's word boundary does not see Cyrillic letters. A word's
  // ending is a few letters ({0,20}): unbounded, a title of "проверпровер…" is read to its end once
  // for each "провер" in it.
  // "Abnormal access", "you are a bot" in a few other languages.
  '(?:pensar|creer) que eres un (?:ro)?bot', 'penser que vous êtes un robot',
  'действия за автоматическ', 'похож\\S{0,20} на автоматическ', 'провер\\S{0,20} (?:ваш\\S{0,20} )?(?:браузер|устройств)',
  // "Are you human?" in a few other languages.
  '(?:^|[^a-záéíóúñü])(?:eres|es usted) (?:un )?humano', 'êtes-vous (?:un )?humain', 'bist du ein mensch', 'sind sie ein mensch', 'você é (?:um )?humano',
  // "I am not a robot", "are you human?" and "security check" in the languages of the regional
  // sites scrapers meet: Italian, Dutch, Polish, Czech, Turkish, Vietnamese, Indonesian and
  // Malay, Japanese, Korean, Arabic, Hebrew, Greek, Thai, and the security check in the
  // languages above.
  '(?:^|[^a-zà-ù])sei (?:un )?umano', 'ben je een mens', 'czy jesteś człowiekiem',
  '[iİ]nsan mısınız', 'xác minh (?:rằng )?bạn (?:là )?(?:con )?người',
  '자동\\s?입력\\s?방지', 'ไม่ใช่โปรแกรมอัตโนมัติ',
  'r(?:é|e)sou?(?:dre|lvez) le défi (?:ci-dessous|suivant|pour)', '보안\\s?문자',
  // "Checking your browser" in the same languages.
  ...CHECKING_BROWSER_ELSEWHERE,
  // The reasons Distil's "Pardon our interruption" template gives, in every language it is served in.
  DISTIL_TEMPLATE.source
].join('|'), 'i')
// "Security check" in the languages of the sites scrapers meet. A bank's two-step sign-in says it
// too ("Sicherheitsüberprüfung: bestätigen Sie die Anmeldung in der App", Chinese 安全验证 over a
// QR code, Japanese セキュリティ確認 over "click the link we sent"), a short page with one button
// served with 200 (twelfth review): it asks beside a challenge widget or with a challenge status.
const SECURITY_CHECK = [
  'security check(?![a-z])', 'sicherheitsüberprüfung', 'проверка безопасности', 'vérification de sécurité', 'verificación de seguridad', 'verificação de segurança',
  '(?:controllo|verifica) di sicurezza', 'beveiligingscontrole', '(?:weryfikacja|kontrola) bezpieczeństwa', 'bezpečnostní (?:kontrola|ověření)',
  'güvenlik (?:doğrulaması|kontrolü)', 'kiểm tra bảo mật', '(?:verifikasi|pemeriksaan) keamanan', 'セキュリティ(?:チェック|確認)', '보안\\s?확인', '安全验证', '安全驗證'
]
// Why a check stopped the visitor ("we detected suspicious activity", Korean "abnormal access",
// Chinese "abnormal traffic"), and the words of a step that other pages take too ("checking your
// device" before an app-store redirect, Chinese "complete the verification" in an email's
// confirmation): an account's security notice, an expired session and a sign-up's "check your
// email" say them, each a bare notice served with 200. They ask only on a page answered with a
// challenge status (eleventh review); the restriction notices in the corpus that say them answer 403.
const STATUS_BOUND = [
  'detected (?:abnormal|suspicious|unusual) (?:activity|traffic|access)', 'checking (?:your |the )?device', 'suspicious access',
  '비정상적인\\s?(?:접근|접속|트래픽|요청)', '异常(?:访问|流量|请求)', '異常(?:訪問|流量|請求)', '不正(?:な)?アクセスを検知', 'подозрительн\\S{0,20} активност',
  '(?:进行|完成)验证', '(?:進行|完成)驗證',
  // A check's "one more step", which a sign-up's last page says at 200 too (twelfth review: a 403's).
  'one more step'
]
// A check's way on ("continue shopping", "one more step"), which a shop's empty cart, an order's
// thank-you page and a sign-up's last page say too, each a bare notice served with 200, and an
// expired session (401) or a region's refusal (403) beside a link back to the shop: it asks only
// on a page answered with a throttle's status (WAY_ON_STATUSES: Amazon's check and its rush-hour
// page answer 503). Even then it never makes a site's own layout a gate (VERIFY_STEP does that,
// gate-shape.ts).
const WAY_ON_STATUSES: ReadonlySet<number> = new Set([429, 503])
const WAY_ON = ['continue shopping']
/**
 * The words that ask for a verification step: in the page's text, and in its title or headings,
 * which may name the step by the bare word "captcha" beside a widget or with a challenge status
 * (a text that merely mentions it may not, nor a bare error notice titled "reCAPTCHA verification
 * failed": eleventh review).
 */
export interface AskingWords { text: RegExp, heading: RegExp }
function asking (phrases: readonly string[], bareCaptcha: boolean): AskingWords {
  const source = [VERIFY_STEP.source, ...phrases].join('|')
  return { text: new RegExp(source, 'i'), heading: new RegExp(bareCaptcha ? `${source}|captcha` : source, 'i') }
}
const ASKING = asking([], false)
const ASKING_BESIDE_WIDGET = asking(SECURITY_CHECK, true)
const ASKING_AT_CHALLENGE = asking([...STATUS_BOUND, ...SECURITY_CHECK], true)
const ASKING_AT_THROTTLE = asking([...STATUS_BOUND, ...SECURITY_CHECK, ...WAY_ON], true)

/**
 * What asks on a page answered with `status`; `challengeStatus`: whether providers serve their
 * checks with it (page-facts.ts); `besideStep`: whether a challenge widget is on the page, or the
 * page has nothing else to say (gate-shape.ts).
 */
export function askingWords (status: number | null, challengeStatus: boolean, besideStep: boolean): AskingWords {
  if (status !== null && WAY_ON_STATUSES.has(status)) return ASKING_AT_THROTTLE
  if (challengeStatus) return ASKING_AT_CHALLENGE
  return besideStep ? ASKING_BESIDE_WIDGET : ASKING
}

// A web application firewall, or another security layer by what it does ("network security",
// "a security service", "bot protection"), named beside the refusal ("blocked by the website
// firewall", "Page code: cian_waf_block", "You've been blocked by network security"); "waf" as a
// word of its own or of an identifier, not inside another word. Advice ("if you are behind a
// corporate firewall…") names no refusal beside it. "Firewall" in the languages of the refusals
// below too: a Chinese site's own "网站防火墙" over "已被网站管理员设置拦截".
const WAF = String.raw`(?<![a-z0-9])waf(?![a-z0-9])|\bfirewall\b|\bnetwork security\b|\bsecurity (?:service|system)\b|\bbot (?:protection|detection|management)\b|\banti-?bot\b|(?<![a-zà-ÿ])(?:pare-feu|cortafuegos)(?![a-zà-ÿ])|防火墙|防火牆|ファイアウォール|방화벽|файрвол|брандмауэр`
// Whole words ("blockchain" is no block), an identifier's part too (cian_waf_block). In other
// languages the participles that say it happened (German "blockiert", French "bloqué", Spanish and
// Portuguese "bloqueado", Italian "bloccato", not "negate", which is English too; Korean "차단됨"),
// not the bare noun or verb ("bloque", "Block", "광고 차단", ad blocking). Chinese and Japanese
// words carry no such ending: they are read whole, as they were.
const REFUSAL = String.raw`(?<![a-zà-ÿ])(?:block(?:ed|s|ing)?|denied|reject(?:ed|s)?|restrict(?:ed|s|ion)?|forbid(?:den)?|blockiert|gesperrt|verweigert|bloqué(?:e|s|es)?|refusé(?:e|s|es)?|bloquead[oa]s?|denegad[oa]s?|bloccat[oaie]|negat[oai]|zablokowan[aeyi]?)(?![a-zà-ÿ])|заблок|ограничен|拦截|攔截|阻止|阻断|阻斷|(?:被|已|遭)拒[绝絕]|拒[绝絕](?:了|访问|訪問|请求|請求|连接|連接|[。！!])|ブロック|拒否|차단(?:되었|됨|된|되어)`
/**
 * A refusal's own word (blocked, denied, rejected, restricted, forbidden), in the languages above,
 * as a title or heading says it: the bare verb or noun "block" there is an offer or a part ("Block
 * bots", "{% block title %}"), where a refusal says it happened ("blocked").
 */
export const REFUSED = new RegExp(REFUSAL.replace('block(?:ed|s|ing)?', 'block(?:ed|ing)'), 'i')
/**
 * A refusal that happened, as one sentence says it: REFUSED without "restricted", which a quota or
 * a plan's limit says as well ("restricted to 60 requests a minute").
 */
export const REFUSED_OUTRIGHT = new RegExp(REFUSED.source.replace('restrict(?:ed|s|ion)?|', ''), 'i')
/**
 * A refusal worded as a policy ("We do not allow automated access to our servers", "Bots are not
 * permitted", "Scraping prohibited"): a refusal only of what the same title or heading names
 * (MacroTrends' block, a training page of the twenty-ninth review; "Pets are not allowed" is not).
 */
export const POLICY_REFUSAL = /\b(?:do(?:es)?|will) not (?:allow|permit|accept)\b|\b(?:don|doesn|won)['’]t (?:allow|permit|accept)\b|\bnot (?:allowed|permitted)\b|\bprohibited\b/i
// Every firewall named within a few words of a refusal, either way round (global: each reader copies it).
const WAF_BLOCKS = new RegExp(`(?:${WAF})[\\s\\S]{0,40}?(?:${REFUSAL})|(?:${REFUSAL})[\\s\\S]{0,40}?(?:${WAF})`, 'gi')
// The visitor's own firewall, or one the visitor is told to check ("check your firewall", "请检查
// 防火墙", "Ihre Firewall"), or a question whether one blocked ("whether your firewall is
// blocking", "if the firewall blocked you", "防火墙是否阻止了"): advice to the visitor, where a
// firewall's block speaks of the site's ("the website firewall", "our", "网站防火墙"). The question
// word comes just before the firewall or the refusal: "our firewall, which checks if requests are
// safe, blocked this one" is a block.
const VISITORS_FIREWALL = new RegExp(String.raw`(?:\b(?:your|ihre[rm]?|votre|deine[rm]?|check(?: the)?)\s+|您的|你的|检查|檢查)(?:${WAF})`, 'i')
const QUESTIONED = new RegExp(String.raw`\b(?:whether|if|ob)\s+(?:\S+\s+){0,2}(?:${WAF})|是否\s*[已被有]?\s*(?:${REFUSAL})`, 'i')
// How far before a refusal's match the advice's own words are read ("check whether your ").
const ADVICE_LEAD_CHARS = 24
/** A firewall's refusal in the text, said by the site's firewall (not advice about the visitor's), or null. */
export function wafBlockIn (text: string): RegExpExecArray | null {
  // Matches may overlap: advice skipped may share its words with the block beside it ("Check your
  // firewall settings. Request blocked by the website firewall.").
  const all = new RegExp(WAF_BLOCKS)
  for (let found = all.exec(text); found !== null; found = all.exec(text)) {
    const around = text.slice(Math.max(0, found.index - ADVICE_LEAD_CHARS), found.index + found[0].length + 4)
    if (!VISITORS_FIREWALL.test(around) && !QUESTIONED.test(around)) return found
    all.lastIndex = found.index + 1
  }
  return null
}
/**
 * The request itself set off a security layer, or was taken for an attack or a robot: "something
 * in your recent request triggered our website's security system", "the action you just performed
 * triggered the security solution" (Cloudflare's block wording, which other firewalls copy), "your
 * request was considered suspicious", "this request looks automated". Said of a request or of the
 * action just performed, never of an account; and of a security layer, not of a module that
 * protects data.
 */
const A_REQUEST = String.raw`\b(?:(?:your|this|the) (?:recent |last )?request|action you just performed)\b`
export const REQUEST_SUSPECTED = new RegExp([
  String.raw`${A_REQUEST}[^.!?]{0,40}?\btriggered\b[^.!?]{0,40}?\b(?:security (?:system|service|solution|layer|check|rules?|filters?|measures?|polic(?:y|ies))|firewall|waf|(?:bot|ddos) protection)\b`,
  String.raw`${A_REQUEST} (?:was|is|has been|looks|looked|appears|appeared|seems|seemed)(?: to be)? (?:considered |deemed |flagged as |identified as |detected as |classified as )?(?:suspicious|malicious|automated|abnormal)\b`
].join('|'), 'i')
// Why a security layer refuses a visitor, as a notice words it: bots, automation, suspicious or
// unusual traffic, scraping. An account lock-out or an intranet's refusal names none of these.
export const BOT_WORD = new RegExp([...ROBOT_WORDS, String.raw`\bautomat(?!ically)`, String.raw`\bsuspicious\b`, String.raw`\bunusual\b`, String.raw`\babnormal\b`, '비정상', '异常', '異常', '自動', '自动', 'автомат', 'подозрит'].join('|'), 'i')

// A check at work says it will be done in a moment ("this may take a few seconds", "you will be
// redirected"), that it is loading (go-away's "Loading challenge…") or checking the browser
// (Enodia's "Verifying your browser before accessing the site"), in the languages of the
// checks above: on a short page answered as content, that and a request for the step make the
// step (gate-shape.ts), where a help page or an account's notice only asks.
export const WAITING = new RegExp([
  '\\bloading\\b', '(?:checking|verifying) (?:your|the) browser', 'this page will (?:automatically )?refresh', 'refresh(?:es)? automatically', 'may take a (?:few|couple of) seconds', 'only take a (?:moment|few seconds)', 'you(?: will|\'ll) be (?:redirected|forwarded)', 'redirecting', 'please wait',
  'kann einige sekunden dauern', '(?:sie werden|du wirst) (?:gleich |in \\d+ sekunden )?(?:automatisch )?weitergeleitet', 'vous (?:allez|serez) (?:être )?redirigé',
  '(?:serás|será) redirigido', 'nastąpi przekierowanie', 'verrai reindirizzato', 'je wordt (?:over \\d+ seconden )?doorgestuurd', 'peut prendre quelques secondes', 'puede tardar unos segundos',
  'pode levar alguns segundos', 'potrebbe richiedere alcuni secondi', 'может занять несколько секунд', 'подождите',
  'birkaç saniye sürebilir', '잠시 후', '잠시만 기다려', '数秒かかる', 'しばらくお待ちください', '请稍候', '請稍候', '请稍等', '請稍等', '[请請](?:耐心)?等[待候]', '秒后自动跳转', '秒後自動跳轉', '可能需要几秒', '可能需要幾秒', 'قد يستغرق هذا'
].join('|'), 'i')
