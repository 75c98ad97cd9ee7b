import t from 'tap'
import { RecentMean, windowsToBuild, type ReturnsNow } from '../../src/core/window-returns.js'

const A = 'http://a.test'
const B = 'http://b.test'

// A quick page: held 60 ms, reset in 40 ms, a window opened in 200 ms.
const quick = (over: Partial<ReturnsNow>): ReturnsNow => ({
  waiters: [],
  held: [],
  resetting: [],
  running: 0,
  holdMs: 60,
  resetMs: 40,
  openMs: 200,
  ...over
})

t.test('until the pool has seen a hold, a reset and an opening, every waiter gets a window', async (t) => {
  const waiters = [A, A, A]
  const held = [{ site: A, heldMs: 0 }]
  t.equal(windowsToBuild(quick({ waiters, held, holdMs: undefined })), 3)
  t.equal(windowsToBuild(quick({ waiters, held, resetMs: undefined })), 3)
  t.equal(windowsToBuild(quick({ waiters, held, openMs: undefined })), 3)
  t.equal(windowsToBuild(quick({ waiters: [], held })), 0, 'nobody waits: nothing to build')
})

t.test('a burst of quick fetches waits for the windows coming back', async (t) => {
  // The first eight of a burst: two took the pool's windows, six wait. Each window is back in
  // 100 ms and again every 100 ms; a new one would cost 200 ms × the three windows it slows.
  const burst = quick({ waiters: Array(6).fill(A), held: [{ site: A, heldMs: 0 }, { site: A, heldMs: 0 }], running: 2 })
  t.equal(windowsToBuild(burst), 0, 'the last of six has its window back after 300 ms, sooner than 600')
  t.equal(windowsToBuild({ ...burst, waiters: Array(14).fill(A) }), 2, 'a queue of fourteen: its last two (700 ms) are served sooner by new windows')
  t.equal(windowsToBuild({ ...burst, held: [], running: 0, resetting: [A, A] }), 0, 'windows being reset count as coming back')
})

t.test('slow fetches get windows built for their waiters', async (t) => {
  const slow = quick({ waiters: [A, A, A, A], held: [{ site: A, heldMs: 100 }, { site: A, heldMs: 100 }], running: 2, holdMs: 3000 })
  t.equal(windowsToBuild(slow), 4, 'a window back in 2.9 s is later than one built in 200 ms × 3')
})

t.test('a fetch past its usual hold is taken to need as long again', async (t) => {
  const now = quick({ waiters: [A], held: [{ site: A, heldMs: 50 }], running: 1 })
  t.equal(windowsToBuild(now), 0, 'within its usual hold: back in 50 ms')
  t.equal(windowsToBuild({ ...now, held: [{ site: A, heldMs: 1000 }] }), 1, 'held 1 s against a usual 60 ms: not back before 1 s more')
})

t.test('only windows of the waiter\'s own site come back to it', async (t) => {
  const now = quick({ waiters: [B], held: [{ site: A, heldMs: 0 }], running: 1 })
  t.equal(windowsToBuild(now), 1, 'a window serving a.test does not serve b.test')
  t.equal(windowsToBuild({ ...now, waiters: [undefined] }), 0, 'a fetch with no URL takes any window')
  t.equal(windowsToBuild({ ...now, resetting: [undefined], held: [] }), 0, 'a window never used serves any site')
})

t.test('every window in use or being reset makes a new one dearer', async (t) => {
  // A waiter whose window is back in 500 ms: worth a 200 ms window only when at most one other is busy.
  const one = quick({ waiters: [A], held: [{ site: A, heldMs: 0 }], holdMs: 460, running: 1 })
  t.equal(windowsToBuild(one), 1, '500 ms against 200 ms × 2')
  t.equal(windowsToBuild({ ...one, resetting: [B, B] }), 0, '500 ms against 200 ms × 4: two windows being reset also slow')
  t.equal(windowsToBuild({ ...one, running: 3 }), 0, 'fetches running in windows that do not come back also slow')
  t.equal(windowsToBuild({ ...one, held: [{ site: A, heldMs: 0 }, { site: B, heldMs: 600_000 }] }), 1, 'a window held for ten minutes (a tab kept for a person) slows nothing')
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
