// Bundles the panel page (src/panel-page/panel.ts and the pure host modules it imports) into
// one ES module with its source map, dist/www/panel.js(.map): a viewer loads one script instead
// of a chain of imports, which cost a phone most of its first frame (docs/spec.md section 17, issue 22).
// Beside it, dist/www/early.js(.map): the document's first, classic script, which opens the socket.
// Type checking stays with `tsc -p tsconfig.panel.json` (npm run typecheck); esbuild only strips
// types. Run by `npm run build`; the Dockerfile's build stage copies this file for it.
import { build } from 'esbuild'
import { rm } from 'node:fs/promises'
// The served names live once, beside the code that serves them (tsc has compiled it by now).
import { PANEL_BUNDLE, PANEL_EARLY } from '../dist/panel/page-modules.js'

const root = new URL('..', import.meta.url).pathname
const out = `${root}dist/www`

// A bundle replaces the separately compiled modules an earlier build left there.
await rm(out, { recursive: true, force: true })
const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'browser',
  // Safari 16 and the older browsers of docs/panel.md run ES2022.
  target: 'es2022',
  minify: true,
  sourcemap: 'linked',
  sourcesContent: true,
  legalComments: 'none',
  logLevel: 'warning',
  tsconfig: 'tsconfig.panel.json'
}
await Promise.all([
  build({ ...common, entryPoints: ['src/panel-page/panel.ts'], outfile: `${out}${PANEL_BUNDLE}`, format: 'esm' }),
  // The document's first script, a classic one that runs before anything else has loaded and
  // opens the panel's socket (docs/panel.md "The first frame").
  build({ ...common, entryPoints: ['src/panel-page/early.ts'], outfile: `${out}${PANEL_EARLY}`, format: 'iife' })
])
