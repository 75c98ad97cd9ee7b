// The dependency rules `npm run lint` enforces (docs/architecture.md "Layers"): the real tree
// keeps them, and each rule catches the break it is for.
import t from 'tap'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { checkLayers, importsOf, readTree, renderLayerTable, LAYERS } from '../../scripts/check-layers.mjs'

const SRC = fileURLToPath(new URL('../../src', import.meta.url))

t.test('src/ keeps every rule: no upward import, no I/O in the core, no file cycle', async (t) => {
  const tree = readTree(SRC)
  t.ok(tree.size > 200, `the whole tree is read (${tree.size} modules)`)
  t.same(checkLayers(tree), [])
})

t.test('every area of src/ is in exactly one layer', async (t) => {
  const areas = LAYERS.flatMap((l) => l.areas)
  t.equal(new Set(areas).size, areas.length, 'no area in two layers')
})

t.test('imports are read whatever their form', async (t) => {
  const source = [
    "import a from './a.js'",
    "import type { B } from '../b.js'",
    'import {',
    '  c,',
    '  type D',
    "} from './c.js'",
    "export { e } from './e.js'",
    "export * from './f.js'",
    "import './side-effect.js'",
    "const g = await import('./g.js')",
    "import { readFile } from 'node:fs/promises'"
  ].join('\n')
  t.same(importsOf(source), ['./a.js', '../b.js', './c.js', './e.js', './f.js', './side-effect.js', './g.js', 'node:fs/promises'])
})

t.test('each rule catches its break', async (t) => {
  const problems = checkLayers(new Map([
    ['schemas/x.ts', "import { y } from '../core/y.js'"],
    ['core/y.ts', "import { readFile } from 'node:fs/promises'\nimport type { Z } from './z.js'"],
    ['core/z.ts', "import type { Y } from './y.js'"],
    ['panel-page/p.ts', "import { relay } from '../panel/input-relay.js'\nimport { decode } from '../panel/frame-codec.js'"],
    ['routes/r.ts', "import app from '../app.js'"],
    ['wild/w.ts', '']
  ]))
  t.match(problems, [
    /^schemas\/x\.ts: imports core\/y\.ts — "schemas" \(schemas\) may not depend on "core" \(pure core\)$/,
    /^core\/y\.ts: the pure core imports "node:fs\/promises"/,
    /^panel-page\/p\.ts: the panel page imports panel\/input-relay\.ts/,
    /^routes\/r\.ts: imports app\.ts — "routes" \(routes\) may not depend on "app"/,
    /^wild\/w\.ts: the area "wild" is in no layer/,
    /^file cycle: core\/y\.ts → core\/z\.ts → core\/y\.ts$/
  ])
  t.equal(problems.length, 6, 'nothing else: frame-codec is allowed in the panel page')
})

t.test('docs/architecture.md carries the layer table the rules use', async (t) => {
  const doc = await readFile(new URL('../../docs/architecture.md', import.meta.url), 'utf8')
  t.ok(doc.includes(renderLayerTable()), 'the table in the doc is the rendered one (node -e "import(\'./scripts/check-layers.mjs\').then(m => console.log(m.renderLayerTable()))")')
})
