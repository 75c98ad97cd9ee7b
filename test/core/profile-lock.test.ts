import t from 'tap'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readdirSync, readFileSync, utimesSync, writeFileSync, existsSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { acquireProfileLock, isProcessAlive, LOCK_FILE } from '../../src/store/profile-lock.js'

const record = (pid: number): string => JSON.stringify({ pid, started_at: '2024-01-01T00:00:00.000Z', hostname: 'old-host', acquired_at: '2024-01-01T00:00:01.000Z' })

/** The pid of a process that has certainly exited. */
async function deadPid (): Promise<number> {
  const child = spawn('true')
  await once(child, 'exit')
  return child.pid as number
}

t.test('acquire writes pid, start time and hostname; release removes the file', async (t) => {
  const dir = t.testdir({})
  const lock = await acquireProfileLock(dir)
  t.equal(lock.takeover, undefined)
  const onDisk = JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))
  t.match(onDisk, { pid: process.pid, hostname: hostname(), started_at: String, acquired_at: String })
  t.ok(Date.parse(onDisk.started_at) <= Date.now())
  t.equal(await lock.release(), true)
  t.notOk(existsSync(join(dir, LOCK_FILE)))
  const again = await acquireProfileLock(dir)
  t.equal(again.takeover, undefined, 'a released lock is simply free')
  await again.release()
})

t.test('a second acquire in the same process is refused while held', async (t) => {
  const dir = t.testdir({})
  const lock = await acquireProfileLock(dir)
  await t.rejects(acquireProfileLock(dir), { code: 'profile_locked', details: { pid: process.pid } })
  await lock.release()
})

t.test('a lock held by a live other process is profile_locked and left alone', async (t) => {
  const sleeper = spawn('sleep', ['30'])
  t.teardown(() => { sleeper.kill('SIGKILL') })
  const pid = sleeper.pid as number
  t.ok(isProcessAlive(pid))
  const dir = t.testdir({ [LOCK_FILE]: record(pid) })
  const err = await acquireProfileLock(dir).catch((e: unknown) => e)
  t.match(err, { code: 'profile_locked', statusCode: 423, details: { pid, hostname: 'old-host', lock_file: join(dir, LOCK_FILE) } })
  t.match((err as Error).message, new RegExp(`process ${pid} on old-host`))
  t.equal(readFileSync(join(dir, LOCK_FILE), 'utf8'), record(pid))
})

t.test('a lock from a dead process is taken over and the takeover reported', async (t) => {
  const pid = await deadPid()
  t.notOk(isProcessAlive(pid))
  const dir = t.testdir({ [LOCK_FILE]: record(pid) })
  const lock = await acquireProfileLock(dir)
  t.match(lock.takeover, { reason: 'dead_pid', previous: { pid, hostname: 'old-host' } })
  t.equal(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).pid, process.pid)
  t.same(readdirSync(dir), [LOCK_FILE], 'the stale lock left no aside file')
  await lock.release()
})

t.test('two takeovers of the same stale lock: exactly one wins', async (t) => {
  const dir = t.testdir({ [LOCK_FILE]: record(await deadPid()) })
  const results = await Promise.allSettled([acquireProfileLock(dir), acquireProfileLock(dir)])
  const won = results.filter((r) => r.status === 'fulfilled')
  t.equal(won.length, 1)
  t.match(results.find((r) => r.status === 'rejected'), { reason: { code: 'profile_locked' } })
  await (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof acquireProfileLock>>>).value.release()
})

t.test('our own pid from an earlier run (container pid reuse) is a stale lock', async (t) => {
  const dir = t.testdir({ [LOCK_FILE]: record(process.pid) })
  const lock = await acquireProfileLock(dir)
  t.match(lock.takeover, { reason: 'previous_incarnation', previous: { pid: process.pid } })
  await lock.release()
})

t.test('an unreadable lock is respected while fresh and taken over once old', async (t) => {
  const dir = t.testdir({ [LOCK_FILE]: '' })
  await t.rejects(acquireProfileLock(dir), { code: 'profile_locked' }, 'its writer may be between open and write')
  const old = new Date(Date.now() - 60_000)
  utimesSync(join(dir, LOCK_FILE), old, old)
  const lock = await acquireProfileLock(dir)
  t.match(lock.takeover, { reason: 'unreadable', previous: null })
  await lock.release()
})

t.test('the lock appears whole or not at all: 20 racing acquirers, one winner, no temp left', async (t) => {
  const dir = t.testdir({})
  const results = await Promise.allSettled(Array.from({ length: 20 }, () => acquireProfileLock(dir)))
  const won = results.filter((r) => r.status === 'fulfilled')
  t.equal(won.length, 1)
  t.ok(results.every((r) => r.status === 'fulfilled' || (r.reason as { code?: string }).code === 'profile_locked'))
  // Losers read a complete record, so none was refused as "a process that is still writing the lock".
  t.notOk(results.some((r) => r.status === 'rejected' && /still writing/.test((r.reason as Error).message)))
  t.same(readdirSync(dir), [LOCK_FILE], 'each acquirer removed its temp file')
  t.match(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')), { pid: process.pid })
  await (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof acquireProfileLock>>>).value.release()
})

t.test('release leaves a lock that is no longer ours', async (t) => {
  const dir = t.testdir({})
  const lock = await acquireProfileLock(dir)
  writeFileSync(join(dir, LOCK_FILE), record(1))
  t.equal(await lock.release(), false)
  t.equal(readFileSync(join(dir, LOCK_FILE), 'utf8'), record(1))
})

t.test('isProcessAlive never probes process groups', async (t) => {
  t.equal(isProcessAlive(0), false)
  t.equal(isProcessAlive(-1), false)
  t.equal(isProcessAlive(1.5), false)
  t.equal(isProcessAlive(process.pid), true)
})
