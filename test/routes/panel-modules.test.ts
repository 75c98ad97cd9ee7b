// The panel page's script (issues 9, 22): one bundle built by esbuild (scripts/build-panel.mjs)
// from the page's modules and the pure host modules it shares with the host, with its source
// map. The host serves exactly those two files; a bundle that still imports anything (a module
// a browser would have to fetch one by one) is refused at start.
import t from 'tap'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startHost } from '../helpers/host.js'
import { importsOf, PANEL_BUNDLE, panelFiles } from '../../src/panel/page-modules.js'

const WWW = new URL('../../dist/www/', import.meta.url).pathname

t.test('imports are read from built modules as a browser would follow them', async (t) => {
  const src = [
    "import { View } from './view.js';",
    "import { a, b,\n  c } from '../core/coords.js';",
    "export { x } from \"../limits.js\";",
    "import './side-effect.js';",
    "const m = import('./later.js');",
    "export const y = 1;"
  ].join('\n')
  t.same(importsOf(src), ['./view.js', '../core/coords.js', '../limits.js', './side-effect.js', './later.js'])
  t.same(importsOf('var a=1;export{a as b};function f(){return"import me"}'), [], 'a bundle\'s own exports and strings are not imports')
  const dir = await mkdtemp(join(tmpdir(), 'afhttp-www-'))
  await writeFile(join(dir, 'panel.js'), "import{x}from'./coords.js';x()")
  await t.rejects(panelFiles(dir), /must be self-contained/, 'a bundle that imports is a build error')
})

t.test('the built page: one self-contained bundle with its source map', async (t) => {
  t.same(await panelFiles(WWW), [PANEL_BUNDLE, `${PANEL_BUNDLE}.map`])
  const bundle = await readFile(`${WWW}panel.js`, 'utf8')
  t.match(bundle, /\/\/# sourceMappingURL=panel\.js\.map\s*$/, 'it names its source map')
  const map = JSON.parse(await readFile(`${WWW}panel.js.map`, 'utf8')) as { sources: string[], sourcesContent: string[] }
  // The page's own modules and the host's pure ones it shares (one implementation of the
  // coordinate maths, the frame format and the limits), each with its source for debugging.
  for (const m of ['panel-page/panel.ts', 'panel-page/view.ts', 'panel-page/pointer.ts', 'panel-page/keyboard.ts', 'panel-page/connection.ts', 'panel-page/outbox.ts', 'panel-page/page-ui.ts', 'core/coords.ts', 'panel/frame-codec.ts', 'limits.ts']) {
    const i = map.sources.findIndex((s) => s.endsWith(`src/${m}`))
    t.ok(i >= 0, `the bundle holds src/${m}`)
    t.ok(map.sourcesContent[i]?.length > 0, `with its source in the map (src/${m})`)
  }
  t.notOk(map.sources.some((s) => /node_modules|src\/(config|app|plugins|routes)\b/.test(s)), 'nothing of the host\'s Node side is bundled')
})

t.test('a live host serves the bundle and its map, and nothing else of the build', async (t) => {
  const host = await startHost(t, { startBrowser: false })
  const res = await fetch(`${host.url}/panel/lib/panel.js`)
  t.equal(res.status, 200, 'the bundle is served')
  t.match(res.headers.get('content-type'), /javascript/)
  t.equal(await res.text(), await readFile(`${WWW}panel.js`, 'utf8'), 'the build\'s own file')
  const map = await fetch(`${host.url}/panel/lib/panel.js.map`)
  t.equal(map.status, 200, 'and its source map')
  for (const m of ['/panel-page/panel.js', '/core/coords.js', '/panel/messages.js', '/config.js', '/../dist/config.js', '/panel-page/panel.ts']) {
    t.equal((await fetch(`${host.url}/panel/lib${m}`)).status, 404, `${m} is not served`)
  }
})

t.test('the document loads the bundle, one script', async (t) => {
  const html = await readFile(new URL('../../panel/index.html', import.meta.url), 'utf8')
  t.match(html, '<script type="module" src="lib/panel.js"></script>')
  t.equal(html.match(/<script/g)?.length, 1, 'and no other script')
  t.notMatch(html, /modulepreload/, 'nothing left to preload')
})
