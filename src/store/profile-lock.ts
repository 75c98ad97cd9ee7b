import { hostname } from 'node:os'
import { dirname, join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { open, readFile, rename, link, unlink, stat } from 'node:fs/promises'
import { AfhttpError } from '../errors.js'
import { tempName } from './durable-write.js'

/** docs/spec.md section 4: one host process owns a profile; this file in the profile dir says which. */
export const LOCK_FILE = 'afhttp.lock'

export interface LockRecord {
  pid: number
  /** When the owning process started (not when it took the lock): tells pid reuse apart in logs. */
  started_at: string
  hostname: string
  acquired_at: string
}

export interface StaleTakeover {
  previous: LockRecord | null
  reason: 'dead_pid' | 'previous_incarnation' | 'unreadable'
}

export interface ProfileLock {
  readonly path: string
  readonly record: LockRecord
  /** Set when a stale lock was replaced; the caller logs it. */
  readonly takeover?: StaleTakeover
  /** Removes the lock file if it is still ours; true when it removed it. */
  release (): Promise<boolean>
}

/** A lock file that cannot be parsed is left alone this long: its writer may be between open and write. */
const UNREADABLE_GRACE_MS = 5_000
const MAX_ATTEMPTS = 5
const PROCESS_STARTED_AT = new Date(Date.now() - process.uptime() * 1000).toISOString()

/** kill(pid, 0) probes without signalling; EPERM still means the process exists. */
export function isProcessAlive (pid: number): boolean {
  // 0 and negative pids address process groups; never probe them.
  if (!Number.isSafeInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function parseRecord (text: string): LockRecord | null {
  try {
    const doc = JSON.parse(text) as Partial<LockRecord>
    if (!Number.isSafeInteger(doc.pid) || (doc.pid as number) <= 0) return null
    return {
      pid: doc.pid as number,
      started_at: String(doc.started_at ?? ''),
      hostname: String(doc.hostname ?? ''),
      acquired_at: String(doc.acquired_at ?? '')
    }
  } catch {
    return null
  }
}

type Existing = { text: string, record: LockRecord | null, ageMs: number } | undefined

async function readExisting (path: string): Promise<Existing> {
  try {
    const [text, info] = await Promise.all([readFile(path, 'utf8'), stat(path)])
    return { text, record: parseRecord(text), ageMs: Date.now() - info.mtimeMs }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
}

/** Why the existing lock may be taken over, or undefined if its owner may be alive. */
function staleReason (existing: NonNullable<Existing>): StaleTakeover['reason'] | undefined {
  const rec = existing.record
  if (!rec) return existing.ageMs > UNREADABLE_GRACE_MS ? 'unreadable' : undefined
  if (rec.pid === process.pid) {
    // Same pid, other start time: an earlier run in a container that reused the pid.
    // Same start time: this very process holds it, and a second owner is refused like any other.
    return rec.started_at === PROCESS_STARTED_AT ? undefined : 'previous_incarnation'
  }
  return isProcessAlive(rec.pid) ? undefined : 'dead_pid'
}

function lockedError (path: string, rec: LockRecord | null): AfhttpError {
  const who = rec ? `process ${rec.pid} on ${rec.hostname || 'an unknown host'} (started ${rec.started_at})` : 'a process that is still writing the lock'
  return new AfhttpError('profile_locked',
    `The profile is owned by ${who}. Stop that process, or remove ${path} if it is certainly gone.`,
    { lock_file: path, ...(rec ? { pid: rec.pid, hostname: rec.hostname, started_at: rec.started_at } : {}) })
}

/**
 * Moves the stale lock aside under a unique name before deleting it. Rename is
 * atomic, so of two processes taking over the same stale lock only one gets
 * it; if what we moved is not the record we judged stale (someone else took
 * over in between), it is linked back and we start again.
 */
/** Names a stale lock is moved to while it is taken over; group 1 is the mover's pid. */
export const ASIDE_PATTERN = /^afhttp\.lock\.stale\.(\d+)\.[0-9a-f]+$/

async function removeStale (path: string, seenText: string): Promise<boolean> {
  const aside = `${path}.stale.${process.pid}.${randomBytes(4).toString('hex')}`
  try {
    await rename(path, aside)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw err
  }
  const moved = await readFile(aside, 'utf8').catch(() => seenText)
  if (moved !== seenText) await link(aside, path).catch(() => {})
  await unlink(aside).catch(() => {})
  return moved === seenText
}

/** Where writing a lock failed, with the errno (ENOSPC, EIO, …) the store reports. */
export class LockWriteError extends Error {
  readonly code: string
  readonly step: 'open' | 'write' | 'fsync' | 'link'
  readonly path: string

  constructor (step: LockWriteError['step'], path: string, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException)?.code ?? 'EUNKNOWN'
    super(`${step} failed for ${path}: ${code}`, { cause })
    this.name = 'LockWriteError'
    this.code = code
    this.step = step
    this.path = path
  }
}

/** Filesystems without hard links (some network and FAT mounts) answer link() with one of these. */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV'])

/** Writes the whole record to `file` (a name nobody else uses) and fsyncs it. */
async function writeRecord (file: string, flags: string, text: string): Promise<void> {
  let fh
  try {
    fh = await open(file, flags, 0o644)
  } catch (err) {
    // ENOENT (no profile dir) and EEXIST are answers, not write failures.
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'EEXIST') throw err
    throw new LockWriteError('open', file, err)
  }
  let step: LockWriteError['step'] = 'write'
  try {
    await fh.writeFile(text)
    step = 'fsync'
    await fh.sync()
  } catch (err) {
    await fh.close().catch(() => {})
    await unlink(file).catch(() => {})
    throw new LockWriteError(step, file, err)
  }
  await fh.close().catch(() => {})
}

/**
 * Creates the lock with its whole record or not at all: the record goes to a
 * private temp file first and is then hard-linked to the lock name, which is
 * atomic and fails with EEXIST when taken. So a full disk fails before the
 * lock name exists, and a process killed mid-write never leaves an empty lock
 * that others must wait out as "unreadable". Without hard links, falls back
 * to an exclusive open of the lock name itself.
 */
async function createExclusive (path: string, text: string): Promise<boolean> {
  const temp = join(dirname(path), tempName(LOCK_FILE))
  await writeRecord(temp, 'wx', text)
  try {
    await link(temp, path)
    return true
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? ''
    if (code === 'EEXIST') return false
    if (!NO_LINKS.has(code)) throw new LockWriteError('link', path, err)
  } finally {
    await unlink(temp).catch(() => {})
  }
  try {
    await writeRecord(path, 'wx', text)
    return true
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw err
  }
}

/** Takes `<profileDir>/afhttp.lock`, replacing a stale one; throws profile_locked if a live process owns it. */
export async function acquireProfileLock (profileDir: string): Promise<ProfileLock> {
  const path = join(profileDir, LOCK_FILE)
  const record: LockRecord = { pid: process.pid, started_at: PROCESS_STARTED_AT, hostname: hostname(), acquired_at: new Date().toISOString() }
  const text = `${JSON.stringify(record)}\n`
  let takeover: StaleTakeover | undefined

  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (await createExclusive(path, text)) {
      return { path, record, ...(takeover ? { takeover } : {}), release: () => releaseLock(path, text) }
    }
    const existing = await readExisting(path)
    if (!existing) continue // released between our open and our read
    const reason = staleReason(existing)
    if (!reason) throw lockedError(path, existing.record)
    if (await removeStale(path, existing.text)) takeover = { previous: existing.record, reason }
  }
  throw lockedError(path, (await readExisting(path))?.record ?? null)
}

async function releaseLock (path: string, ours: string): Promise<boolean> {
  const current = await readFile(path, 'utf8').catch(() => undefined)
  // Someone took the lock over (e.g. judged us dead); their lock is not ours to remove.
  if (current !== ours) return false
  await unlink(path).catch(() => {})
  return true
}
