// The panel page as the viewer's browser loads it: one ES module bundled by esbuild
// (scripts/build-panel.mjs, run by `npm run build`) from src/panel-page/panel.ts and the pure
// host modules it imports (coordinates, frame codec, limits), and the document's first script
// (src/panel-page/early.ts, which opens the socket while the bundle loads), each with its source
// map. The host serves exactly these files; a script that still imports anything is a build error.
import { readFile } from 'node:fs/promises'
import { posix } from 'node:path'

/** The bundle and the first script under the built panel directory (dist/www), with their source maps. */
export const PANEL_BUNDLE = '/panel.js'
export const PANEL_EARLY = '/early.js'
export const PANEL_FILES = [PANEL_BUNDLE, `${PANEL_BUNDLE}.map`, PANEL_EARLY, `${PANEL_EARLY}.map`] as const

// A run-time import or re-export at the start of a statement (a bundle has none):
// `import … from '…'`, `export … from '…'`, a bare `import '…'`, or a dynamic `import('…')`.
const IMPORT_RE = /(?:^|[;}\s])(?:import|export)\s*(?:[^'";()]*?\s*from\s*)?\(?\s*['"]([^'"]+)['"]/g

/** The specifiers a built module imports at run time. Pure. */
export function importsOf (source: string): string[] {
  return [...source.matchAll(IMPORT_RE)].map((m) => m[1])
}

/** The files the host serves for the panel page, checked: a script that imports anything cannot load alone. */
export async function panelFiles (root: string): Promise<string[]> {
  for (const script of [PANEL_BUNDLE, PANEL_EARLY]) {
    const imports = importsOf(await readFile(posix.join(root, script), 'utf8'))
    if (imports.length > 0) throw new Error(`The panel script ${script} imports ${imports.map((i) => `"${i}"`).join(', ')}: it must be self-contained (scripts/build-panel.mjs).`)
  }
  return [...PANEL_FILES]
}
