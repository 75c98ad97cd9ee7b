import t from 'tap'
import { fitsSite, WindowWaiters } from '../../src/core/window-waiters.js'

t.test('a window never used serves any fetch; a reset one only its own site', async (t) => {
  t.ok(fitsSite(undefined, 'https://a.test'), 'fresh window, any site')
  t.ok(fitsSite('https://a.test', undefined), 'a fetch with no URL takes any clean window')
  t.ok(fitsSite('https://a.test', 'https://a.test'), 'same site')
  t.notOk(fitsSite('https://a.test', 'https://b.test'), 'another site waits for another window')
})

t.test('first come, first served among the fetches a window fits', async (t) => {
  const w = new WindowWaiters<string>()
  const a = w.wait('https://a.test')
  const b = w.wait('https://b.test')
  const any = w.wait(undefined)
  t.equal(w.length, 3)
  t.ok(w.wants('https://b.test'), 'a window that served b has a taker')
  t.notOk(new WindowWaiters<string>().wants(undefined), 'nobody waits: nobody wants it')
  t.ok(w.handOut('reset-b', 'https://b.test'), 'the b window goes to the b fetch, past the a fetch waiting longer')
  t.equal(await b, 'reset-b')
  t.ok(w.handOut('fresh', undefined), 'a fresh window goes to the longest waiter')
  t.equal(await a, 'fresh')
  t.ok(w.handOut('reset-c', 'https://c.test'), 'the fetch with no URL takes any window')
  t.equal(await any, 'reset-c')
  t.notOk(w.handOut('spare', undefined), 'nobody left: the pool keeps it')
  t.equal(w.length, 0)
})

t.test('a failed open tells the longest waiter; a stopped pool tells every one, at once', async (t) => {
  const w = new WindowWaiters<string>()
  const first = w.wait('https://a.test')
  const second = w.wait('https://a.test')
  const third = w.wait(undefined)
  w.failFirst(new Error('open failed'))
  await t.rejects(first, /open failed/)
  t.equal(w.length, 2, 'the others still wait')
  w.failAll(new Error('pool stopped'))
  await t.rejects(second, /pool stopped/)
  await t.rejects(third, /pool stopped/)
  t.equal(w.length, 0)
  w.failFirst(new Error('nobody')) // no waiter: nothing to tell, no throw
})

t.test('a window built for a waiter further back in line goes to that waiter', async (t) => {
  const w = new WindowWaiters<string>()
  const a = w.wait('https://a.test')
  const b = w.wait('https://b.test')
  t.same(w.sites(), ['https://a.test', 'https://b.test'], 'the sites asked for, longest waiting first')
  t.ok(w.handOutTo(1, 'fresh'), 'the b fetch, second in line, takes the new window')
  t.equal(await b, 'fresh')
  t.same(w.sites(), ['https://a.test'], 'the a fetch still waits (for its own window coming back)')
  t.notOk(w.handOutTo(3, 'spare'), 'no waiter there: the pool keeps it')
  t.ok(w.handOutTo(0, 'reset-a'))
  t.equal(await a, 'reset-a')
})
