import t from 'tap'
import { ManualClock } from '../../src/core/clock.js'
import { EventJournal, formatSse, parseLastEventId } from '../../src/core/event-journal.js'
import { SseParser } from '../../src/client/sse.js'

t.test('ids increase from the start time; a resume inside the journal gets what came after', async (t) => {
  const clock = new ManualClock()
  const j = new EventJournal(clock, 3)
  const a = j.append({ type: 'tab.opened', tab_id: 't1', profile: 'default' })
  const b = j.append({ type: 'tab.closed', tab_id: 't1', data: { reason: 'api' } })
  t.equal(a.id, clock.now(), 'the first id is the start time in ms')
  t.equal(b.id, a.id + 1)
  t.same(j.resume(undefined), { events: [] }, 'no id: start live')
  t.same(j.resume(b.id), { events: [] }, 'up to date')
  t.same(j.resume(a.id).events.map((e) => e.id), [b.id])
  t.same(j.resume(a.id - 1).events.map((e) => e.id), [a.id, b.id], 'the id just before the journal still resumes without a gap')
  t.match(a, { type: 'tab.opened', tab_id: 't1', profile: 'default', data: {}, at: '2026-01-01T00:00:00.000Z' })
})

t.test('an id that predates the journal, or that this host never gave, gets a gap first', async (t) => {
  const j = new EventJournal(new ManualClock(), 2)
  const first = j.append({ type: 'browser.started', profile: 'p' })
  j.append({ type: 'tab.opened', tab_id: 'a' })
  j.append({ type: 'tab.opened', tab_id: 'b' })
  t.equal(j.size, 2, 'bounded')
  const stale = j.resume(first.id - 1)
  t.match(stale.gap, { type: 'events.gap', id: first.id, data: { last_event_id: first.id - 1, oldest_event_id: first.id + 1, reason: 'journal_exceeded' } })
  t.equal(stale.events.length, 2, 'then what the journal holds')
  t.equal(j.resume(stale.gap!.id).gap, undefined, 'resuming from the gap id is no longer a gap')
  t.match(j.resume(j.lastId + 10).gap, { data: { reason: 'unknown_event_id' } })
  const empty = new EventJournal(new ManualClock())
  t.match(empty.resume(1).gap, { type: 'events.gap' }, 'an id from an earlier run of the host')
})

t.test('Last-Event-ID parsing', async (t) => {
  t.equal(parseLastEventId(undefined), undefined)
  t.equal(parseLastEventId(''), undefined)
  t.equal(parseLastEventId('1767225600000'), 1767225600000)
  t.equal(parseLastEventId('12a'), 'invalid')
  t.equal(parseLastEventId('-1'), 'invalid')
  t.equal(parseLastEventId(['1', '2']), 'invalid')
})

t.test('SSE framing round-trips through the client parser, in any chunking', async (t) => {
  const j = new EventJournal(new ManualClock())
  const events = [j.append({ type: 'handoff.opened', tab_id: 'x', data: { text: 'line one\nline two' } }), j.append({ type: 'tab.closed', tab_id: 'x' })]
  const wire = `retry: 2000\n: afhttp events\n\n${events.map(formatSse).join('')}: heartbeat\n\n`
  for (const size of [1, 3, 7, wire.length]) {
    const parser = new SseParser()
    const out = []
    for (let i = 0; i < wire.length; i += size) out.push(...parser.feed(wire.slice(i, i + size)))
    t.same(out.map((m) => JSON.parse(m.data)), events, `chunks of ${size}`)
    t.same(out.map((m) => m.event), ['handoff.opened', 'tab.closed'])
    t.same(out.map((m) => m.id), events.map((e) => String(e.id)))
  }
  const crlf = new SseParser().feed('id: 7\r\nevent: x\r\ndata: a\r\ndata: b\r\n\r\n')
  t.same(crlf, [{ id: '7', event: 'x', data: 'a\nb' }], 'CRLF lines and multi-line data')
})

t.test('a sealed panel URL is never stored: readers see it while it works, its state once spent', async (t) => {
  const j = new EventJournal(new ManualClock())
  const link = { problem: undefined as string | undefined }
  const live = j.append({ type: 'handoff.opened', tab_id: 'x', data: { handoff_fence: 'f' } }, { url: 'https://h/takeover/SECRET', spent: () => link.problem })
  t.equal(live.data.takeover_url_secret, 'https://h/takeover/SECRET', 'the subscribers of the moment get the URL')
  t.equal(j.recent()[0].data.takeover_url_secret, 'https://h/takeover/SECRET', 'a reader while it works too')
  link.problem = 'used'
  t.same(j.recent()[0].data, { handoff_fence: 'f', takeover_url_state: 'used' }, 'once spent, only why')
  t.same(j.resume(live.id - 1).events[0].data, { handoff_fence: 'f', takeover_url_state: 'used' }, 'a resuming stream alike')
})
