import t from 'tap'
import { closedOverlays, closingOf, dialogTexts, elements, footerBlocks, headingText, hiddenBlocks, outermost, replaceElements, sideBlocks, textOf } from '../../src/core/markup-elements.js'

// Reading raw markup by its elements (src/core/markup-elements.ts): the pieces recognition builds
// on, each on the smallest markup that shows it.

t.test('textOf keeps the words and drops scripts, styles, tags and character references', async t => {
  const words = textOf('<p>Ray&nbsp;ID: <b>abc</b></p><script>var hidden = 1</script><style>p{}</style><style-swatch>kept</style-swatch>')
  t.same(words.split(/\s+/).filter(Boolean), ['Ray', 'ID:', 'abc', 'kept'])
})

t.test('elements runs each element to its first closing tag; an unclosed one runs to the end only when asked', async t => {
  const markup = '<nav>a</nav><p>x</p><nav>b'
  t.same(elements(markup, 'nav', false), [[0, 12]])
  t.same(elements(markup, 'nav', true), [[0, 12], [20, markup.length]])
  t.same(elements('<navigation>', 'nav', true), [], '<navigation> is no <nav>')
})

t.test('closingOf counts nested elements of the same name, and stops at its limit', async t => {
  const markup = '<div><div>inner</div>outer</div>after'
  t.equal(closingOf(markup, 5, 'div', markup.length), markup.indexOf('</div>', 16), 'the outer closing tag, past the inner one')
  t.equal(closingOf(markup, 5, 'div', 10), 10, 'the limit when the closing tag lies beyond it')
  t.equal(closingOf('<div>never closed', 5, 'div', 100), '<div>never closed'.length, 'the end of the markup before the limit')
})

t.test('outermost keeps the spans not inside another', async t => {
  t.same(outermost([[10, 20], [0, 30], [12, 15], [40, 50]]), [[0, 30], [40, 50]])
})

t.test('footerBlocks finds footers built of other elements, each read to its own closing tag', async t => {
  const markup = '<div class="main"><p>body</p></div><div class="site-footer"><div>links</div></div><section role="contentinfo">c</section>'
  const spans = footerBlocks(markup)
  t.same(spans.map(([start, end]) => markup.slice(start, end)), ['<div class="site-footer"><div>links</div>', '<section role="contentinfo">c'])
  t.same(footerBlocks('<div class="footerless">x</div><div class="footer-links">y</div>'), [], 'a class that only begins with "footer" is not one')
})

t.test('sideBlocks finds sidebars, navigation and banner landmarks, and cookie banners, each read up to its own closing tag', async t => {
  const markup = '<div id="left-sidebar"><div>menu</div></div><main class="sidebar">m</main><div role="navigation">n</div>' +
    '<div class="ff bar js-consent-banner"><p>cookies</p></div><div class="has-sidebar">x</div><form class="consent-form">f</form><div class="CybotCookiebotDialog">c</div>'
  t.same(sideBlocks(markup).map(([start, end]) => markup.slice(start, end)),
    ['<div id="left-sidebar"><div>menu</div>', '<div role="navigation">n', '<div class="ff bar js-consent-banner"><p>cookies</p>', '<div class="CybotCookiebotDialog">c'])
})

t.test('closedOverlays finds the modals, popups and overlays a page keeps closed, not the open ones', async t => {
  const markup = '<div class="c-overlay-container"><div class="c-overlay"><form>f</form></div></div><div class="modal fade show">open</div>' +
    '<div class="newsletter-popup" style="display: block">shown</div><div class="popup-trigger">link</div><div class="modal" aria-hidden="true">closed</div>' +
    '<div class="overlay is-open">open</div><body class="modal-open">'
  t.same(closedOverlays(markup).map(([start, end]) => markup.slice(start, end)),
    ['<div class="c-overlay-container"><div class="c-overlay"><form>f</form></div>', '<div class="modal" aria-hidden="true">closed'])
})

t.test('dialogTexts reads visible dialogs only, to their own closing tag', async t => {
  const markup = '<div role="dialog"><p>Are you human?</p></div><p>outside</p>' +
    '<div role="dialog" hidden><p>hidden one</p></div><details open><p>not a dialog</p></details><dialog open>native</dialog>'
  t.same([...dialogTexts(markup)].map(text => text.trim().replace(/\s+/g, ' ')), ['Are you human?', 'native'])
})

t.test('headingText reads the first- and second-level headings', async t => {
  t.equal(headingText('<h1>One <i>step</i></h1><h3>not this</h3><h2>Two</h2>').replace(/\s+/g, ' ').trim(), 'One step Two')
})

t.test('replaceElements reads comments and raw-text elements in one pass, as the lazy pattern does; an unclosed element runs to the end', async t => {
  const lazy = /<!--[\s\S]*?-->|<(script|style)(?=[\s/>])((?:[^>"']|"[^"]*"|'[^']*')*)>([\s\S]*?)(?:<\/\1(?=[\s/>])[^>]*>|$)/gi
  const open = /<(script|style)(?=[\s/>])((?:[^>"']|"[^"]*"|'[^']*')*)>/gi
  const shown = (_m: string, name?: string, attrs?: string, body?: string): string => name === undefined ? '' : `[${name}|${attrs ?? ''}|${body ?? ''}]`
  for (const markup of [
    '<p>a</p><script>var x = "<b>"</script><p>b</p>', '<STYLE a>p{}</style ><style-swatch>kept</style-swatch>', '<script>never closed<p>text</p>',
    '<style a><style a><style a></style>after', '<script src="x.js"></script><script>1</SCRIPT><script>2', '<style>a</script>b</style><script>c</style>d</script>',
    '<script a=">">x</script>', '<script '.repeat(50), '',
    // Comments: left out outside the elements, the elements' text inside them.
    'a<!-- b -->c<!--d-->e', '<!-->x-->y', 'a<!-- never closed', '<!-- one --><!-- two', '<!--'.repeat(20), 'no comment',
    '<style><!-- p{} </style><p>shown</p><!-- later -->', '<!-- <script> -->after<script>x</script>', 'a<!-- never closed <script>x</script>b',
    // A closing tag runs to its ">" whatever stands between (a theme's "</style\n</head>").
    '<style>p{}</style\n</head><body><p>shown</p>', '<script>a</scripts>b</script>c', '<style>a</style x="1">b'
  ]) {
    t.equal(replaceElements(markup, open, ([, name, attrs], body) => `[${name}|${attrs}|${body}]`), markup.replace(lazy, shown), JSON.stringify(markup))
  }
  t.equal(replaceElements('<p>Just a moment</p><script>var a = "cut off', open, () => ''), '<p>Just a moment</p>', 'a capture cut off inside its script ends in it')
  // Inside inline SVG a self-closing <style/> is empty: the icon's paths and the page after it stay.
  t.equal(replaceElements('<svg><style/><path d="M1"/></svg><p>after</p>', open, ([, name]) => `[${name}]`), '<svg>[style]<path d="M1"/></svg><p>after</p>', 'a self-closing style in SVG')
  t.equal(replaceElements('<SVG viewBox="0 0 1 1"><title>Icon</title></SVG><style/><p>swallowed', open, ([, name], body) => `[${name}|${body}]`), '<SVG viewBox="0 0 1 1"><title>Icon</title></SVG>[style|<p>swallowed]',
    'out of SVG, "/>" closes no raw-text element')
  t.equal(replaceElements('<svg/><style/><p>swallowed', open, ([, name], body) => `[${name}|${body}]`), '<svg/>[style|<p>swallowed]', 'a self-closing svg holds nothing')
})

t.test('hiddenBlocks finds the elements their own markup hides, each to its own closing tag', async t => {
  const markup = '<div style="visibility: hidden"><div><iframe></iframe></div></div><p hidden>x</p><p style="display:none">y</p><p style="display:block">z</p><p data-hidden="1">w</p>'
  t.same(hiddenBlocks(markup).map(([start, end]) => markup.slice(start, end)), ['<div style="visibility: hidden"><div><iframe></iframe></div>', '<p hidden>x', '<p style="display:none">y'])
  t.same(hiddenBlocks('<div style="color: red" title="visibility: hidden">a</div><input type="hidden">'), [], 'a hidden-looking title, a hidden input type')
})
