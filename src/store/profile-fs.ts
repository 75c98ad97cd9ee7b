// Small filesystem steps of the profile store that must report the real errno.
import { lstat, mkdir, readdir, unlink } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { ASIDE_PATTERN } from './profile-lock.js'

/**
 * mkdir that reports the real errno: a recursive mkdir answers ENOENT for a full
 * or read-only disk, so it is used only when the parent itself is missing.
 * True when this call made the directory, false when it was already there.
 */
export async function makeDirectory (dir: string): Promise<boolean> {
  // 0700: the browser data below holds cookies and sessions.
  const once = (): Promise<boolean> => mkdir(dir, { mode: 0o700 }).then(() => true, (err: NodeJS.ErrnoException) => {
    if (err.code === 'EEXIST') return false
    throw err
  })
  try {
    return await once()
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
    await mkdir(dirname(dir), { recursive: true, mode: 0o700 })
    return once()
  }
}

/** A stale lock moved aside by a host killed mid-takeover: already judged stale, safe to remove. */
export async function removeStaleAsides (dir: string, isStale: (pid: number) => boolean): Promise<string[]> {
  const removed: string[] = []
  for (const name of await readdir(dir)) {
    const match = ASIDE_PATTERN.exec(name)
    if (!match || !isStale(Number(match[1]))) continue
    await unlink(join(dir, name)).then(() => removed.push(name), () => undefined)
  }
  return removed
}

export async function exists (path: string): Promise<boolean> {
  return lstat(path).then(() => true, (err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return false
    throw err
  })
}
