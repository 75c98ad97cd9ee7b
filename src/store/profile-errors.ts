// The coded errors of profile writes that fail on the filesystem (docs/spec.md section 4):
// what the operator reads when a disk is full, read-only or out of inodes.
import { AfhttpError } from '../errors.js'
import type { DurableWriteError } from './durable-write.js'
import type { LockWriteError } from './profile-lock.js'

export function writeFailed (file: string, err: DurableWriteError): AfhttpError {
  const leftover = err.tempRemoved ? '' : ' A temporary file may remain beside it; it is removed at the next start.'
  return new AfhttpError('profile_metadata_write_failed',
    `Could not write ${file}: ${err.code} during ${err.step}. The previous metadata, if any, is unchanged.${leftover}`,
    { file, errno: err.code, step: err.step, temp_removed: err.tempRemoved }, { cause: err })
}

/**
 * A metadata write that failed before the metadata file was reached: taking the
 * write lock, or making the profile's directories. Same public code as a failed
 * metadata write, because that is what the caller asked for and what did not happen.
 */
export function prepareFailed (file: string, step: string, code: string, cause: unknown, lockFile?: string): AfhttpError {
  const where = lockFile ? ` (creating the write lock ${lockFile})` : ''
  return new AfhttpError('profile_metadata_write_failed',
    `Could not write ${file}: ${code} during ${step}${where}. The previous metadata, if any, is unchanged.`,
    { file, errno: code, step, temp_removed: true, ...(lockFile ? { lock_file: lockFile } : {}) }, { cause })
}

export function errnoOf (err: unknown): string {
  const code = (err as NodeJS.ErrnoException)?.code
  return typeof code === 'string' ? code : 'EUNKNOWN'
}

/** Owning a profile (to launch its browser) failed because the lock file could not be written. */
export function lockWriteFailed (err: LockWriteError): AfhttpError {
  return new AfhttpError('profile_lock_write_failed',
    `Could not write the profile lock ${err.path}: ${err.code} during ${err.step}. Nothing in the profile was changed; free space or fix the directory and retry.`,
    { file: err.path, errno: err.code, step: `lock_${err.step}` }, { cause: err })
}
