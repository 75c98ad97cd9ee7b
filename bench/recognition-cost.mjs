// What recognition costs on hostile pages: each repeats the literal one of its patterns starts
// with, or the whitespace two of its quantifiers share, 200 000 characters long. Before the
// eighteenth review bounded those patterns, such pages took seconds to minutes (the slowest, an
// app shell's blank lines, four minutes). Printed, and recorded in docs/performance.md
// ("Recognition on hostile pages"); no test times it. Run with `npm run bench:recognition`.
import { recognizePage } from '../dist/core/challenge.js'

const SIZE = 200_000
const rep = unit => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE)
const page = (body, more = {}) => ({ status: 200, url: 'https://shop.test/page', title: '', html: `<html><head></head><body>${body}</body></html>`, text: 'hello', headers: {}, ...more })

const HOSTILE = [
  ['a script address of "captcha" repeated', page(`<script src="${rep('captcha')}"></script>`)],
  ['a script address of "/ips.js?" repeated', page(`<script src="${rep('/ips.js?')}"></script>`)],
  ['a script address of "awswaf.com/" repeated', page(`<script src="${rep('awswaf.com/')}"></script>`)],
  ['a script address of "px-cdn.net/" repeated', page(`<script src="${rep('px-cdn.net/')}"></script>`)],
  ['a frame address of "hcaptcha.com/" repeated', page(`<iframe src="${rep('hcaptcha.com/')}"></iframe>`)],
  ['a link query of "ref" repeated on a gate', page(`<div class="g-recaptcha"></div><script src="https://www.google.com/recaptcha/api.js"></script><a href="?${rep('ref')}">x</a>`, { status: 403, text: 'Verify you are human' })],
  ['an inline script of "var dd={" repeated', page(`<script>${rep('var dd={')}</script>`)],
  ['an app shell whose script is blank lines', page(`<div id="root"></div><script>${rep('\n')}document.cookie="a=b";location.reload()</script>`, { text: '' })],
  ['an app shell whose script repeats "}import "', page(`<div id="root"></div><script>${rep('}import ')}document.cookie="a=b";location.reload()</script>`, { text: '' })],
  ['a blank page whose script repeats "setcookie("', page(`<script>${rep('setcookie(')}</script>`, { text: '' })],
  ['a blank page whose script repeats "/captcha?"', page(`<script>location.href=x;${rep('/captcha?')}</script>`, { text: '' })],
  ['a blank proof of work whose script repeats "for("', page(`<script>document.cookie="a";crypto.subtle.digest(1);${rep('for(')}</script>`, { text: '' })],
  ['a short text of "reference" and spaces', page('x', { text: `reference${' '.repeat(SIZE)}` })],
  ['a short text of "support id" and spaces', page('x', { text: `support id${' '.repeat(SIZE)}` })],
  ['a title of "провер" repeated', page('x', { title: rep('провер') })],
  // The reader of raw markup (thirty-third review): closing tags read to their ">", comments and
  // inline SVG in the same pass.
  ['a stylesheet of "</style " repeated, no ">" after', { ...page(''), html: `<style>p{}</style><style>${rep('</style ')}` }],
  ['comments never closed, "<!--" repeated', page(`<script>a</script>${rep('<!--')}`)],
  ['inline SVG of "<svg><style/>" repeated', page(rep('<svg><style/>'))],
  ['"<svg " repeated, no ">" after', { ...page(''), html: `<html><body>${rep('<svg ')}` }]
]

let slowest = 0
for (const [name, obs] of HOSTILE) {
  const start = performance.now()
  recognizePage(obs)
  const ms = performance.now() - start
  slowest = Math.max(slowest, ms)
  console.log(`${ms.toFixed(1).padStart(8)} ms  ${name}`)
}
console.log(`slowest: ${slowest.toFixed(1)} ms over ${HOSTILE.length} hostile pages of ${SIZE} characters`)
