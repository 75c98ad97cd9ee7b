import { randomBytes, timingSafeEqual, createHash } from 'node:crypto'
import { readFile, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import writeFileAtomic from 'write-file-atomic'

export const TOKEN_FILE = '.afhttp-token'

export interface ResolvedToken {
  token: string
  source: 'env' | 'file' | 'generated'
  /** Where a generated or stored token lives; logged instead of the value. */
  file?: string
}

/**
 * The configured token wins; otherwise one is generated once into
 * `<profiles dir>/.afhttp-token` (mode 0600) and reused on later starts.
 */
export async function resolveToken (configured: string | undefined, profilesDir: string): Promise<ResolvedToken> {
  if (configured) return { token: configured, source: 'env' }
  const file = join(profilesDir, TOKEN_FILE)
  try {
    const stored = (await readFile(file, 'utf8')).trim()
    if (stored.length >= 16) return { token: stored, source: 'file', file }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
  await mkdir(profilesDir, { recursive: true })
  const token = randomBytes(32).toString('base64url')
  await writeFileAtomic(file, `${token}\n`, { mode: 0o600 })
  return { token, source: 'generated', file }
}

/** Constant-time comparison that does not leak the token's length either. */
export function tokenMatches (presented: string, expected: string): boolean {
  const a = createHash('sha256').update(presented).digest()
  const b = createHash('sha256').update(expected).digest()
  return timingSafeEqual(a, b)
}
