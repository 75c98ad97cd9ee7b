// A real, small filesystem that a test can fill: a tmpfs mounted by the test itself.
import { spawnSync } from 'node:child_process'
import { closeSync, mkdirSync, mkdtempSync, openSync, rmdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

function mount (dir: string, size: string, inodes?: number): string | undefined {
  const opts = `size=${size},mode=0755${inodes ? `,nr_inodes=${inodes}` : ''}`
  const res = spawnSync('mount', ['-t', 'tmpfs', '-o', opts, 'tmpfs', dir], { encoding: 'utf8' })
  return res.status === 0 ? undefined : (res.stderr || res.error?.message || `exit ${res.status}`).trim()
}

/** Why a tmpfs cannot be mounted here (print it as the skip reason), or false when it can. */
export function tmpfsSkip (): string | false {
  if (process.getuid?.() !== 0) return 'needs root to mount a tmpfs'
  const probe = mkdtempSync(join(tmpdir(), 'afhttp-tmpfs-probe-'))
  try {
    const problem = mount(probe, '64k')
    if (problem) return `mount -t tmpfs is not permitted here: ${problem}`
    spawnSync('umount', [probe])
    return false
  } finally {
    rmdirSync(probe)
  }
}

export interface Tmpfs {
  dir: string
  /** Fills every free block with dd, the way an operator's disk fills; returns the bytes written. */
  fill: () => number
  /**
   * Fills again whatever was freed since (a browser sharing the disk deletes its journals): appends
   * to the filler instead of starting it over. Returns the bytes added.
   */
  topUp: () => number
  /** Uses up every free inode with empty files (a disk with blocks but no inodes left). */
  fillInodes: () => number
  /** Removes what fill() and fillInodes() made. */
  free: () => void
  /** Remounts read-only (as the kernel does after I/O errors) or back read-write. */
  remount: (mode: 'ro' | 'rw') => void
  unmount: () => void
}

export function mountTmpfs (size: string, inodes?: number): Tmpfs {
  const dir = mkdtempSync(join(tmpdir(), 'afhttp-tmpfs-'))
  const problem = mount(dir, size, inodes)
  if (problem) {
    rmdirSync(dir)
    throw new Error(`mount failed after the probe succeeded: ${problem}`)
  }
  const filler = join(dir, 'filler')
  let mounted = true
  return {
    dir,
    fill () {
      const res = spawnSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=4k'], { encoding: 'utf8' })
      if (!/No space left on device/.test(res.stderr)) throw new Error(`dd did not fill the disk: ${res.stderr}`)
      const copied = /(\d+) bytes/.exec(res.stderr)
      return copied ? Number(copied[1]) : 0
    },
    topUp () {
      const res = spawnSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=4k', 'oflag=append', 'conv=notrunc'], { encoding: 'utf8' })
      const copied = /(\d+) bytes/.exec(res.stderr)
      return copied ? Number(copied[1]) : 0
    },
    fillInodes () {
      mkdirSync(`${filler}.d`)
      for (let i = 0; ; i++) {
        try {
          closeSync(openSync(join(`${filler}.d`, String(i)), 'wx'))
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err
          return i
        }
      }
    },
    free () {
      rmSync(filler, { force: true })
      rmSync(`${filler}.d`, { recursive: true, force: true })
    },
    remount (mode) {
      const res = spawnSync('mount', ['-o', `remount,${mode}`, dir], { encoding: 'utf8' })
      if (res.status !== 0) throw new Error(`remount ${mode} failed: ${res.stderr}`)
    },
    unmount () {
      if (!mounted) return
      mounted = false
      const res = spawnSync('umount', [dir], { encoding: 'utf8' })
      if (res.status !== 0) spawnSync('umount', ['-l', dir])
      rmdirSync(dir)
    }
  }
}
