// The operator inbox as a service (src/inbox/operator-inbox.ts), on fakes: what it lists and in
// which order, the titles it keeps when a read fails, the handoffs that ended a moment ago, one
// coalesced change for a burst of events, and one push per new handoff. No browser is started.
import t from 'tap'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Page } from 'puppeteer-core'
import { DisabledInbox, INBOX_COALESCE_MS, OperatorInbox, type InboxTab } from '../../src/inbox/operator-inbox.js'
import { newHandoff, type Handoff } from '../../src/core/handoff.js'
import { ManualClock } from '../../src/core/clock.js'
import type { HostEvent } from '../../src/core/event-journal.js'
import type { PushSender } from '../../src/inbox/push-sender.js'

function page (url: string, title: string | null): Page & { title: string | null, closed: boolean } {
  const p = { title, closed: false, url: () => url, isClosed: () => p.closed }
  return p as unknown as Page & { title: string | null, closed: boolean }
}

function world () {
  const clock = new ManualClock(1_000_000)
  const tabs = new Map<string, InboxTab>()
  const handoffs = new Map<string, Handoff>()
  const subscribers = new Set<(e: HostEvent) => void>()
  const handoffChanges: Array<() => void> = []
  const errors: string[] = []
  const sent: unknown[] = []
  let eventId = 0
  const push = { sendAll: async (payload: unknown) => { sent.push(payload) } } as unknown as PushSender
  const hold = (id: string, openedAt: number, instructions?: string): void => {
    handoffs.set(id, newHandoff({ fence: `f-${id}`, tabId: id, now: openedAt, holdMs: 600_000, startUrl: `https://${id}.example/start`, generation: 1, challengeSeen: true, reason: 'challenge', ...(instructions ? { instructions } : {}) }))
    tabs.set(id, { id, profile: 'default', page: page(`https://${id}.example/now`, `Title of ${id}`) })
  }
  const emit = (type: string, tabId?: string): void => {
    for (const fn of subscribers) fn({ id: ++eventId, type, at: new Date(clock.now()).toISOString(), ...(tabId ? { tab_id: tabId, profile: 'default' } : {}), data: {} } as HostEvent)
  }
  const inbox = new OperatorInbox({
    clock,
    log: { error: (_obj, msg) => { errors.push(msg) } },
    tabs: { list: () => [...tabs.values()], find: (id) => tabs.get(id) },
    handoffs: { current: (id) => handoffs.get(id), onChange: (fn) => { handoffChanges.push(fn) } },
    events: { subscribe: (fn) => { subscribers.add(fn); return () => { subscribers.delete(fn) } } },
    viewers: (id) => id === 'b' ? 2 : 0,
    title: async (p) => (p as unknown as { title: string | null }).title,
    inboxUrl: () => 'https://ops.example/inbox/'
  }, { push })
  return { clock, tabs, handoffs, subscribers, handoffChanges, errors, sent, hold, emit, inbox }
}

t.test('the list: held handoffs oldest first, with viewers and titles; a failed title read keeps the last one', async (t) => {
  const w = world()
  w.hold('b', 1_000_000 - 5_000)
  w.hold('a', 1_000_000 - 60_000)
  w.tabs.set('plain', { id: 'plain', profile: 'default', page: page('https://plain.example/', 'no handoff') })
  const first = await w.inbox.list()
  t.same(first.handoffs.map((h) => h.tab_id), ['a', 'b'], 'oldest first; a tab without a handoff is not listed')
  t.same(first.handoffs.map((h) => h.title), ['Title of a', 'Title of b'])
  t.same(first.handoffs.map((h) => h.viewers), [0, 2])
  ;(w.tabs.get('a')!.page as unknown as { title: string | null }).title = null
  t.equal((await w.inbox.list()).handoffs[0].title, 'Title of a', 'the last title seen')
  w.clock.advance(600_001)
  t.same((await w.inbox.list()).handoffs, [], 'an expired hold is not listed')
})

t.test('a handoff that ends stays a moment in the list of ended ones; a burst of events is one change', async (t) => {
  const w = world()
  w.inbox.start()
  t.equal(w.subscribers.size, 1)
  w.hold('a', w.clock.now())
  await w.inbox.list()
  let changes = 0
  const off = w.inbox.onChange(() => { changes++ })
  w.handoffs.get('a')!.ended = { state: 'finished', reason: 'human_done', at: w.clock.now() }
  w.emit('handoff.finished', 'a')
  w.emit('tab.closed', 'a')
  w.emit('fetch.done', 'a')
  w.handoffChanges[0]()
  await sleep(INBOX_COALESCE_MS * 4)
  t.equal(changes, 1, 'one update for the burst')
  const list = await w.inbox.list()
  t.same(list.ended.map((e) => [e.tab_id, e.state, e.finish_reason, e.origin]), [['a', 'finished', 'human_done', 'https://a.example']])
  w.emit('fetch.done', 'a')
  await sleep(INBOX_COALESCE_MS * 4)
  t.equal(changes, 1, 'an event that changes no entry is not a change')
  off()
  w.emit('handoff.opened', 'a')
  await sleep(INBOX_COALESCE_MS * 4)
  t.equal(changes, 1, 'an unsubscribed listener hears nothing')
  await w.inbox.close()
  t.equal(w.subscribers.size, 0, 'close stops listening')
})

t.test('each new handoff is pushed once, with text only; a listener that throws is logged', async (t) => {
  const w = world()
  w.inbox.start()
  w.hold('a', w.clock.now(), 'Please sign in')
  w.emit('handoff.opened', 'a')
  w.emit('handoff.control', 'a')
  await w.inbox.pushesSettled()
  t.equal(w.sent.length, 1, 'one push, for the opening')
  t.match(JSON.stringify(w.sent[0]), /Please sign in/)
  t.match(JSON.stringify(w.sent[0]), /https:\/\/ops\.example\/inbox\//)
  t.notMatch(JSON.stringify(w.sent[0]), /takeover|secret|f-a/, 'no panel URL, no fence')
  w.inbox.onChange(() => { throw new Error('boom') })
  w.emit('handoff.control', 'a')
  await sleep(INBOX_COALESCE_MS * 4)
  t.same(w.errors, ['inbox listener failed'])
  await w.inbox.close()
})

t.test('without an operator token: an empty list and no listening', async (t) => {
  const inbox = new DisabledInbox(new ManualClock(0))
  t.equal(inbox.enabled, false)
  t.same(await inbox.list(), { now: new Date(0).toISOString(), handoffs: [], ended: [] })
  inbox.onChange(() => undefined)()
  await inbox.pushesSettled()
})
