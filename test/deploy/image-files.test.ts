// The image and the npm package ship what the panel needs (issues 9, 22): the panel page is
// bundled by scripts/build-panel.mjs, so the build stage must get that script, and the runtime and
// the package must hold the bundled page (dist/www) and the document (panel/).
import t from 'tap'
import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import { PANEL_FILES } from '../../src/panel/page-modules.js'

const root = new URL('../..', import.meta.url).pathname

/** The instructions of each stage of the Dockerfile, by stage name. */
function stages (dockerfile: string): Map<string, string[]> {
  const out = new Map<string, string[]>()
  let current: string[] = []
  for (const line of dockerfile.replace(/\\\n/g, ' ').split('\n')) {
    const from = /^FROM\s+\S+\s+AS\s+(\S+)/i.exec(line)
    if (from) { current = []; out.set(from[1], current) } else if (line.trim() && !line.startsWith('#')) current.push(line.trim())
  }
  return out
}

t.test('the build stage gets every tsconfig the build script compiles', async (t) => {
  const pkg = JSON.parse(await readFile(`${root}package.json`, 'utf8')) as { scripts: Record<string, string>, files: string[] }
  const configs = [...pkg.scripts.build.matchAll(/-p\s+(\S+)/g)].map((m) => m[1])
  const scripts = [...pkg.scripts.build.matchAll(/node\s+(\S+)/g)].map((m) => m[1])
  t.ok(scripts.includes('scripts/build-panel.mjs'), 'the build bundles the panel page')
  const build = stages(await readFile(`${root}Dockerfile`, 'utf8')).get('build') ?? []
  const copied = build.filter((l) => l.startsWith('COPY ')).flatMap((l) => l.split(/\s+/).slice(1, -1))
  for (const s of scripts) t.ok(copied.includes(s), `${s} is copied into the build stage`)
  // The bundler reads the panel's tsconfig (and what it extends).
  configs.push('tsconfig.panel.json')
  for (const c of configs) {
    t.ok(copied.includes(c), `${c} is copied into the build stage`)
    // A config extends another: that one must be there too.
    const ext = /"extends":\s*"\.\/([^"]+)"/.exec(await readFile(`${root}${c}`, 'utf8'))
    if (ext) t.ok(copied.includes(ext[1]), `${ext[1]} (extended by ${c}) is copied too`)
  }
  t.ok(build.includes('RUN npm run build'), 'and runs the build script itself')
})

t.test('the runtime stage and the package hold the compiled page and its document', async (t) => {
  const runtime = stages(await readFile(`${root}Dockerfile`, 'utf8')).get('runtime') ?? []
  t.ok(runtime.includes('COPY --from=build /app/dist ./dist'), 'the runtime gets dist/ (dist/www inside it)')
  t.ok(runtime.includes('COPY panel ./panel'), 'and the panel document')
  t.ok(runtime.includes('COPY inbox ./inbox'), 'and the operator inbox page (docs/spec.md section 20)')
  const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, maxBuffer: 16 * 1024 * 1024 })
  const files = new Set((JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>)[0].files.map((f) => f.path))
  for (const f of ['panel/index.html', 'panel/panel.css', 'inbox/index.html', 'inbox/inbox.js', 'inbox/inbox.css', 'inbox/sw.js']) t.ok(files.has(f), `the package holds ${f}`)
  for (const m of PANEL_FILES) t.ok(files.has(`dist/www${m}`), `the package holds dist/www${m}`)
})
