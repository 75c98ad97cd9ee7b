// The panel page's scripts (issue 9): the host serves exactly the modules the compiled page
// imports, found in the build itself, and preloads them from the document; nothing else of the
// build is reachable, and a page module that imports something a browser cannot load is refused.
import t from 'tap'
import { readFile } from 'node:fs/promises'
import { startHost } from '../helpers/host.js'
import { importsOf, pageModules, PANEL_ENTRY, preloadLinks, resolveImport } from '../../src/panel/page-modules.js'

const WWW = new URL('../../dist/www/', import.meta.url).pathname

t.test('imports are read from compiled modules as a browser would follow them', async (t) => {
  const src = [
    "import { View } from './view.js';",
    "import { a, b,\n  c } from '../core/coords.js';",
    "export { x } from \"../limits.js\";",
    "import './side-effect.js';",
    "export const y = 1;",
    "const s = \"import { z } from './not-an-import.js'\";"
  ].join('\n')
  t.same(importsOf(src), ['./view.js', '../core/coords.js', '../limits.js', './side-effect.js'])
  t.equal(resolveImport('/panel-page/view.js', '../core/coords.js'), '/core/coords.js')
  t.equal(resolveImport('/panel-page/panel.js', './view.js'), '/panel-page/view.js')
  t.throws(() => resolveImport('/panel-page/panel.js', 'ws'), /a browser cannot load/)
  t.throws(() => resolveImport('/panel-page/panel.js', 'node:fs'), /a browser cannot load/)
  t.throws(() => resolveImport('/panel-page/panel.js', '../../../etc/passwd'), /outside/)
  t.equal(preloadLinks(['/panel-page/panel.js', '/core/coords.js'], 'lib/'), '<link rel="modulepreload" href="lib/core/coords.js">')
})

t.test('the built page: every module it loads, and only those, from a live host', async (t) => {
  const modules = await pageModules(WWW)
  t.equal(modules[0], PANEL_ENTRY)
  for (const m of ['/panel-page/view.js', '/panel-page/pointer.js', '/panel-page/keyboard.js', '/panel-page/connection.js', '/panel-page/page-ui.js', '/core/coords.js', '/panel/frame-codec.js', '/limits.js']) {
    t.ok(modules.includes(m), `the page loads ${m}`)
  }
  t.notOk(modules.includes('/panel/messages.js'), 'types the page imports leave nothing to load')

  const host = await startHost(t, { startBrowser: false })
  for (const m of modules) {
    const res = await fetch(`${host.url}/panel/lib${m}`)
    t.equal(res.status, 200, `${m} is served`)
    t.match(res.headers.get('content-type'), /javascript/)
    t.equal(await res.text(), await readFile(WWW + m.slice(1), 'utf8'), `${m} is the build's own file`)
    t.equal((await fetch(`${host.url}/panel/lib${m}.map`)).status, 200, `${m} has its source map`)
  }
  for (const m of ['/panel/messages.js', '/config.js', '/panel-page/stats.js', '/../dist/config.js', '/core/handoff.js']) {
    t.equal((await fetch(`${host.url}/panel/lib${m}`)).status, 404, `${m} is not served`)
  }
  t.equal((await fetch(`${host.url}/panel/lib/panel-page/panel.ts`)).status, 404, 'nor any source')
})

t.test('the document preloads what the page imports', async (t) => {
  const html = await readFile(new URL('../../panel/index.html', import.meta.url), 'utf8')
  t.match(html, '<!-- afhttp:modulepreload -->', 'the document has the place the host fills in')
  t.match(html, '<script type="module" src="lib/panel-page/panel.js">')
  t.notMatch(html, /modulepreload" href/, 'and no list of its own')
})
