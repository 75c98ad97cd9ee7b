// The panel page's ES modules as the viewer's browser loads them: the compiled entry
// (src/panel-page/panel.ts, built by tsconfig.panel.json into dist/www) and every module it
// imports at run time, read from the compiled files themselves. The host serves exactly these
// and preloads them, so no list of shared modules is kept by hand.
import { readFile } from 'node:fs/promises'
import { posix } from 'node:path'

/** Where the entry lives under the compiled panel directory. */
export const PANEL_ENTRY = '/panel-page/panel.js'

// tsc keeps each run-time import as written and drops type-only ones: `import … from '…'`,
// `export … from '…'` and a bare `import '…'`, each at the start of a statement.
const IMPORT_RE = /^\s*(?:import|export)\s+(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm

/** The specifiers a compiled module imports at run time. Pure. */
export function importsOf (source: string): string[] {
  return [...source.matchAll(IMPORT_RE)].map((m) => m[1])
}

/**
 * Resolves `specifier` imported by the module at `from` (both paths under the panel root, e.g.
 * `/panel-page/view.js`). A browser can only load relative paths here: anything else is a
 * build error, reported with the module that asked for it.
 */
export function resolveImport (from: string, specifier: string): string {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) {
    throw new Error(`The panel page module ${from} imports "${specifier}", which a browser cannot load: import only relative, pure modules.`)
  }
  // Resolved relative to the root, so a path above it shows as `..` instead of being clamped.
  const resolved = posix.normalize(posix.join(posix.dirname(from).slice(1), specifier))
  if (resolved === '..' || resolved.startsWith('../')) throw new Error(`The panel page module ${from} imports "${specifier}" outside the panel's directory.`)
  return `/${resolved}`
}

/** The entry and everything it imports, in breadth-first order (entry first). */
export async function pageModules (root: string, entry = PANEL_ENTRY): Promise<string[]> {
  const seen = new Set<string>([entry])
  const order: string[] = []
  const queue = [entry]
  while (queue.length > 0) {
    const path = queue.shift()!
    order.push(path)
    const source = await readFile(posix.join(root, path), 'utf8')
    for (const spec of importsOf(source)) {
      const next = resolveImport(path, spec)
      if (!seen.has(next)) { seen.add(next); queue.push(next) }
    }
  }
  return order
}

/** The `<link rel="modulepreload">` lines for the page's imports (the entry has its script tag). */
export function preloadLinks (modules: readonly string[], base: string): string {
  return modules.slice(1).map((m) => `<link rel="modulepreload" href="${base}${m.slice(1)}">`).join('\n')
}
