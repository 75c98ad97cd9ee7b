import { readFileSync } from 'node:fs'
import { readlink, rm } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'

const SINGLETON_FILES = ['SingletonLock', 'SingletonSocket', 'SingletonCookie']

function pidAlive (pid: number): boolean {
  try { process.kill(pid, 0) } catch (err) { return (err as NodeJS.ErrnoException).code === 'EPERM' }
  // A killed browser stays a zombie until its parent reaps it: signal 0 still succeeds then.
  try { return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8')) } catch { return true }
}

export interface SingletonCleanup { removed: string[], ownerPid?: number, ownerAlive: boolean }

/**
 * Chromium refuses a user-data-dir whose SingletonLock points at another process.
 * After a crash that lock is stale: remove it, but never while its owner still runs
 * on this host (two browsers on one profile corrupt it).
 */
export async function clearStaleSingletons (userDataDir: string): Promise<SingletonCleanup> {
  let target: string | undefined
  try { target = await readlink(join(userDataDir, 'SingletonLock')) } catch { target = undefined }
  if (target === undefined) {
    // No lock: leftover socket/cookie links are harmless but confuse the next start.
    const removed = await removeAll(userDataDir)
    return { removed, ownerAlive: false }
  }
  const match = /^(.*)-(\d+)$/.exec(target)
  const ownerPid = match ? Number(match[2]) : undefined
  const sameHost = match ? match[1] === hostname() : false
  if (ownerPid !== undefined && sameHost && pidAlive(ownerPid)) return { removed: [], ownerPid, ownerAlive: true }
  return { removed: await removeAll(userDataDir), ownerPid, ownerAlive: false }
}

async function removeAll (dir: string): Promise<string[]> {
  const removed: string[] = []
  for (const name of SINGLETON_FILES) {
    try {
      await rm(join(dir, name), { force: false })
      removed.push(name)
    } catch { /* absent */ }
  }
  return removed
}
