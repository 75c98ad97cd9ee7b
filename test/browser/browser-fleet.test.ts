// The browser fleet on fakes (test/browser/fakes.ts): one start however many ask, what a failed
// start and a crash leave behind, the order a loss is told in, the cookie record, and the order
// of shutdown (docs/spec.md section 22). No Chromium.
import t from 'tap'
import { AfhttpError } from '../../src/errors.js'
import { afhttpErrorOf } from '../handoffs/fakes.js'
import { fakeFleet, FakeBrowser, FakeEgress, FakeJournal } from './fakes.js'

t.test('callers that ask while a browser starts share one start; it is served only once ready', async (t) => {
  const { fleet, launch, lifecycle } = fakeFleet()
  t.teardown(() => fleet.closeAll())
  const heard: string[] = []
  fleet.onStarted((profile) => heard.push(`started ${profile} after ${lifecycle.told.length} transitions`))
  t.same(fleet.status('work'), { running: false, connected: false }, 'a profile never used')

  const first = fleet.get('work')
  const second = fleet.get('work')
  t.equal(launch.calls.length, 1, 'one launch for two callers')
  t.equal(launch.calls[0].restart, false)
  launch.calls[0].entry.pid = 4242
  launch.calls[0].entry.backend = 'chromium'
  t.same(fleet.status('work'), { running: false, connected: false, backend: 'chromium', pid: 4242, starting: true }, 'starting, with the pid the launch already has')
  t.equal(fleet.peek('work'), undefined, 'not handed out while starting')

  const browser = new FakeBrowser(4242)
  launch.succeed(browser, { version: 'Chrome/140' })
  t.equal(await first, browser.asBrowser)
  t.equal(await second, browser.asBrowser)
  t.equal(fleet.peek('work'), browser.asBrowser)
  t.same(fleet.status('work'), { running: true, connected: true, backend: 'chromium', pid: 4242 })
  t.equal(fleet.chromiumVersion('work'), 'Chrome/140')
  t.same(heard, ['started work after 0 transitions'], 'listeners hear before browser.started is told')
  t.same(lifecycle.told, [{ type: 'browser.started', where: { profile: 'work' }, data: { pid: 4242 } }])

  t.equal(await fleet.get('work'), browser.asBrowser, 'a running browser is not started again')
  t.equal(launch.calls.length, 1)
})

t.test('an attached browser has no process: browser.started tells pid null', async (t) => {
  const { fleet, launch, lifecycle } = fakeFleet()
  t.teardown(() => fleet.closeAll())
  const started = fleet.get('remote')
  launch.succeed(new FakeBrowser(), { backend: 'cdp' })
  await started
  t.same(lifecycle.told, [{ type: 'browser.started', where: { profile: 'remote' }, data: { pid: null } }])
  t.equal(fleet.status('remote').backend, 'cdp')
})

t.test('a failed start is backend_unavailable with its reason, kept in status; the next use starts again', async (t) => {
  const { fleet, launch, lifecycle } = fakeFleet()
  t.teardown(() => fleet.closeAll())
  const asked = fleet.get('work')
  launch.fail(new Error('Failed to launch the browser process'))
  const err = await afhttpErrorOf(() => asked)
  t.equal(err.code, 'backend_unavailable')
  t.equal(err.message, 'Failed to launch the browser process')
  t.equal((err.cause as Error).message, 'Failed to launch the browser process', 'the cause is kept')
  t.same(fleet.status('work'), { running: false, connected: false, backend: 'chromium', pid: undefined, error: 'Failed to launch the browser process' })
  t.same(lifecycle.told, [], 'nothing started, nothing told')

  const refused = new AfhttpError('profile_not_found', 'No profile "work".')
  const again = fleet.get('work')
  t.equal(launch.calls.length, 2, 'asked again, started again')
  t.equal(launch.calls[1].restart, true, 'the launch sees the previous error (it logs a restart)')
  launch.fail(refused)
  t.equal(await afhttpErrorOf(() => again), refused, 'an AfhttpError passes through as it is')
  t.equal(fleet.status('work').error, 'No profile "work".')

  const third = fleet.get('work')
  launch.succeed(new FakeBrowser(7))
  await third
  t.equal(fleet.status('work').error, undefined, 'a successful start clears the error')
})

t.test('a crash: logged with the exit code, listeners told before browser.lost, its forwarder closed', async (t) => {
  const { fleet, launch, lifecycle, log } = fakeFleet()
  t.teardown(() => fleet.closeAll())
  const egress = new FakeEgress()
  const lost: string[] = []
  fleet.onLost((profile) => lost.push(`${profile} after ${lifecycle.types().join(',')}`))
  const browser = new FakeBrowser(31)
  const started = fleet.get('work')
  launch.succeed(browser, { egress: egress.asEgress })
  await started
  t.equal(fleet.egress('work'), egress.asEgress)

  browser.crash(9)
  t.same(fleet.status('work'), { running: false, connected: false, backend: 'chromium', pid: 31, error: 'browser disconnected (exit code 9)' })
  t.equal(fleet.peek('work'), undefined)
  t.equal(egress.closed, 1, 'the forwarder goes with its browser')
  t.equal(fleet.egress('work'), undefined)
  t.same(lost, ['work after browser.started'], 'the loss listeners hear first')
  t.same(lifecycle.types(), ['browser.started', 'browser.lost'])
  t.same(lifecycle.told[1], { type: 'browser.lost', where: { profile: 'work' }, data: {} })
  const line = log.find('browser went away; the next explicit use starts it again')
  t.same(line, { level: 'error', obj: { profile: 'work', pid: 31, error: 'browser disconnected (exit code 9)' }, msg: 'browser went away; the next explicit use starts it again' })

  const restarted = fleet.get('work')
  t.equal(launch.calls.length, 2)
  t.equal(launch.calls[1].restart, true)
  launch.succeed(new FakeBrowser(32))
  await restarted
  t.equal(fleet.status('work').pid, 32)
})

t.test('a listener that throws is logged and never fails the launch nor hides the event from the others', async (t) => {
  const { fleet, launch, lifecycle, log } = fakeFleet()
  t.teardown(() => fleet.closeAll())
  const heard: string[] = []
  fleet.onStarted(() => { throw new Error('boom') })
  fleet.onStarted((profile) => heard.push(`started ${profile}`))
  fleet.onLost(() => { throw new Error('bang') })
  fleet.onLost((profile) => heard.push(`lost ${profile}`))
  const browser = new FakeBrowser(5)
  const started = fleet.get('work')
  launch.succeed(browser)
  t.equal(await started, browser.asBrowser, 'the launch succeeds')
  browser.crash(1)
  t.same(heard, ['started work', 'lost work'])
  t.same(lifecycle.types(), ['browser.started', 'browser.lost'])
  const failures = log.lines.filter((l) => l.level === 'error' && l.msg.endsWith('listener failed'))
  t.same(failures.map((l) => [l.msg, l.obj.profile, (l.obj.err as Error).message]), [
    ['browser start listener failed', 'work', 'boom'],
    ['browser loss listener failed', 'work', 'bang']
  ])
})

t.test('cookies are recorded only from a running browser with a record', async (t) => {
  const { fleet, launch } = fakeFleet()
  t.teardown(() => fleet.closeAll())
  t.equal(await fleet.recordCookies('nobody', 'fetch'), 'unchanged', 'an unknown profile')

  const journal = new FakeJournal()
  const browser = new FakeBrowser(1)
  const started = fleet.get('work')
  launch.succeed(browser, { journal })
  await started
  const attached = new FakeBrowser()
  const other = fleet.get('remote')
  launch.succeed(attached)
  await other

  journal.outcome = 'written'
  t.equal(await fleet.recordCookies('work', 'fetch'), 'written')
  t.equal(await fleet.recordCookies('remote', 'fetch'), 'unchanged', 'an attached browser has no record')
  fleet.recordChangedJars()
  await new Promise((resolve) => setImmediate(resolve))
  t.same(journal.records.map((r) => [r.browser, r.reason]), [[browser.asBrowser, 'fetch'], [browser.asBrowser, 'interval']])

  browser.crash(1)
  t.equal(await fleet.recordCookies('work', 'fetch'), 'unchanged', 'a browser that went away is not read')
  fleet.recordChangedJars()
  t.equal(journal.records.length, 2, 'nor recorded by the interval')
})

t.test('closeAll: aborts starts, records each jar, closes or disconnects, then stops the host processes', async (t) => {
  const { fleet, launch, lifecycle, log, shutdown, hostProcessesStopped } = fakeFleet()
  const journal = new FakeJournal()
  const owned = new FakeBrowser(10)
  const attached = new FakeBrowser()
  const stuck = new FakeBrowser(12)
  stuck.failClose = true
  const order: string[] = []
  const ownedEgress = new FakeEgress()
  for (const [profile, browser, fill] of [['a', owned, { journal, egress: ownedEgress.asEgress }], ['b', attached, {}], ['c', stuck, {}]] as const) {
    const p = fleet.get(profile)
    launch.succeed(browser, fill)
    await p
  }
  journal.record = async (b, reason) => { order.push(`record ${reason} connected=${String(b.connected)}`); return 'written' }
  const starting = fleet.get('d')
  starting.catch(() => undefined)
  fleet.onLost((profile) => order.push(`lost ${profile}`))

  const closing = fleet.closeAll()
  t.equal(shutdown.signal.aborted, true, 'what is starting is aborted at once')
  t.same(hostProcessesStopped, [], 'Xvfb and the watchdog wait for the browsers')
  launch.fail(new Error('the host is shutting down'))
  await closing

  t.same(owned.calls, ['close'], 'a launched browser is closed')
  t.same(attached.calls, ['disconnect'], 'an attached one only disconnected')
  t.same(order.filter((x) => !x.startsWith('lost ') || x === 'lost a'), ['record shutdown connected=true', 'lost a'], 'the jar is recorded before its browser closes')
  t.equal(ownedEgress.closed, 1)
  t.same(stuck.child?.signals, ['SIGKILL'], 'one that does not close is killed')
  const warned = log.find('browser did not close cleanly')
  t.equal(warned?.obj.profile, 'c')
  t.equal((warned?.obj.err as Error).message, 'Target closed')
  t.equal(hostProcessesStopped.length, 1, 'then Xvfb and the watchdog stop')
  t.equal(fleet.status('a').error, undefined, 'a close the host asked for is no crash')
  t.notOk(log.find('browser went away; the next explicit use starts it again'))
  t.same(lifecycle.types().filter((x) => x === 'browser.lost').length, 2, 'the closed browsers are told lost')
  t.equal(fleet.status('d').error, 'the host is shutting down')
})
