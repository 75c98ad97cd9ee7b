import t from 'tap'
import { startHost } from '../helpers/host.js'
import { ManualClock } from '../../src/core/clock.js'

t.test('the idle reaper closes idle unprotected tabs and reports what it kept', async (t) => {
  const clock = new ManualClock()
  const host = await startHost(t, { clock, env: { AFHTTP_TAB_IDLE_MS: '60000' } })
  const profile = host.config.defaultProfile
  const idle = await host.app.tabs.open(profile)
  const held = await host.app.tabs.open(profile)
  const busy = await host.app.tabs.open(profile)
  host.app.tabs.addProtector((tab) => tab.id === held.id ? 'open handoff' : undefined)

  clock.advance(30_000)
  t.same((await host.app.tabs.reap()).closed, [], 'nothing is idle yet')
  host.app.tabs.touch(busy.id)
  clock.advance(40_000)
  const report = await host.app.tabs.reap()
  t.same(report.closed.map((c) => c.tab_id), [idle.id])
  t.same(report.protected.map((p) => [p.tab_id, p.by]), [[held.id, 'open handoff']])
  t.same(report.failed, [])
  t.ok(idle.page.isClosed())
  t.notOk(held.page.isClosed(), 'a protected tab is never reaped')
  t.notOk(busy.page.isClosed(), 'a recently used tab stays')
  const logged = host.logs.lines.find((l) => l.msg === 'idle reaper ran')
  t.ok(logged, 'the run is reported in the log')
  t.ok(host.app.browsers.peek(profile)?.connected, 'the browser is never closed by the reaper')

  const health = await (await host.api('/health')).json()
  t.same(health.reaper.closed.map((c: { tab_id: string }) => c.tab_id), [idle.id], '/health shows the last reaper run')
})
