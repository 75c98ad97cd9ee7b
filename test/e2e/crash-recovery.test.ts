// docs/spec.md section 13: a host killed without cleanup (SIGKILL, OOM) whose watchdog is gone too
// (docs/spec.md section 22 makes the watchdog the first line: test/e2e/nothing-left-behind.test.ts)
// leaves its Chromium and Xvfb running on the profile. A restarted host takes the profile back
// and serves it; it never touches a Chromium that a live process owns.
import { spawn } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import t from 'tap'
import { processesStartedBy, profilesDirFor, running, spawnHost } from '../helpers/host-process.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { processesOf } from '../helpers/proc-tree.js'

const PAGE = '<!doctype html><title>Back</title><main><h1>Still here</h1><p>The restarted host fetched this page on the profile its predecessor left behind.</p></main>'

t.test('a SIGKILLed host does not keep its profile hostage', async (t) => {
  const dir = await profilesDirFor(t)
  const profiles = dir.path
  const site = await startFixtureServer(t, { '/page': { body: PAGE } })
  const first = await spawnHost(t, profiles)
  await first.ready()
  const leftBehind = processesStartedBy(first.child.pid as number)
  t.ok(leftBehind.some((p) => p.command === 'Xvfb'), 'the first host runs its own Xvfb')
  t.ok(leftBehind.some((p) => /chrom/i.test(p.command)), 'and its Chromium')

  // The watchdog first (as if the OOM killer took it), then the host: nothing cleans up now.
  const watchdogs = processesOf(first.child.pid as number).filter((p) => p.command.includes('afhttp-watchdog'))
  t.equal(watchdogs.length, 1, 'the host has its watchdog')
  for (const w of watchdogs) process.kill(w.pid, 'SIGKILL')
  await new Promise((resolve) => setTimeout(resolve, 200))
  first.child.kill('SIGKILL')
  await first.exited
  t.ok(leftBehind.every((p) => running(p.pid)), 'without its watchdog, SIGKILL leaves its Chromium and Xvfb running')

  const second = await spawnHost(t, profiles)
  dir.removeAfterHosts()
  await second.ready()
  t.ok(leftBehind.every((p) => !running(p.pid)), 'the restarted host ended every process the dead one left')
  const ended = second.lines().find((l) => l.msg === 'ended browser processes left running by a dead afhttp host on these profiles')
  t.ok(ended, 'and logged what it ended')
  t.same((ended?.dead_host_pid as number[]) ?? [], [first.child.pid], 'naming the dead host')
  const lock = second.lines().find((l) => l.msg === 'took over a stale profile lock')
  t.equal((lock?.previous_lock as { pid?: number } | undefined)?.pid, first.child.pid, 'the dead host\'s profile lock was taken over')

  const res = await second.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/page` }) })
  const body = await res.json() as { ok: boolean, artifacts: { text: string } }
  t.equal(body.ok, true, 'the profile serves fetches again')
  t.match(body.artifacts.text, /Still here/)
})

t.test('a Chromium that a live process owns is never touched', async (t) => {
  const dir = await profilesDirFor(t)
  const profiles = dir.path
  const userDataDir = `${profiles}/default/browser`
  mkdirSync(userDataDir, { recursive: true })
  // A person's own browser on the profile's data, started by a process that is alive (this test).
  const root = typeof process.getuid === 'function' && process.getuid() === 0
  const theirs = spawn('/usr/bin/chromium', [
    '--headless', `--user-data-dir=${userDataDir}`, '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--disable-gpu', ...(root ? ['--no-sandbox'] : []), '--remote-debugging-port=0', 'about:blank'
  ], { stdio: 'ignore' })
  const theirsExited = new Promise<void>((resolve) => theirs.once('exit', () => resolve()))
  t.teardown(async () => { theirs.kill('SIGKILL'); await theirsExited })
  // Chromium takes the profile's SingletonLock when it is up.
  const { readlink } = await import('node:fs/promises')
  for (let i = 0; i < 100; i++) {
    if (await readlink(`${userDataDir}/SingletonLock`).then(() => true, () => false)) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }

  const host = await spawnHost(t, profiles)
  dir.removeAfterHosts()
  let health: { status: { takeover_ready: boolean }, backend_error?: string } | undefined
  // The host listens before its browser starts (docs/spec.md section 22): wait past "browser starting".
  for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
    try {
      health = await (await host.api('/health')).json() as typeof health
      if (health?.backend_error && health.backend_error !== 'browser starting') break
    } catch { /* not up yet */ }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  t.equal(health?.status.takeover_ready, false)
  t.match(health?.backend_error, new RegExp(`Another Chromium \\(pid ${theirs.pid}\\)`), 'the host says who holds the profile')
  t.ok(running(theirs.pid as number), 'and leaves that browser running')
  t.notOk(host.lines().some((l) => l.msg === 'ended browser processes left running by a dead afhttp host on these profiles'), 'nothing was ended')
})
