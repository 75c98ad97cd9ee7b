// The processes the host runs beside Chromium (src/browser/host-processes.ts) and the forwarder
// decision of a launch (src/browser/profile-egress.ts), with fake starters: nothing is spawned.
// docs/spec.md sections 13, 21 and 22.
import t from 'tap'
import type { BrowserModePlan } from '../../src/core/browser-mode.js'
import { HostProcesses } from '../../src/browser/host-processes.js'
import type { Orphan } from '../../src/browser/orphans.js'
import type { XvfbServer } from '../../src/browser/xvfb.js'
import { startProfileEgress } from '../../src/browser/profile-egress.js'
import { parseUrlDeny } from '../../src/core/url-deny.js'
import type { ProfileMetadata } from '../../src/core/profile-metadata.js'
import { afhttpErrorOf } from '../handoffs/fakes.js'
import { FakeLog } from './fakes.js'

function fakeXvfb (display: string): XvfbServer & { exit: () => void, stops: number } {
  let exit = (): void => undefined
  const exited = new Promise<void>((resolve) => { exit = resolve })
  const server = {
    display,
    pid: 900,
    exited,
    stops: 0,
    exit: () => exit(),
    async stop () { server.stops++ }
  }
  return server
}

function processes (plan: BrowserModePlan, orphans: Orphan[] = []) {
  const log = new FakeLog()
  const shutdown = new AbortController()
  const started: Array<{ path: string, env: Record<string, string | undefined> }> = []
  const servers: Array<ReturnType<typeof fakeXvfb>> = []
  const watchdogs: Array<{ markers: string[], dismissed: number }> = []
  let failNext: Error | undefined
  const host = new HostProcesses({
    root: '/profiles',
    plan,
    log,
    signal: shutdown.signal,
    startXvfb: async (path, env) => {
      started.push({ path, env })
      if (failNext) { const err = failNext; failNext = undefined; throw err }
      const server = fakeXvfb(`:${started.length}`)
      servers.push(server)
      return server
    },
    startWatchdog: (markers) => {
      const w = { markers, dismissed: 0 }
      watchdogs.push(w)
      return { pid: 1, dismiss: () => { w.dismissed++ } }
    },
    endOrphans: async () => orphans
  })
  return { host, log, shutdown, started, servers, watchdogs, failWith: (err: Error) => { failNext = err } }
}

t.test('a headless host or one with a display starts no Xvfb and no watchdog for it', async (t) => {
  const headless = processes({ mode: 'headless' })
  t.equal(await headless.host.display(), undefined)
  const shown = processes({ mode: 'headful', display: ':0' })
  t.equal(await shown.host.display(), ':0')
  t.same([...headless.started, ...shown.started], [])
  t.same([...headless.watchdogs, ...shown.watchdogs], [])
})

t.test('our own Xvfb: one for every caller, marked as ours, under a watchdog; again after it exits', async (t) => {
  const { host, log, started, servers, watchdogs } = processes({ mode: 'headful', xvfbPath: '/usr/bin/Xvfb' })
  const [a, b] = await Promise.all([host.display(), host.display()])
  t.equal(a, ':1')
  t.equal(b, ':1', 'two launches share one Xvfb')
  t.equal(started.length, 1)
  t.equal(started[0].path, '/usr/bin/Xvfb')
  t.equal(started[0].env.AFHTTP_OWNER_ROOT, '/profiles', 'it carries the owner marker a later host sweeps by')
  t.equal(started[0].env.AFHTTP_OWNER_PID, String(process.pid))
  t.equal(watchdogs.length, 1, 'the watchdog is up before the first process')
  t.ok(watchdogs[0].markers.includes('AFHTTP_OWNER_ROOT=/profiles'))
  t.same(log.find('started Xvfb for a headful Chromium')?.obj, { display: ':1', pid: 900 })

  servers[0].exit()
  await new Promise((resolve) => setImmediate(resolve))
  t.same(log.find('Xvfb exited'), { level: 'warn', obj: { display: ':1' }, msg: 'Xvfb exited' })
  t.equal(await host.display(), ':2', 'a display that died is started again')
  t.equal(watchdogs.length, 1, 'one watchdog for the host\'s life')

  await host.stop()
  t.equal(servers[1].stops, 1, 'stop ends our Xvfb')
  t.equal(watchdogs[0].dismissed, 1, 'and the watchdog leaves without a sweep')
})

t.test('an Xvfb that cannot start is backend_unavailable; the next launch tries again', async (t) => {
  const { host, started, failWith } = processes({ mode: 'headful', xvfbPath: '/usr/bin/Xvfb' })
  failWith(new Error('Xvfb did not print a display within 10000 ms'))
  const err = await afhttpErrorOf(() => host.display())
  t.equal(err.code, 'backend_unavailable')
  t.equal(err.message, 'A headful Chromium needs a display: Xvfb did not print a display within 10000 ms')
  t.equal(await host.display(), ':2')
  t.equal(started.length, 2)
})

t.test('an Xvfb that exits while the host shuts down is not reported', async (t) => {
  const { host, log, shutdown, servers } = processes({ mode: 'headful', xvfbPath: '/usr/bin/Xvfb' })
  await host.display()
  shutdown.abort()
  servers[0].exit()
  await new Promise((resolve) => setImmediate(resolve))
  t.equal(log.find('Xvfb exited'), undefined)
  await host.stop()
  t.equal(servers[0].stops, 1)
})

t.test('orphans of a dead host are logged with their pids and each dead owner once', async (t) => {
  const owner = { pid: 77, start: '1', root: '/profiles' }
  const { host, log } = processes({ mode: 'headless' }, [
    { pid: 101, command: 'chromium', owner },
    { pid: 102, command: 'Xvfb', owner }
  ])
  await host.reclaimOrphans()
  t.same(log.lines, [{
    level: 'warn',
    obj: { ended: [{ pid: 101, command: 'chromium' }, { pid: 102, command: 'Xvfb' }], dead_host_pid: [77] },
    msg: 'ended browser processes left running by a dead afhttp host on these profiles'
  }])
  const quiet = processes({ mode: 'headless' })
  await quiet.host.reclaimOrphans()
  t.same(quiet.log.lines, [], 'nothing ended, nothing logged')
})

t.test('a profile\'s forwarder: none without a proxy or a deny list; a cdp profile refused under AFHTTP_URL_DENY', async (t) => {
  const log = new FakeLog()
  const chromium = { backend: 'chromium' } as unknown as ProfileMetadata
  const cdp = { backend: 'cdp', cdp_url: 'http://127.0.0.1:9222' } as unknown as ProfileMetadata
  t.equal(await startProfileEgress('work', chromium, undefined, log), undefined)
  t.equal(await startProfileEgress('remote', cdp, undefined, log), undefined, 'an attached browser connects on its own')
  const deny = parseUrlDeny('10.0.0.0/8')
  const err = await afhttpErrorOf(() => startProfileEgress('remote', cdp, deny, log))
  t.equal(err.code, 'backend_unavailable')
  t.equal(err.message, 'Profile "remote" attaches to a browser the host does not launch, so AFHTTP_URL_DENY cannot be enforced on it; cdp profiles are refused while it is set.')
  t.same(log.lines, [])
})
