import t from 'tap'
import {
  FULL_RETRY_MAX_MS, FULL_RETRY_MS, FULL_TRY_HELD_MS, initialTier, LEAN_BELOW_FPS, leanSize, linkIsTheLimit, nextTier, TIER_WINDOW_MS
} from '../../src/core/stream-tier.js'

const ms = TIER_WINDOW_MS

t.test('a link is the limit only when it drops a good share of frames and delivers too few', async (t) => {
  t.ok(linkIsTheLimit({ sent: 9, skipped: 60, ms: 1500 }), '6 fps delivered of 46 painted: the slow phone')
  t.notOk(linkIsTheLimit({ sent: 90, skipped: 0, ms: 1500 }), 'a fast viewer gets every frame')
  t.notOk(linkIsTheLimit({ sent: 12, skipped: 1, ms: 1500 }), 'a page that paints 8 fps, all delivered: the page is the limit, not the link')
  t.notOk(linkIsTheLimit({ sent: 0, skipped: 0, ms: 1500 }), 'a still page says nothing')
  t.notOk(linkIsTheLimit({ sent: 2, skipped: 40, ms: 200 }), 'too short a window')
  const edge = Math.ceil(LEAN_BELOW_FPS * 1.5)
  t.notOk(linkIsTheLimit({ sent: edge, skipped: edge, ms: 1500 }), `${LEAN_BELOW_FPS} fps or more is enough, skips or not`)
})

t.test('a slow viewer moves to the lean stream, tries the full one again later, and waits longer after a failed try', async (t) => {
  const slow = { sent: 9, skipped: 60, ms }
  const fine = { sent: 9, skipped: 0, ms }
  let s = initialTier(0)
  t.equal(nextTier(s, fine, 1_500), s, 'nothing changes while the link keeps up')
  s = nextTier(s, slow, 1_500)
  t.same(s, { tier: 'lean', since: 1_500, retryMs: FULL_RETRY_MS, trying: false })
  t.equal(nextTier(s, fine, 1_500 + FULL_RETRY_MS - 1), s, 'lean until the retry is due')
  s = nextTier(s, fine, 1_500 + FULL_RETRY_MS)
  t.same(s, { tier: 'full', since: 1_500 + FULL_RETRY_MS, retryMs: FULL_RETRY_MS, trying: true }, 'then it tries the full stream')
  s = nextTier(s, slow, s.since + 1_500)
  t.equal(s.tier, 'lean')
  t.equal(s.retryMs, FULL_RETRY_MS * 2, 'a try that failed at once doubles the wait')
  for (let i = 0; i < 10; i++) {
    s = nextTier(s, fine, s.since + s.retryMs)
    s = nextTier(s, slow, s.since + 1_500)
  }
  t.equal(s.retryMs, FULL_RETRY_MAX_MS, 'up to a ceiling')
  s = nextTier(s, fine, s.since + s.retryMs)
  s = nextTier(s, slow, s.since + FULL_TRY_HELD_MS)
  t.equal(s.retryMs, FULL_RETRY_MS, 'a try that held starts the waits anew')
})

t.test('the lean stream is half the size, but never narrower than a phone can read', async (t) => {
  t.same(leanSize({ maxWidth: 1280, maxHeight: 720 }), { maxWidth: 640, maxHeight: 360 })
  t.same(leanSize({ maxWidth: 480, maxHeight: 270 }), { maxWidth: 320, maxHeight: 180 })
  t.same(leanSize({ maxWidth: 200, maxHeight: 100 }), { maxWidth: 200, maxHeight: 100 }, 'already small: kept')
})
