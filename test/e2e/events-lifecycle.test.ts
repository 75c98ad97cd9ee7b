import t from 'tap'
import { startHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { ManualClock } from '../../src/core/clock.js'
import type { HostEvent } from '../../src/core/event-journal.js'
import { until } from '../helpers/until.js'

// The events that come from the clock and the browser: expiry, popups, a lost and restarted browser.
const DENIED = '<!doctype html><title>Access denied</title><h1>Access denied</h1><p>You may not see this page.</p>'

t.test('expiry, popups and the browser on the event stream', async (t) => {
  const clock = new ManualClock()
  const host = await startHost(t, { clock, env: { AFHTTP_HANDOFF_HOLD_MS: '60000' } })
  const site = await startFixtureServer(t, { '/denied': { status: 403, body: DENIED }, '/popup': { body: '<title>Popup</title><p>A popup page</p>' } })
  const seen: HostEvent[] = []
  const unsubscribe = host.app.events.subscribe((e) => seen.push(e))
  t.teardown(unsubscribe)
  const of = (tabId: string): string[] => seen.filter((e) => e.tab_id === tabId).map((e) => e.type)

  const fetched = await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/denied`, takeover: true }) })).json()
  const tabId = fetched.tab_id as string

  t.test('an expired hold is announced once, by the clock', async (t) => {
    t.same(of(tabId), ['tab.opened', 'handoff.opened'])
    clock.advance(60_001)
    await until(() => of(tabId).includes('handoff.expired'), 'handoff.expired')
    t.match(seen.find((e) => e.type === 'handoff.expired')?.data, { state: 'expired', handoff_fence: fetched.actions[0].handoff_fence })
    await new Promise((resolve) => setTimeout(resolve, 700)) // more than one sweep
    t.equal(of(tabId).filter((type) => type === 'handoff.expired').length, 1, 'once')
  })

  t.test('a popup is a tab.opened with its opener', async (t) => {
    const opener = host.app.tabs.get(tabId)
    await opener.page.evaluate((url: string) => { window.open(url, '_blank') }, `${site.url}/popup`)
    await until(() => seen.some((e) => e.type === 'tab.opened' && e.data.opener_tab_id === tabId), 'the popup')
    const popup = seen.find((e) => e.type === 'tab.opened' && e.data.opener_tab_id === tabId)!
    t.match(popup.data, { origin: 'adopted', opener_tab_id: tabId })
  })

  t.test('a lost browser revokes its handoffs and closes its tabs; a restart is announced', async (t) => {
    const again = await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/denied`, takeover: true }) })).json()
    const held = again.tab_id as string
    host.app.browsers.peek(host.config.defaultProfile)!.process()!.kill('SIGKILL')
    await until(() => seen.some((e) => e.type === 'browser.lost'), 'browser.lost')
    await until(() => of(held).includes('tab.closed'), 'the tabs to close')
    t.same(of(held), ['tab.opened', 'handoff.opened', 'handoff.revoked', 'tab.closed'])
    t.match(seen.find((e) => e.type === 'handoff.revoked' && e.tab_id === held)?.data, { finish_reason: 'browser_lost' })
    t.match(seen.find((e) => e.type === 'browser.lost'), { profile: host.config.defaultProfile })
    const startedBefore = seen.filter((e) => e.type === 'browser.started').length
    // A listener that throws is logged; it never fails the launch nor silences the others.
    host.app.browsers.onStarted(() => { throw new Error('a broken start listener') })
    host.app.lifecycle.on('browser.started', () => { throw new Error('a broken lifecycle listener') })
    await host.app.browsers.get(host.config.defaultProfile)
    await until(() => seen.filter((e) => e.type === 'browser.started').length > startedBefore, 'browser.started')
    t.match(seen.filter((e) => e.type === 'browser.started').pop(), { profile: host.config.defaultProfile, data: { pid: Number } })
  })
})
