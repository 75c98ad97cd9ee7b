// A real, small filesystem that a test can fill: a tmpfs mounted by the test itself.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

function mount (dir: string, size: string): string | undefined {
  const res = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0755`, 'tmpfs', dir], { encoding: 'utf8' })
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
  /** Removes what fill() wrote. */
  free: () => void
  unmount: () => void
}

export function mountTmpfs (size: string): Tmpfs {
  const dir = mkdtempSync(join(tmpdir(), 'afhttp-tmpfs-'))
  const problem = mount(dir, size)
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
    free () { rmSync(filler, { force: true }) },
    unmount () {
      if (!mounted) return
      mounted = false
      const res = spawnSync('umount', [dir], { encoding: 'utf8' })
      if (res.status !== 0) spawnSync('umount', ['-l', dir])
      rmdirSync(dir)
    }
  }
}
