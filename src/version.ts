import { readFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

export const VERSION: string = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version
export const API_VERSION = 'v1'

/** The build's commit: AFHTTP_COMMIT (set in the image) or git, else "unknown". */
export const COMMIT: string = (() => {
  if (process.env.AFHTTP_COMMIT) return process.env.AFHTTP_COMMIT
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim() || 'unknown'
  } catch {
    return 'unknown'
  }
})()
