// The direction of dependencies in src/ (docs/architecture.md "Layers"), checked by `npm run lint`:
// a module may import its own area and the areas of lower layers, never a higher one; the pure
// core imports no I/O; the panel page imports only what a browser can run; and no file cycle
// exists, type-only imports included (a cycle of types still ties two files' meaning together).
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, posix, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/** Lowest first. An area is a folder of src/, or a file at its top named without `.ts`. */
export const LAYERS = [
  { name: 'words and limits', areas: ['limits', 'version', 'errors', 'vocabulary', 'logger'], why: 'constants, limits, error codes: import nothing of ours above them' },
  { name: 'schemas', areas: ['schemas'], why: 'TypeBox shapes that type, validate, serialize and document' },
  { name: 'pure core', areas: ['core'], why: 'decisions without I/O, unit-tested without a browser' },
  { name: 'configuration and client', areas: ['config', 'client'], why: 'the environment read once; the HTTP client the CLI and MCP server share' },
  { name: 'services', areas: ['store', 'tabs', 'browser', 'page-ui', 'fetch', 'handoffs', 'panel', 'events', 'audit', 'inbox', 'metrics', 'mcp'], why: 'files, browsers, pages, sockets and timers: the state the host keeps' },
  { name: 'plugins', areas: ['plugins'], why: 'short wiring: decorate the app with services' },
  { name: 'routes', areas: ['routes'], why: 'thin HTTP handlers over the services' },
  { name: 'entry points', areas: ['app', 'server', 'cli', 'docs'], why: 'build the app, run it, print the docs' }
]

/** The panel page runs in the viewer's browser: these host modules are pure and safe to bundle. */
export const PANEL_PAGE_MAY_IMPORT = ['core', 'limits', 'vocabulary', 'panel/messages.ts', 'panel/frame-codec.ts']

/** The only packages the pure core may import (hashing, fresh random ids, address parsing, paths). */
export const CORE_PACKAGES = ['node:crypto', 'node:net', 'node:path', 'typebox']

const IMPORT_RE = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g

/** The area of a path relative to src/ (posix separators). */
export function areaOf (file) {
  const parts = file.split('/')
  return parts.length === 1 ? parts[0].replace(/\.ts$/, '') : parts[0]
}

function layerOf (area) {
  return LAYERS.findIndex((l) => l.areas.includes(area))
}

/** Every import of one source text: the specifier as written. */
export function importsOf (source) {
  return [...source.matchAll(IMPORT_RE)].map((m) => m[1] ?? m[2])
}

/**
 * The problems of a set of modules: `files` maps a path relative to src/ (posix) to its source.
 * Pure, so the rules are tested on sources written for the test as well as on the real tree.
 */
export function checkLayers (files) {
  const problems = []
  const edges = new Map()
  for (const [file, source] of files) {
    const from = areaOf(file)
    const fromLayer = layerOf(from)
    if (fromLayer < 0 && from !== 'panel-page') problems.push(`${file}: the area "${from}" is in no layer (add it to LAYERS in scripts/check-layers.mjs and to docs/architecture.md)`)
    const targets = []
    for (const spec of importsOf(source)) {
      if (!spec.startsWith('.')) {
        if (from === 'core' && !CORE_PACKAGES.includes(spec)) problems.push(`${file}: the pure core imports "${spec}"; I/O belongs to a service`)
        continue
      }
      const target = posix.normalize(posix.join(posix.dirname(file), spec)).replace(/\.js$/, '.ts')
      if (target.startsWith('..')) continue
      targets.push(target)
      const to = areaOf(target)
      if (to === from) continue
      if (from === 'panel-page') {
        if (!PANEL_PAGE_MAY_IMPORT.includes(to) && !PANEL_PAGE_MAY_IMPORT.includes(target)) problems.push(`${file}: the panel page imports ${target}, which a browser cannot run (allowed: ${PANEL_PAGE_MAY_IMPORT.join(', ')})`)
        continue
      }
      const toLayer = layerOf(to)
      if (toLayer > fromLayer) problems.push(`${file}: imports ${target} — "${from}" (${LAYERS[fromLayer].name}) may not depend on "${to}" (${LAYERS[toLayer].name})`)
    }
    edges.set(file, targets)
  }
  for (const cycle of cyclesOf(edges)) problems.push(`file cycle: ${cycle.join(' → ')} → ${cycle[0]}`)
  return problems
}

/** Strongly connected components of more than one file, or a file importing itself (Tarjan). */
export function cyclesOf (edges) {
  let next = 0
  const index = new Map()
  const low = new Map()
  const stack = []
  const onStack = new Set()
  const cycles = []
  const visit = (v) => {
    index.set(v, next); low.set(v, next); next++
    stack.push(v); onStack.add(v)
    for (const w of edges.get(v) ?? []) {
      if (!edges.has(w)) continue
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))) } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)))
    }
    if (low.get(v) !== index.get(v)) return
    const component = []
    let w
    do { w = stack.pop(); onStack.delete(w); component.push(w) } while (w !== v)
    if (component.length > 1 || (edges.get(v) ?? []).includes(v)) cycles.push(component.reverse())
  }
  for (const v of edges.keys()) if (!index.has(v)) visit(v)
  return cycles
}

/** The modules of a src/ directory, as checkLayers takes them. */
export function readTree (srcDir) {
  const files = new Map()
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (name.endsWith('.ts')) files.set(relative(srcDir, path).split('\\').join('/'), readFileSync(path, 'utf8'))
    }
  }
  walk(srcDir)
  return files
}

/** The layer table docs/architecture.md carries (checked by test/scripts/check-layers.test.ts). */
export function renderLayerTable () {
  const rows = LAYERS.map((l, i) => `| ${i + 1} | ${l.name} | ${l.areas.map((a) => `\`${a}\``).join(', ')} | ${l.why} |`)
  return ['| layer | name | areas of `src/` | what lives there |', '|---|---|---|---|', ...rows].join('\n')
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const srcDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'src')
  const problems = checkLayers(readTree(srcDir))
  for (const p of problems) console.error(p)
  if (problems.length) {
    console.error(`${problems.length} dependency problem(s); the rules: docs/architecture.md "Layers"`)
    process.exitCode = 1
  }
}
