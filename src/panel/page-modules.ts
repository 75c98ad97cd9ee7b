// The panel page as the viewer's browser loads it: one ES module bundled by esbuild
// (scripts/build-panel.mjs, run by `npm run build`) from src/panel-page/panel.ts and the pure
// host modules it imports (coordinates, frame codec, limits), with its source map. The host
// serves exactly these two files; a bundle that still imports anything is a build error.
import { readFile } from 'node:fs/promises'
import { posix } from 'node:path'

/** The bundle under the built panel directory (dist/www), and its source map. */
export const PANEL_BUNDLE = '/panel.js'
export const PANEL_FILES = [PANEL_BUNDLE, `${PANEL_BUNDLE}.map`] as const

// A run-time import or re-export at the start of a statement (a bundle has none):
// `import … from '…'`, `export … from '…'`, a bare `import '…'`, or a dynamic `import('…')`.
const IMPORT_RE = /(?:^|[;}\s])(?:import|export)\s*(?:[^'";()]*?\s*from\s*)?\(?\s*['"]([^'"]+)['"]/g

/** The specifiers a built module imports at run time. Pure. */
export function importsOf (source: string): string[] {
  return [...source.matchAll(IMPORT_RE)].map((m) => m[1])
}

/** The files the host serves for the panel page, checked: a bundle that imports anything cannot load alone. */
export async function panelFiles (root: string): Promise<string[]> {
  const source = await readFile(posix.join(root, PANEL_BUNDLE), 'utf8')
  const imports = importsOf(source)
  if (imports.length > 0) throw new Error(`The panel bundle ${PANEL_BUNDLE} imports ${imports.map((i) => `"${i}"`).join(', ')}: it must be self-contained (scripts/build-panel.mjs).`)
  return [...PANEL_FILES]
}
