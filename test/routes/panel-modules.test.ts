// The panel page's scripts (issues 9, 22): one bundle built by esbuild (scripts/build-panel.mjs)
// from the page's modules and the pure host modules it shares with the host, and the document's
// first script that opens the socket while the bundle loads, each with its source map. The host
// serves exactly those four files; a script that still imports anything (a module a browser would
// have to fetch one by one) is refused at start.
import t from 'tap'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startHost } from '../helpers/host.js'
import { importsOf, PANEL_BUNDLE, PANEL_EARLY, panelFiles } from '../../src/panel/page-modules.js'

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
  await writeFile(join(dir, 'panel.js'), 'var a=1;export{a as b}')
  await writeFile(join(dir, 'early.js'), "import'./held-socket.js'")
  await t.rejects(panelFiles(dir), /early\.js imports ".\/held-socket\.js"/, 'so is a first script that imports')
})

t.test('the built page: one self-contained bundle and a first script, each with its source map', async (t) => {
  t.same(await panelFiles(WWW), [PANEL_BUNDLE, `${PANEL_BUNDLE}.map`, PANEL_EARLY, `${PANEL_EARLY}.map`])
  const early = await readFile(`${WWW}early.js`, 'utf8')
  t.match(early, /\/\/# sourceMappingURL=early\.js\.map\s*$/, 'the first script names its source map')
  t.ok(early.length < 2_000, `the first script is small (${early.length} bytes): it runs before anything else has loaded`)
  t.notMatch(early, /^\s*(import|export)\b/m, 'and is a classic script, not a module')
  const earlyMap = JSON.parse(await readFile(`${WWW}early.js.map`, 'utf8')) as { sources: string[] }
  t.same(earlyMap.sources.map((s) => s.replace(/^.*src\//, '')).sort(), ['panel-page/early.ts', 'panel-page/held-socket.ts'], 'it holds the socket and nothing else')
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

t.test('a live host serves the scripts and their maps, and nothing else of the build', async (t) => {
  const host = await startHost(t, { startBrowser: false })
  for (const script of ['panel.js', 'early.js']) {
    const res = await fetch(`${host.url}/panel/lib/${script}`)
    t.equal(res.status, 200, `${script} is served`)
    t.match(res.headers.get('content-type'), /javascript/)
    t.equal(await res.text(), await readFile(`${WWW}${script}`, 'utf8'), 'the build\'s own file')
    const map = await fetch(`${host.url}/panel/lib/${script}.map`)
    t.equal(map.status, 200, 'and its source map')
  }
  for (const m of ['/panel-page/panel.js', '/core/coords.js', '/panel/messages.js', '/config.js', '/../dist/config.js', '/panel-page/panel.ts']) {
    t.equal((await fetch(`${host.url}/panel/lib${m}`)).status, 404, `${m} is not served`)
  }
})

t.test('the document runs the first script before its stylesheet, then the bundle', async (t) => {
  const html = await readFile(new URL('../../panel/index.html', import.meta.url), 'utf8')
  t.match(html, '<script type="module" src="lib/panel.js"></script>')
  const early = html.indexOf('<script src="lib/early.js"></script>')
  t.ok(early > 0 && early < html.indexOf('<link rel="stylesheet"'), 'the first script comes before the stylesheet, which would hold it back')
  t.equal(html.match(/<script/g)?.length, 2, 'and no other script')
  t.notMatch(html, /modulepreload/, 'nothing left to preload')
})
