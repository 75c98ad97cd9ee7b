// How long a completion check looks (src/core/completion-window.ts): every release gets its whole
// window, and a late page carries the check at most MAX_WATCH_MS past the last release.
import t from 'tap'
import { afterLateLook, afterRelease, MAX_WATCH_MS, WATCH_MS, windowFromRelease } from '../../src/core/completion-window.js'

t.test('a release starts a window of WATCH_MS', async (t) => {
  t.same(windowFromRelease(1_000), { releasedAt: 1_000, until: 1_000 + WATCH_MS })
})

t.test('a release late in a long check still gets its whole window', async (t) => {
  // A check that a busy page carried to 29 s: the person presses Continue then.
  let w = windowFromRelease(0)
  for (let now = 500; now <= 29_000; now += 500) w = afterLateLook(w, now)
  w = afterRelease(w, 29_000)
  t.equal(w.releasedAt, 29_000)
  t.ok(w.until >= 29_000 + WATCH_MS, `looks until ${w.until}`)
  // And the page's lateness after it counts from that release.
  for (let now = 29_500; now <= 120_000; now += 500) w = afterLateLook(w, now)
  t.equal(w.until, 29_000 + MAX_WATCH_MS, 'capped MAX_WATCH_MS after the last release')
})

t.test('a late look extends up to the cap and never shortens the window', async (t) => {
  const w = afterLateLook(windowFromRelease(0), 1_000)
  t.equal(w.until, 1_000 + WATCH_MS)
  t.equal(afterLateLook(windowFromRelease(0), MAX_WATCH_MS + 10_000).until, MAX_WATCH_MS, 'no further than the cap')
  const released = afterRelease(windowFromRelease(0), 3_000)
  t.equal(afterLateLook(released, 3_100).until, 3_100 + WATCH_MS)
  t.equal(afterRelease({ releasedAt: 0, until: 20_000 }, 1_000).until, 20_000, 'a release never shortens what a late page earned')
})

t.test('answered looks do not extend: the window is what the releases gave', async (t) => {
  let w = windowFromRelease(0)
  w = afterRelease(w, 2_000)
  t.same(w, { releasedAt: 2_000, until: 2_000 + WATCH_MS })
})
