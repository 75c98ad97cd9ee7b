import t from 'tap'
import { ManualClock, systemClock } from '../../src/core/clock.js'
import { Lifecycle, type Transition } from '../../src/core/lifecycle.js'

t.test('transitions reach typed and catch-all listeners in order; a throwing one is reported, never propagated', async (t) => {
  const clock = new ManualClock()
  const errors: Array<[unknown, string]> = []
  const lc = new Lifecycle(clock, (err, type) => errors.push([err, type]))
  const heard: string[] = []
  lc.on('tab.closed', (tr) => heard.push(`closed:${tr.data.reason}`))
  lc.on('tab.closed', () => { throw new Error('boom') })
  lc.onAny((tr: Transition) => heard.push(`any:${tr.type}`))
  lc.on('browser.started', (tr) => heard.push(`started:${tr.data.pid}`))
  t.doesNotThrow(() => lc.emit('tab.closed', { tab_id: 't1', profile: 'p' }, { reason: 'api' }))
  lc.emit('browser.started', { profile: 'p' }, { pid: 7 })
  t.same(heard, ['closed:api', 'any:tab.closed', 'started:7', 'any:browser.started'])
  t.equal(errors.length, 1)
  t.equal(errors[0][1], 'tab.closed', 'the failing transition is named')
})

t.test('a transition carries the clock time, the tab and profile, and extras beside (not inside) the payload', async (t) => {
  const clock = new ManualClock()
  const lc = new Lifecycle(clock, () => undefined)
  let seen: { tr?: Transition, url?: string } = {}
  lc.on('handoff.exchanged', (tr, extras) => { seen = { tr, url: extras.panelUrl?.url } })
  lc.emit('handoff.exchanged', { tab_id: 't' }, { handoff_fence: 'f', mode: 'view', remote_address: '127.0.0.1', user_agent: 'ua' }, { panelUrl: { url: 'u', spent: () => undefined } })
  t.same(seen.tr, { type: 'handoff.exchanged', at: clock.now(), tab_id: 't', data: { handoff_fence: 'f', mode: 'view', remote_address: '127.0.0.1', user_agent: 'ua' } })
  t.equal(seen.url, 'u')
})

t.test('a manual clock fires its timers as it is advanced past them, in deadline order, once', async (t) => {
  const clock = new ManualClock()
  const fired: string[] = []
  clock.at(clock.now() + 200, () => fired.push('b'))
  clock.at(clock.now() + 100, () => fired.push('a'))
  const cancel = clock.at(clock.now() + 150, () => fired.push('cancelled'))
  cancel()
  clock.advance(99)
  t.same(fired, [])
  clock.advance(200)
  t.same(fired, ['a', 'b'])
  clock.advance(1_000)
  t.same(fired, ['a', 'b'], 'once')
})

t.test('the system clock fires at the deadline, and a cancelled timer never', async (t) => {
  const fired: string[] = []
  // The clock's timers are unref'd (an expiry never keeps a host alive), so nothing else would
  // keep this test process running while it waits for them.
  const keepAlive = setInterval(() => undefined, 1_000)
  t.teardown(() => clearInterval(keepAlive))
  await new Promise<void>((resolve) => {
    systemClock.at(Date.now() - 5, () => fired.push('past'))
    const cancel = systemClock.at(Date.now() + 20, () => fired.push('cancelled'))
    cancel()
    systemClock.at(Date.now() + 30, () => { fired.push('due'); resolve() })
  })
  t.same(fired, ['past', 'due'])
})
