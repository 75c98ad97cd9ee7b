import t, { type Test } from 'tap'
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import {
  cleanStaleTemps, durableWrite, DurableWriteError, nodeFs, tempPattern,
  type DurableFileHandle, type DurableFs
} from '../../src/store/durable-write.js'

const OLD = '{"old":true,"padding":"' + 'o'.repeat(200) + '"}\n'
const NEW = '{"new":true,"padding":"' + 'n'.repeat(500) + '"}\n'

function errno (code: string, errnoNumber: number, syscall: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: injected, ${syscall}`), { code, errno: errnoNumber, syscall })
}

interface Faults {
  /** Called before each file write; return a replacement result, throw to fail, or undefined to write normally. */
  write?: (call: number, length: number) => number | undefined
  sync?: () => void
  dirSync?: () => void
  rename?: () => void
  unlink?: () => void
}

/** The real filesystem with one call replaced: the only kind of fs mocking these tests do. */
function faultyFs (faults: Faults): DurableFs & { writes: number } {
  const fs = {
    writes: 0,
    async open (path: string, flags: string, mode?: number): Promise<DurableFileHandle> {
      const real = await nodeFs.open(path, flags, mode)
      const isDir = flags === 'r'
      return {
        write: async (buf, off, len, pos) => {
          fs.writes++
          const limit = faults.write?.(fs.writes, len)
          return real.write(buf, off, limit === undefined ? len : Math.min(len, limit), pos)
        },
        sync: async () => {
          if (isDir) faults.dirSync?.()
          else faults.sync?.()
          return real.sync()
        },
        close: () => real.close()
      }
    },
    async rename (from: string, to: string) { faults.rename?.(); return nodeFs.rename(from, to) },
    async unlink (path: string) { faults.unlink?.(); return nodeFs.unlink(path) }
  }
  return fs
}

function setup (t: Test): { dir: string, target: string } {
  const dir = t.testdir({ 'afhttp-profile.json': OLD })
  return { dir, target: join(dir, 'afhttp-profile.json') }
}

function temps (dir: string): string[] {
  return readdirSync(dir).filter((n) => tempPattern('afhttp-profile.json').test(n))
}

t.test('replaces the file with the new content, leaves no temp, mode 0600', async (t) => {
  const { dir, target } = setup(t)
  const result = await durableWrite(target, NEW)
  t.same(result, { durable: true })
  t.equal(readFileSync(target, 'utf8'), NEW)
  t.same(readdirSync(dir), ['afhttp-profile.json'])
  t.equal(statSync(target).mode & 0o777, 0o600)
})

t.test('ENOSPC during write leaves the old file byte-identical, reports the errno and removes the temp', async (t) => {
  const { dir, target } = setup(t)
  // Half of the data lands on disk first, as on a really full disk.
  const fs = faultyFs({ write: (call) => { if (call > 1) throw errno('ENOSPC', -28, 'write'); return 100 } })
  const err = await durableWrite(target, NEW, { fs }).catch((e: unknown) => e)
  t.ok(err instanceof DurableWriteError)
  t.match(err, { code: 'ENOSPC', errno: -28, step: 'write', tempRemoved: true })
  t.equal(readFileSync(target, 'utf8'), OLD)
  t.same(temps(dir), [])
})

t.test('short writes are continued until the whole buffer is written', async (t) => {
  const { target } = setup(t)
  const fs = faultyFs({ write: () => 1 })
  t.same(await durableWrite(target, NEW, { fs }), { durable: true })
  t.equal(readFileSync(target, 'utf8'), NEW)
  t.equal(fs.writes, Buffer.byteLength(NEW), 'one call per byte')
})

t.test('EINTR and EAGAIN are retried', async (t) => {
  const { target } = setup(t)
  const fs = faultyFs({
    write: (call) => {
      if (call === 1) throw errno('EINTR', -4, 'write')
      if (call === 2) throw errno('EAGAIN', -11, 'write')
      return undefined
    }
  })
  t.same(await durableWrite(target, NEW, { fs }), { durable: true })
  t.equal(readFileSync(target, 'utf8'), NEW)
  t.equal(fs.writes, 3)
})

t.test('a write that never makes progress fails instead of spinning', async (t) => {
  const { dir, target } = setup(t)
  const fs = faultyFs({ write: () => 0 })
  await t.rejects(durableWrite(target, NEW, { fs }), { code: 'EIO', step: 'write' })
  t.equal(readFileSync(target, 'utf8'), OLD)
  t.same(temps(dir), [])
})

t.test('EIO on fsync of the temp file leaves the old file and removes the temp', async (t) => {
  const { dir, target } = setup(t)
  const fs = faultyFs({ sync: () => { throw errno('EIO', -5, 'fsync') } })
  await t.rejects(durableWrite(target, NEW, { fs }), { code: 'EIO', errno: -5, step: 'fsync', tempRemoved: true })
  t.equal(readFileSync(target, 'utf8'), OLD)
  t.same(temps(dir), [])
})

t.test('a failed rename leaves the old file and removes the temp', async (t) => {
  const { dir, target } = setup(t)
  const fs = faultyFs({ rename: () => { throw errno('EACCES', -13, 'rename') } })
  await t.rejects(durableWrite(target, NEW, { fs }), { code: 'EACCES', step: 'rename', tempRemoved: true })
  t.equal(readFileSync(target, 'utf8'), OLD)
  t.same(temps(dir), [])
})

t.test('when the temp cannot be removed the error says so', async (t) => {
  const { dir, target } = setup(t)
  const fs = faultyFs({
    rename: () => { throw errno('EIO', -5, 'rename') },
    unlink: () => { throw errno('EROFS', -30, 'unlink') }
  })
  await t.rejects(durableWrite(target, NEW, { fs }), { code: 'EIO', step: 'rename', tempRemoved: false })
  t.equal(readFileSync(target, 'utf8'), OLD)
  t.equal(temps(dir).length, 1)
})

t.test('a failed directory fsync after the rename is returned, with the new file complete', async (t) => {
  const { dir, target } = setup(t)
  const fs = faultyFs({ dirSync: () => { throw errno('EIO', -5, 'fsync') } })
  const result = await durableWrite(target, NEW, { fs })
  t.equal(result.durable, false)
  if (!result.durable) t.match(result.error, { code: 'EIO', step: 'dir_fsync' })
  t.equal(readFileSync(target, 'utf8'), NEW)
  t.same(temps(dir), [])
})

// The TypeScript loader this test process runs under (the suite's own, or tap's), for the child.
const tsLoader = process.execArgv.find((a) => a.includes('test/loader/register.mjs') || a.includes('@tapjs/typescript'))
const killSkip = tsLoader ? false : 'needs the TypeScript loader to run the module in a child process'

t.test('a writer killed before the rename leaves only a temp; cleanStaleTemps removes it', { skip: killSkip }, async (t) => {
  const { dir, target } = setup(t)
  const moduleUrl = pathToFileURL(join(import.meta.dirname, '../../src/store/durable-write.ts')).href
  // The child parks inside rename, i.e. after write+fsync, and is SIGKILLed there.
  const code = `
    import { durableWrite, nodeFs } from ${JSON.stringify(moduleUrl)}
    const fs = { ...nodeFs, rename: () => { process.stdout.write('parked\\n'); return new Promise(() => setInterval(() => {}, 1000)) } }
    await durableWrite(${JSON.stringify(target)}, ${JSON.stringify(NEW)}, { fs })`
  const child = spawn(process.execPath, [tsLoader as string, '--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] })
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => { if (d.toString().includes('parked')) resolve() })
    child.on('exit', (c) => reject(new Error(`child exited early with ${c}`)))
  })
  child.kill('SIGKILL')
  await new Promise((resolve) => child.once('exit', resolve))

  t.equal(readFileSync(target, 'utf8'), OLD, 'old metadata untouched by the killed writer')
  const left = temps(dir)
  t.equal(left.length, 1, 'the killed writer left its temp file')
  t.match(left[0], `.${child.pid}.`, 'the temp names its writer pid')
  t.equal(readFileSync(join(dir, left[0]), 'utf8'), NEW)

  const removed = await cleanStaleTemps(dir, 'afhttp-profile.json', { isStale: (pid) => pid === child.pid })
  t.same(removed, left)
  t.same(readdirSync(dir), ['afhttp-profile.json'])
  t.equal(readFileSync(target, 'utf8'), OLD)
})

t.test('cleanStaleTemps keeps temps the predicate calls live and ignores unrelated files', async (t) => {
  const dir = t.testdir({
    'afhttp-profile.json': OLD,
    '.afhttp-profile.json.111.abcdef.tmp': 'x',
    '.afhttp-profile.json.222.0123.tmp': 'y',
    '.other.json.111.abcdef.tmp': 'z',
    'afhttp-profile.json.bak': 'w'
  })
  const removed = await cleanStaleTemps(dir, 'afhttp-profile.json', { isStale: (pid) => pid === 111 })
  t.same(removed, ['.afhttp-profile.json.111.abcdef.tmp'])
  t.same(readdirSync(dir).sort(), ['.afhttp-profile.json.222.0123.tmp', '.other.json.111.abcdef.tmp', 'afhttp-profile.json', 'afhttp-profile.json.bak'])
  t.same(await cleanStaleTemps(join(dir, 'missing'), 'afhttp-profile.json'), [])
})

function mountTmpfs (dir: string): string | undefined {
  const res = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { encoding: 'utf8' })
  return res.status === 0 ? undefined : (res.stderr || res.error?.message || `exit ${res.status}`).trim()
}

/** Why a real tmpfs cannot be used here (a skip, never a pass), or false when it can. */
function tmpfsSkip (): string | false {
  if (process.getuid?.() !== 0) return 'needs root to mount a tmpfs'
  const probe = mkdtempSync(join(tmpdir(), 'afhttp-tmpfs-'))
  try {
    const problem = mountTmpfs(probe)
    if (problem) return `mount -t tmpfs is not permitted here: ${problem}`
    spawnSync('umount', [probe])
    return false
  } finally {
    rmdirSync(probe)
  }
}

t.test('a real full filesystem (64 KiB tmpfs): ENOSPC leaves the old file intact', { skip: tmpfsSkip() }, async (t) => {
  const dir = t.testdir({})
  const problem = mountTmpfs(dir)
  if (problem) throw new Error(`mount failed after the probe succeeded: ${problem}`)
  // Unmounted here, not in t.teardown: tap removes the testdir before running teardowns.
  try {
    await fillAndWrite(t, dir)
  } finally {
    spawnSync('umount', [dir])
  }
})

async function fillAndWrite (t: Test, dir: string): Promise<void> {
  const target = join(dir, 'afhttp-profile.json')
  t.same(await durableWrite(target, OLD), { durable: true })
  // Fill every remaining block.
  const chunk = Buffer.alloc(4096, 1)
  let filled = 0
  for (;;) {
    try {
      writeFileSync(join(dir, 'filler'), chunk, { flag: 'a' })
      filled += chunk.length
    } catch (err) {
      t.equal((err as NodeJS.ErrnoException).code, 'ENOSPC', 'the filesystem is full')
      break
    }
  }
  t.ok(filled > 0)
  const err = await durableWrite(target, NEW.repeat(20)).catch((e: unknown) => e)
  t.match(err, { code: 'ENOSPC', step: 'write', tempRemoved: true })
  t.equal(readFileSync(target, 'utf8'), OLD)
  t.same(readdirSync(dir).sort(), ['afhttp-profile.json', 'filler'])
}
