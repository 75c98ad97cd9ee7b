import t from 'tap'
import { visibleText } from '../helpers/visible-text.js'

// The stand-in for Chromium's innerText that the pure recognition tests read real pages with
// (test/helpers/visible-text.ts): it must leave out what a browser does not show.

t.test('an element hidden by its inline style is left out with everything inside it', async t => {
  const html = '<body><div id="es">Hola</div><div id="de" style="display: none"><div><p>Hallo<p>Welt</div></div><p>Fin</p></body>'
  t.equal(visibleText(html), 'Hola\nFin', 'nested divs and unclosed paragraphs inside it')
  t.equal(visibleText('<body><section style="color:red;display:none">x</section><section>y</section></body>'), 'y', 'display:none after another property')
  t.equal(visibleText('<body><div style="display:block">seen</div></body>'), 'seen')
  t.equal(visibleText('<body><div data-style="display:none">seen</div></body>'), 'seen', 'only the style attribute')
  t.equal(visibleText('<body><section><span style="display:none">hidden<b>x</b></section><p>After</p></body>'), 'After',
    "a hidden element never closed ends where its parent does, as the browser's parser has it")
})

t.test('the hidden attribute is kept: streamed pages move such content into place with their script', async t => {
  t.equal(visibleText('<body><div hidden id="S:0"><p>Track title</p></div></body>'), 'Track title')
})

t.test("a '<' that opens no tag is text, as the browser's tokenizer has it", async t => {
  t.equal(visibleText('<body>Your support ID is: < 3703682402122042742></body>'), 'Your support ID is: < 3703682402122042742>')
  t.equal(visibleText('<body><p>1 < 2 and 3 > 2</p><!-- note --><p>end</p></body>'), '1 < 2 and 3 > 2\nend')
  t.equal(visibleText('<!DOCTYPE html><?xml-stylesheet x?><body><b>bold</b></body>'), 'bold', 'declarations and tags still go')
})

t.test('a closed <details> shows its summary only; an open one shows all', async t => {
  const details = (attrs: string): string => `<body><p>Checking</p><details${attrs}><summary>Why am I seeing this?</summary><p>Because of scrapers.</p></details><p>End</p></body>`
  t.equal(visibleText(details('')), 'Checking\nWhy am I seeing this?\nEnd')
  t.equal(visibleText(details(' class="why"')), 'Checking\nWhy am I seeing this?\nEnd', 'other attributes keep it closed')
  t.equal(visibleText(details(' open')), 'Checking\nWhy am I seeing this?\nBecause of scrapers.\nEnd')
})

t.test("an element the page's own stylesheet hides by its id or a class is left out; a rule inside @media is not read", async t => {
  const page = (css: string): string => `<head><style>${css}</style></head><body><div id="loading-error" role="alert">A required part of this site couldn't load.</div><p>Shown</p></body>`
  t.equal(visibleText(page('#loading-error { font-size: 16px; display: none; }')), 'Shown')
  t.equal(visibleText(page('h1, #loading-error { display:none }')), 'Shown', 'one of a list of selectors')
  t.equal(visibleText(page('#loading-error { display: block }')), "A required part of this site couldn't load.\nShown")
  t.equal(visibleText(page('.box #loading-error { display: none }')), "A required part of this site couldn't load.\nShown", 'only a rule for the id alone')
  t.equal(visibleText(page('@media (max-width: 600px) { #loading-error { display: none } }')), "A required part of this site couldn't load.\nShown", 'a rule for some screens only')
  t.equal(visibleText(page('@media (max-width: 600px) { #x { color: red } } #loading-error { display: none }')), 'Shown', 'a rule beside an @media block')
  t.equal(visibleText(page('} #loading-error { display: none }')), 'Shown', 'a rule after a stray closing brace')
  t.equal(visibleText(page('#loading-error { display: none')), "A required part of this site couldn't load.\nShown", 'a rule never closed')
  const classed = (css: string, style = ''): string => `<head><style>${css}</style></head><body><div class="r-1 r-hv"${style}>Something went wrong.</div><p>Shown</p></body>`
  t.equal(visibleText(classed('.r-hv { display: none; }')), 'Shown', 'a rule for one of its classes')
  t.equal(visibleText(classed('.r-1.r-hv { display: none; }')), 'Something went wrong.\nShown', 'not a rule for classes together')
  t.equal(visibleText(classed('.r-hv { display: none; }', ' style="display: flex"')), 'Something went wrong.\nShown', 'its own style shows it')
  // X's pages hide their app for browsers without script, in a stylesheet inside <noscript>.
  const x = '<head><noscript><style>#react-root { display: none }</style></noscript></head><body><div id="react-root"><p>Home</p></div></body>'
  t.equal(visibleText(x), 'Home', 'a stylesheet inside <noscript> hides nothing from a browser that runs script')
})

t.test("NUL characters in the body's text are dropped, as the tree builder drops them", async t => {
  // A check's page padded with NUL bytes to a round size (Jiasule's, thirty-first review) shows nothing.
  t.equal(visibleText(`<body><script>var x = 1</script>${'\u0000'.repeat(64)}</body>`), '')
  t.equal(visibleText('<body><p>a\u0000b</p></body>'), 'ab')
})

t.test('comments and raw-text elements are read in one pass, as the tokenizer reads them', async t => {
  // A "<!--" inside a stylesheet is its text: the stylesheet still ends at its own closing tag
  // (VWR's product page keeps an Angular template there, thirty-third review).
  t.equal(visibleText('<body><style><!-- .a{} </style><p>Shown</p><!-- a comment --></body>'), 'Shown')
  // A "</head>" inside a comment in the head closes nothing (Imunify360's captcha template).
  t.equal(visibleText('<head><!-- This goes inside <head></head> tags --></head><body><p>Body</p></body>'), 'Body')
  t.equal(visibleText('<body><p>Before</p><!-- <script> -->after</body>'), 'Before\nafter', 'a script tag inside a comment opens nothing')
  t.equal(visibleText('<body><p>Shown</p><script>var cut = "off'), 'Shown', 'a script never closed runs to the end')
  // Inline SVG is foreign content: its self-closing <style/> is empty (an icon sprite's, thirty-third review).
  t.equal(visibleText('<body><svg><style/><path d="M1"/></svg><p>Shown</p></body>'), 'Shown', 'a self-closing style in SVG')
  t.equal(visibleText('<body><style/><p>Swallowed</p></body>'), '', 'out of SVG it is a stylesheet never closed')
})
