// Module hooks for register.mjs: a relative `.js` import whose `.ts` source exists resolves to the
// source (the NodeNext convention the code is written in), and a `.ts` file is loaded as an ES
// module with its types stripped by SWC, with an inline source map so stack traces and coverage
// point into the TypeScript.
import { readFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { transform } from '@swc/core'

// What tsconfig.json asks of the emitted JavaScript: ES2022 classes (fields defined, as tsc does
// for that target), ES modules kept as they are.
const SWC = {
  sourceMaps: 'inline',
  module: { type: 'es6' },
  jsc: {
    target: 'es2022',
    parser: { syntax: 'typescript' },
    transform: { useDefineForClassFields: true }
  }
}

export async function resolve (specifier, context, next) {
  const { parentURL } = context
  if (parentURL?.startsWith('file:') && parentURL.endsWith('.ts') && specifier.endsWith('.js') && (specifier.startsWith('.') || specifier.startsWith('file:'))) {
    const ts = new URL(specifier.slice(0, -3) + '.ts', parentURL)
    if (existsSync(fileURLToPath(ts))) return { url: ts.href, format: 'module', shortCircuit: true }
  }
  // A worker thread's entry (src/fetch/recognize.ts starts one by its built `.js` address) has no
  // parent: its `.ts` source stands in for it where the built file does not exist.
  if (parentURL === undefined && specifier.startsWith('file:') && specifier.endsWith('.js') && !existsSync(fileURLToPath(specifier))) {
    const ts = specifier.slice(0, -3) + '.ts'
    if (existsSync(fileURLToPath(ts))) return { url: ts, format: 'module', shortCircuit: true }
  }
  return next(specifier, context)
}

export async function load (url, context, next) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, context)
  const filename = fileURLToPath(url)
  const { code } = await transform(await readFile(filename, 'utf8'), { ...SWC, filename })
  return { format: 'module', source: code, shortCircuit: true }
}
