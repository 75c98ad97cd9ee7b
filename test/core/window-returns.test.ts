import t from 'tap'
import { RecentMean, waitersToBuildFor, type ReturnsNow } from '../../src/core/window-returns.js'

const A = 'http://a.test'
const B = 'http://b.test'

// A quick page: held 60 ms, reset in 40 ms, a window opened in 200 ms.
const fresh = (site: string, heldMs = 0, holdMs = 60): ReturnsNow['held'][number] => ({ site, heldMs, holdMs })
const quick = (over: Partial<ReturnsNow>): ReturnsNow => ({
  waiters: [],
  held: [],
  resetting: [],
  running: 0,
  resetMs: 40,
  openMs: 200,
  ...over
})
const count = (now: ReturnsNow): number => waitersToBuildFor(now).length

t.test('until the pool has seen a reset and an opening, every waiter gets a window', async (t) => {
  const waiters = [A, A, A]
  const held = [fresh(A)]
  t.same(waitersToBuildFor(quick({ waiters, held, resetMs: undefined })), [0, 1, 2])
  t.same(waitersToBuildFor(quick({ waiters, held, openMs: undefined })), [0, 1, 2])
  t.same(waitersToBuildFor(quick({ waiters: [], held })), [], 'nobody waits: nothing to build')
})

t.test('a burst of quick fetches waits for the windows coming back', async (t) => {
  // The first eight of a burst: two took the pool's windows, six wait. Each window is back in
  // 100 ms and again every 100 ms; a new one would cost 200 ms × the three windows it slows.
  const burst = quick({ waiters: Array(6).fill(A), held: [fresh(A), fresh(A)], running: 2 })
  t.equal(count(burst), 0, 'the last of six has its window back after 300 ms, sooner than 600')
  t.same(waitersToBuildFor({ ...burst, waiters: Array(14).fill(A) }), [12, 13], 'a queue of fourteen: its last two (700 ms) are served sooner by new windows')
  const resetting = [{ site: A, elapsedMs: 0, holdMs: 60 }, { site: A, elapsedMs: 0, holdMs: 60 }]
  t.equal(count({ ...burst, held: [], running: 0, resetting }), 0, 'windows being reset count as coming back')
})

t.test('slow fetches get windows built for their waiters', async (t) => {
  const slow = quick({ waiters: [A, A, A, A], held: [fresh(A, 100, 3000), fresh(A, 100, 3000)], running: 2 })
  t.equal(count(slow), 4, 'a window back in 2.9 s is later than one built in 200 ms × 3')
})

t.test('a fetch or a reset past its usual time is taken to need as long again', async (t) => {
  const now = quick({ waiters: [A], held: [fresh(A, 50)], running: 1 })
  t.equal(count(now), 0, 'within its usual hold: back in 50 ms')
  t.equal(count({ ...now, held: [fresh(A, 1000)] }), 1, 'held 1 s against a usual 60 ms: not back before 1 s more')
  const resetting = quick({ waiters: [A], resetting: [{ site: A, elapsedMs: 10 }] })
  t.equal(count(resetting), 0, 'a reset 10 ms in: back in 30 ms')
  t.equal(count({ ...resetting, resetting: [{ site: A, elapsedMs: 2000 }] }), 1, 'a reset 2 s in, against a usual 40 ms: a window is built')
})

t.test('only windows of the waiter\'s own site come back to it, and a new window goes to who needs it', async (t) => {
  const now = quick({ waiters: [B], held: [fresh(A)], running: 1 })
  t.same(waitersToBuildFor(now), [0], 'a window serving a.test does not serve b.test')
  t.same(waitersToBuildFor({ ...now, waiters: [undefined] }), [], 'a fetch with no URL takes any window')
  t.same(waitersToBuildFor({ ...now, resetting: [{ site: undefined, elapsedMs: 0 }], held: [] }), [], 'a window never used serves any site')
  t.same(waitersToBuildFor({ ...now, waiters: [A, B] }), [1], 'the a.test fetch waits for its window; the b.test one, second in line, is the one to build for')
})

t.test('a window being reset serves one waiter, then comes back after that fetch', async (t) => {
  const now = quick({ waiters: [A, A], resetting: [{ site: A, elapsedMs: 0 }], running: 0 })
  t.same(waitersToBuildFor(now), [1], 'its site\'s hold unknown: it serves the first, and the second gets a new window')
  t.same(waitersToBuildFor({ ...now, resetting: [{ site: A, elapsedMs: 0, holdMs: 60 }] }), [], 'hold known: back for the second at 140 ms, sooner than 400')
})

t.test('every window in use or being reset makes a new one dearer', async (t) => {
  // A waiter whose window is back in 500 ms: worth a 200 ms window only when at most one other is busy.
  const one = quick({ waiters: [A], held: [fresh(A, 0, 460)], running: 1 })
  t.equal(count(one), 1, '500 ms against 200 ms × 2')
  t.equal(count({ ...one, resetting: [{ site: B, elapsedMs: 0 }, { site: B, elapsedMs: 0 }] }), 0, '500 ms against 200 ms × 4: two windows being reset also slow')
  t.equal(count({ ...one, running: 3 }), 0, 'fetches running in windows that do not come back also slow')
  t.equal(count({ ...one, held: [fresh(A, 0, 460), fresh(B, 600_000)] }), 1, 'a window held for ten minutes (a tab kept for a person) slows nothing')
})

t.test('a recent mean follows the recent past', async (t) => {
  const m = new RecentMean(0.5)
  t.equal(m.value, undefined, 'nothing seen yet')
  m.add(100)
  t.equal(m.value, 100, 'the first sample is the mean')
  m.add(200)
  t.equal(m.value, 150)
  m.add(200)
  t.equal(m.value, 175)
})
