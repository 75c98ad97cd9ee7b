import { randomBytes } from 'node:crypto'
import { open, readdir, rename, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/*
 * The four-step durable replace of docs/spec.md section 4: temp file in the same
 * directory → fsync → rename over the target → fsync the directory.
 *
 * Why not write-file-atomic (used for the token file in store/token.ts)? It
 * issues a single fs.write and trusts it to write everything (no loop over
 * short or EINTR/EAGAIN writes) and never fsyncs the parent directory, so after
 * a power loss the rename itself may be gone. Profile metadata is what ties a
 * name to years of cookies, so each step here is explicit and each failure
 * point can be driven by an injected errno in tests.
 */

/** The part of a FileHandle this module uses; node's FileHandle satisfies it. */
export interface DurableFileHandle {
  write (buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesWritten: number }>
  sync (): Promise<void>
  close (): Promise<void>
}

/** The filesystem boundary; tests replace one call to inject an errno. */
export interface DurableFs {
  open (path: string, flags: string, mode?: number): Promise<DurableFileHandle>
  rename (from: string, to: string): Promise<void>
  unlink (path: string): Promise<void>
}

export const nodeFs: DurableFs = { open, rename, unlink }

export type DurableStep = 'open' | 'write' | 'fsync' | 'close' | 'rename' | 'dir_fsync'

/** A failed step, with the errno code (ENOSPC, EIO, …) callers report. */
export class DurableWriteError extends Error {
  readonly code: string
  readonly errno: number | undefined
  readonly step: DurableStep
  readonly path: string
  /** False when a temp file may have been left behind (cleaned at next start). */
  tempRemoved = true

  constructor (step: DurableStep, path: string, cause: unknown) {
    const err = cause as NodeJS.ErrnoException
    const code = typeof err?.code === 'string' ? err.code : 'EUNKNOWN'
    super(`${step} failed for ${path}: ${code}`, { cause })
    this.name = 'DurableWriteError'
    this.code = code
    this.errno = typeof err?.errno === 'number' ? err.errno : undefined
    this.step = step
    this.path = path
  }
}

export type DurableWriteResult =
  | { durable: true }
  /** The new file is complete and in place, but the directory entry may not survive a power loss. */
  | { durable: false, error: DurableWriteError }

export interface DurableWriteOptions {
  fs?: DurableFs
  /** Mode of the new file. 0600 by default: metadata may carry a cdp_url with credentials. */
  mode?: number
}

const RETRYABLE = new Set(['EINTR', 'EAGAIN'])
/** Consecutive attempts without progress before a write is declared stuck. */
const MAX_STALLS = 100

export function tempName (base: string): string {
  return `.${base}.${process.pid}.${randomBytes(8).toString('hex')}.tmp`
}

function escapeRegExp (s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** Matches temp files made by tempName(base); group 1 is the writer's pid. */
export function tempPattern (base: string): RegExp {
  return new RegExp(`^\\.${escapeRegExp(base)}\\.(\\d+)\\.[0-9a-f]+\\.tmp$`)
}

async function writeAll (fh: DurableFileHandle, data: Uint8Array, path: string): Promise<void> {
  let offset = 0
  let stalls = 0
  while (offset < data.length) {
    let written = 0
    try {
      written = (await fh.write(data, offset, data.length - offset, offset)).bytesWritten
    } catch (err) {
      if (!RETRYABLE.has((err as NodeJS.ErrnoException).code ?? '')) throw new DurableWriteError('write', path, err)
    }
    offset += written
    stalls = written > 0 ? 0 : stalls + 1
    if (stalls > MAX_STALLS) {
      throw new DurableWriteError('write', path, Object.assign(new Error('write made no progress'), { code: 'EIO' }))
    }
  }
}

async function syncDirectory (fs: DurableFs, dir: string): Promise<void> {
  // Windows cannot open a directory for fsync; SPEC asks for it on Unix only.
  if (process.platform === 'win32') return
  const fh = await fs.open(dir, 'r')
  try {
    await fh.sync()
  } finally {
    await fh.close().catch(() => {})
  }
}

/**
 * Replaces `target` with `data` durably. Any failure before the rename throws
 * DurableWriteError and leaves the old target byte-identical; a failed
 * directory fsync after the rename is returned, not thrown, because the new
 * file is already complete and visible.
 */
export async function durableWrite (target: string, data: Uint8Array | string, opts: DurableWriteOptions = {}): Promise<DurableWriteResult> {
  const fs = opts.fs ?? nodeFs
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data
  const dir = dirname(target)
  const temp = join(dir, tempName(basename(target)))

  let fh: DurableFileHandle | undefined
  let step: DurableStep = 'open'
  try {
    fh = await fs.open(temp, 'wx', opts.mode ?? 0o600)
    step = 'write'
    await writeAll(fh, bytes, temp)
    step = 'fsync'
    await fh.sync()
    step = 'close'
    // A failed close is not retried: the descriptor is released either way.
    const closing = fh
    fh = undefined
    await closing.close()
    step = 'rename'
    await fs.rename(temp, target)
  } catch (err) {
    const failure = err instanceof DurableWriteError ? err : new DurableWriteError(step, step === 'rename' ? target : temp, err)
    if (fh) await fh.close().catch(() => {})
    // After a failed exclusive open the name is not ours to remove.
    if (step !== 'open') {
      failure.tempRemoved = await fs.unlink(temp).then(() => true, (e: NodeJS.ErrnoException) => e.code === 'ENOENT')
    }
    throw failure
  }

  try {
    await syncDirectory(fs, dir)
    return { durable: true }
  } catch (err) {
    return { durable: false, error: new DurableWriteError('dir_fsync', dir, err) }
  }
}

export interface CleanOptions {
  fs?: Pick<DurableFs, 'unlink'>
  /** Decides per writer pid; default: every match is stale (call only while no write is in flight). */
  isStale?: (pid: number) => boolean
}

/**
 * Removes temp files a killed writer left beside `base` in `dir`. They never
 * replaced the target (rename is the commit point), so removing them loses
 * nothing. Returns the names removed; a missing directory yields [].
 */
export async function cleanStaleTemps (dir: string, base: string, opts: CleanOptions = {}): Promise<string[]> {
  const fs = opts.fs ?? nodeFs
  const pattern = tempPattern(base)
  let names: string[]
  try {
    names = await readdir(dir)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return []
    throw err
  }
  const removed: string[] = []
  for (const name of names) {
    const match = pattern.exec(name)
    if (!match) continue
    if (opts.isStale && !opts.isStale(Number(match[1]))) continue
    try {
      await fs.unlink(join(dir, name))
      removed.push(name)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
    }
  }
  return removed
}
