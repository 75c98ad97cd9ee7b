import t from 'tap'
import { spawn } from 'node:child_process'
import { endOrphans, findOrphans, ownerAlive, ownerEnv, parseOwnerMarker } from '../../src/browser/orphans.js'

t.test('the owner marker is read from an environment block', async (t) => {
  t.same(parseOwnerMarker('A=1\0AFHTTP_OWNER_PID=42\0AFHTTP_OWNER_START=999\0AFHTTP_OWNER_ROOT=/profiles\0'), { pid: 42, start: '999', root: '/profiles' })
  t.equal(parseOwnerMarker('PATH=/bin\0'), undefined, 'unmarked processes are nobody\'s orphans')
  t.equal(parseOwnerMarker('AFHTTP_OWNER_PID=x\0AFHTTP_OWNER_ROOT=/p\0'), undefined)
  t.equal(parseOwnerMarker('AFHTTP_OWNER_PID=5\0'), undefined, 'a marker needs its profiles directory')
})

t.test('an owner is alive only with its own start time', async (t) => {
  const mine = parseOwnerMarker(Object.entries(ownerEnv('/p')).map(([k, v]) => `${k}=${v}`).join('\0'))
  t.ok(mine && ownerAlive(mine), 'this process is alive')
  t.notOk(mine && ownerAlive({ ...mine, start: '1' }), 'a reused pid is not the owner')
  t.notOk(ownerAlive({ pid: 2 ** 22 + 17, start: '', root: '/p' }), 'a pid that does not run')
})

t.test('only processes of a dead owner on the same profiles directory are ended', async (t) => {
  const root = t.testdir()
  const deadOwner = { AFHTTP_OWNER_PID: String(2 ** 22 + 17), AFHTTP_OWNER_START: '1', AFHTTP_OWNER_ROOT: root }
  const orphan = spawn('sleep', ['30'], { env: { ...process.env, ...deadOwner }, stdio: 'ignore' })
  const otherRoot = spawn('sleep', ['30'], { env: { ...process.env, ...deadOwner, AFHTTP_OWNER_ROOT: `${root}-other` }, stdio: 'ignore' })
  const liveOwner = spawn('sleep', ['30'], { env: { ...process.env, ...ownerEnv(root) }, stdio: 'ignore' })
  const unmarked = spawn('sleep', ['30'], { stdio: 'ignore' })
  const all = [orphan, otherRoot, liveOwner, unmarked]
  t.teardown(() => { for (const c of all) c.kill('SIGKILL') })
  await Promise.all(all.map((c) => new Promise((resolve) => c.once('spawn', resolve))))

  t.same((await findOrphans(root)).map((o) => o.pid), [orphan.pid])
  const exited = new Promise((resolve) => orphan.once('exit', (_code, signal) => resolve(signal)))
  const ended = await endOrphans(root)
  t.same(ended.map((o) => [o.pid, o.command]), [[orphan.pid, 'sleep']])
  t.equal(await exited, 'SIGKILL')
  for (const c of [otherRoot, liveOwner, unmarked]) t.equal(c.exitCode, null, 'the others still run')
})
