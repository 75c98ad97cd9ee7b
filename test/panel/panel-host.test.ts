// The panel host as a service (src/panel/panel-host.ts), on fakes: one panel per tab however many
// connect at once, a panel that finished opening after its handoff ended is closed, an ending
// closes the panel and revokes its leases, live changes reach the panel, a lapsed lease is swept,
// a closed tab's stream is disposed, and leases are only good for the open handoff. No browser.
import t from 'tap'
import { setTimeout as sleep } from 'node:timers/promises'
import type { FastifyBaseLogger } from 'fastify'
import pino from 'pino'
import { ManualClock } from '../../src/core/clock.js'
import { Lifecycle } from '../../src/core/lifecycle.js'
import { newHandoff, summarize, type Handoff } from '../../src/core/handoff.js'
import type { HandoffSummary } from '../../src/schemas/handoff.js'
import { leaseCookieName } from '../../src/panel/lease.js'
import { LEASE_SWEEP_MS, PanelHost, type PanelHostDeps } from '../../src/panel/panel-host.js'
import type { PanelTab, PanelTabDeps } from '../../src/panel/panel-tab.js'
import type { TabStreamer } from '../../src/panel/streamer.js'
import type { TabRecord } from '../../src/tabs/types.js'

interface FakePanel { closedWith: Array<HandoffSummary | undefined>, updates: HandoffSummary[], synced: number, viewers: Map<string, { lease: { expiresAt: number }, ws: { closed?: number, close: (code: number) => void } }> }

function world () {
  const clock = new ManualClock(1_000_000)
  const lifecycle = new Lifecycle(clock, (err) => { throw err })
  const handoffs = new Map<string, Handoff>()
  const changes: Array<(tabId: string, s: HandoffSummary) => void> = []
  const closedListeners: Array<(tab: TabRecord) => void> = []
  const panels: FakePanel[] = []
  const opens: Array<{ deps: PanelTabDeps, resolve: (p: PanelTab) => void }> = []
  const streams: Array<{ tab: string, disposed: boolean }> = []
  const fakeHandoffs = {
    current: (id: string) => handoffs.get(id),
    isHeld: (id: string) => { const h = handoffs.get(id); return h !== undefined && h.ended === undefined && clock.now() < h.expiresAt },
    popupsOf: () => [],
    onChange: (fn: (tabId: string, s: HandoffSummary) => void) => { changes.push(fn) },
    setFrameProver: () => undefined
  }
  const host = new PanelHost({
    clock,
    log: pino({ level: 'silent' }) as unknown as FastifyBaseLogger,
    handoffs: fakeHandoffs as unknown as PanelHostDeps['handoffs'],
    lifecycle,
    tabs: { onClosed: (fn) => { closedListeners.push(fn) } },
    inputDelivered: () => undefined,
    keepPermission: async () => undefined,
    openPanel: async (deps) => await new Promise<PanelTab>((resolve) => { opens.push({ deps, resolve }) }),
    newStreamer: (page) => {
      const s = { tab: (page as unknown as { id: string }).id, disposed: false }
      streams.push(s)
      return { dispose: async () => { s.disposed = true } } as unknown as TabStreamer
    }
  })
  host.start()
  const tab = (id: string): TabRecord => ({ id, profile: 'default', page: { id, viewport: () => ({ width: 800, height: 600 }) } }) as unknown as TabRecord
  const hold = (id: string, fence = `f-${id}`): Handoff => {
    const h = newHandoff({ fence, tabId: id, now: clock.now(), holdMs: 600_000, startUrl: 'https://a.example/', generation: 1, challengeSeen: false })
    handoffs.set(id, h)
    return h
  }
  const panel = (): FakePanel & PanelTab => {
    const p: FakePanel = { closedWith: [], updates: [], synced: 0, viewers: new Map() }
    panels.push(p)
    return Object.assign(p, {
      close: (s?: HandoffSummary) => { p.closedWith.push(s) },
      update: (s: HandoffSummary) => { p.updates.push(s) },
      syncPopups: async () => { p.synced++ }
    }) as unknown as FakePanel & PanelTab
  }
  const end = (id: string): void => {
    const h = handoffs.get(id)!
    h.ended = { state: 'finished', reason: 'human_done', at: clock.now() }
    const { tab_id: _tabId, ...summary } = summarize(h, clock.now())
    lifecycle.emit('handoff.finished', { tab_id: id, profile: 'default' }, { ...summary, by: 'person', held_ms: 1 })
  }
  return { clock, host, handoffs, changes, closedListeners, opens, streams, tab, hold, panel, end }
}

t.test('one panel per tab, however many connect while it opens; it is found once open', async (t) => {
  const w = world()
  w.hold('a')
  const tab = w.tab('a')
  const first = w.host.open(tab)
  const second = w.host.open(tab)
  t.equal(first, second, 'the second connection waits for the same panel')
  t.equal(w.opens.length, 1)
  t.equal(w.opens[0].deps.tab, tab)
  t.equal(w.host.find('a'), undefined, 'not found before it finished opening')
  const p = w.panel()
  w.opens[0].resolve(p)
  t.equal(await first, p)
  t.equal(w.host.find('a'), p)
  t.equal(w.streams.length, 1, 'one shared stream for the tab')
  t.equal(w.host.streamer(tab), w.opens[0].deps.streamer, 'the panel was given the tab\'s shared stream')
})

t.test('a panel that finished opening after its handoff ended is closed, not kept', async (t) => {
  const w = world()
  w.hold('a')
  const opening = w.host.open(w.tab('a'))
  w.end('a')
  const p = w.panel()
  w.opens[0].resolve(p)
  await opening
  await sleep(0)
  t.equal(w.host.find('a'), undefined)
  t.equal(p.closedWith.length, 1, 'closed once')
  w.hold('a', 'f-second')
  void w.host.open(w.tab('a'))
  t.equal(w.opens.length, 2, 'the next handoff of the tab opens a new panel')
})

t.test('an ending closes the panel with the final summary and revokes its leases', async (t) => {
  const w = world()
  const h = w.hold('a')
  const { token } = w.host.leases.issue('a', h.fence, w.clock.now(), h.expiresAt)
  const req = { cookies: { [leaseCookieName('a')]: token } }
  t.ok(w.host.leaseFor(req, 'a'), 'the lease is good while the handoff is open')
  const opening = w.host.open(w.tab('a'))
  const p = w.panel()
  w.opens[0].resolve(p)
  await opening
  await sleep(0)
  for (const fn of w.changes) fn('a', summarize(h, w.clock.now()))
  t.equal(p.updates.length, 1, 'a live change reaches the panel')
  w.end('a')
  t.equal(p.closedWith.length, 1)
  t.equal(p.closedWith[0]?.state, 'finished', 'viewers hear how it ended')
  t.equal(w.host.find('a'), undefined)
  for (const fn of w.changes) fn('a', summarize(h, w.clock.now()))
  t.equal(p.updates.length, 1, 'an ended summary is not sent as an update')
  w.hold('a', 'f-next')
  t.equal(w.host.leaseFor(req, 'a'), undefined, 'the old lease is no good for the next handoff')
})

t.test('a lease: only for the tab\'s open handoff, with that handoff\'s fence', async (t) => {
  const w = world()
  const h = w.hold('a')
  const other = w.host.leases.issue('a', 'another-fence', w.clock.now(), h.expiresAt)
  t.equal(w.host.leaseFor({ cookies: { [leaseCookieName('a')]: other.token } }, 'a'), undefined, 'a lease under another fence')
  const good = w.host.leases.issue('a', h.fence, w.clock.now(), h.expiresAt)
  t.equal(w.host.leaseFor({ cookies: {} }, 'a'), undefined, 'no cookie')
  t.equal(w.host.leaseFor({ cookies: { [leaseCookieName('a')]: good.token } }, 'b'), undefined, 'another tab')
  t.ok(w.host.leaseFor({ cookies: { [leaseCookieName('a')]: good.token } }, 'a'))
  w.clock.advance(600_000)
  t.equal(w.host.leaseFor({ cookies: { [leaseCookieName('a')]: good.token } }, 'a'), undefined, 'the hold ran out')
})

t.test('a viewer whose lease lapsed is disconnected by the sweep', async (t) => {
  const w = world()
  w.hold('a')
  const opening = w.host.open(w.tab('a'))
  const p = w.panel()
  const closed: number[] = []
  p.viewers.set('v1', { lease: { expiresAt: w.clock.now() + 1_000 }, ws: { close: (code) => { closed.push(code) } } })
  p.viewers.set('v2', { lease: { expiresAt: w.clock.now() + 60_000 }, ws: { close: () => { t.fail('a renewed lease is kept') } } })
  w.opens[0].resolve(p)
  await opening
  await sleep(LEASE_SWEEP_MS * 2)
  t.same(closed, [], 'not before it lapses')
  w.clock.advance(1_000)
  await sleep(LEASE_SWEEP_MS * 2)
  t.ok(closed.length >= 1)
  t.equal(closed[0], 4401)
  await w.host.close()
})

t.test('a closed tab: its panel closes, its stream is disposed, other panels re-sync their popups', async (t) => {
  const w = world()
  w.hold('a')
  w.hold('b')
  const pa = w.panel()
  const pb = w.panel()
  const opening = [w.host.open(w.tab('a')), w.host.open(w.tab('b'))]
  w.opens[0].resolve(pa)
  w.opens[1].resolve(pb)
  await Promise.all(opening)
  await sleep(0)
  for (const fn of w.closedListeners) fn(w.tab('b'))
  await sleep(0)
  t.equal(pb.closedWith.length, 1)
  t.equal(w.host.find('b'), undefined)
  t.same(w.streams.map((s) => [s.tab, s.disposed]), [['a', false], ['b', true]])
  t.equal(pa.synced, 1, 'the opener goes back to the tab that is left')
  await w.host.close()
  t.equal(pa.closedWith.length, 1, 'the host closing closes every panel')
  t.same(w.streams.map((s) => s.disposed), [true, true], 'and stops every stream')
})
