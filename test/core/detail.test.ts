import t from 'tap'
import { changedTiles, detailClip, DETAIL_MAX_WAIT_MS, DETAIL_MIN_INTERVAL_MS, DETAIL_SETTLE_MS, isClipFrame, isViewportFrame, stillDueAt } from '../../src/core/detail.js'
import { DETAIL_PIXELS_MAX, DETAIL_SCALE_MAX } from '../../src/limits.js'

const viewport = { width: 1280, height: 720 }

t.test('the still is what the viewer shows, cut to the viewport and to whole pixels', async (t) => {
  t.same(detailClip({ x: 400.4, y: 99.6, width: 256.2, height: 464 }, 4.57, viewport), { x: 400, y: 99, width: 257, height: 465, scale: 4.57 })
  t.same(detailClip({ x: -50, y: 600, width: 200, height: 400 }, 3, viewport), { x: 0, y: 600, width: 150, height: 120, scale: 3 }, 'the part outside the viewport is cut off')
  t.equal(detailClip({ x: 2000, y: 0, width: 100, height: 100 }, 3, viewport), null, 'nothing inside the viewport: no still')
  t.equal(detailClip({ x: 0, y: 0, width: 5, height: 100 }, 3, viewport), null, 'too thin to be worth one')
  t.equal(detailClip({ x: 0, y: 0, width: 300, height: 300 }, 1.1, viewport), null, 'the stream is nearly as sharp')
  t.equal(detailClip({ x: 0, y: 0, width: 300, height: 300 }, Number.NaN, viewport), null)
})

t.test('no viewer can make the browser draw a huge still', async (t) => {
  const big = detailClip({ x: 0, y: 0, width: 1280, height: 720 }, 50, viewport)!
  t.ok(big.scale * big.scale * big.width * big.height <= DETAIL_PIXELS_MAX * 1.01, `${big.scale}× of the whole viewport stays within ${DETAIL_PIXELS_MAX} px`)
  t.equal(detailClip({ x: 0, y: 0, width: 100, height: 100 }, 50, viewport)!.scale, DETAIL_SCALE_MAX)
})

t.test("a still's clip frame is never the size of the viewport", async (t) => {
  const clip = detailClip({ x: 0, y: 0, width: 640, height: 360 }, 2, viewport)!
  t.not(Math.round(clip.width * clip.scale), 1280, 'a clip drawn exactly at the viewport size would pass for a frame')
  const near = detailClip({ x: 0, y: 0, width: 640, height: 360 }, 2.0016, viewport)!
  t.ok(Math.abs(Math.round(near.width * near.scale) - 1280) > 1, 'nor within the ±1 px a clip frame is recognised by')
  t.ok(isViewportFrame({ deviceWidth: 1280, deviceHeight: 720 }, viewport))
  t.notOk(isViewportFrame({ deviceWidth: 1170, deviceHeight: 658 }, viewport))
  // 427 × 240 CSS px at 2.74 is drawn 1169.98 × 657.6: Chromium reports 1170 × 658.
  const drawn = [{ width: Math.round(427 * 2.74), height: Math.round(240 * 2.74), until: 10_000 }]
  t.ok(isClipFrame({ deviceWidth: 1170, deviceHeight: 658 }, drawn, 9_000), 'a late clip frame is recognised by its drawn size')
  t.ok(isClipFrame({ deviceWidth: 1169, deviceHeight: 657 }, drawn, 9_000), '…to the pixel of rounding')
  t.notOk(isClipFrame({ deviceWidth: 1170, deviceHeight: 658 }, drawn, 10_001), '…for as long as it is remembered')
  t.notOk(isClipFrame({ deviceWidth: 1280, deviceHeight: 720 }, drawn, 9_000))
})

t.test('stills wait for a quiet stream, but not forever, and not too often', async (t) => {
  t.equal(stillDueAt({ lastFrameAt: 1000, askedAt: 1000, lastTakenAt: -Infinity }), 1000 + DETAIL_SETTLE_MS, 'quiet for a moment after the last frame')
  t.equal(stillDueAt({ lastFrameAt: 5000, askedAt: 1000, lastTakenAt: -Infinity }), 1000 + DETAIL_MAX_WAIT_MS, 'a page that never settles still gets one')
  t.equal(stillDueAt({ lastFrameAt: 0, askedAt: 1000, lastTakenAt: 950 }), 950 + DETAIL_MIN_INTERVAL_MS, 'one tab, at most one still per interval, whoever asked')
})

t.test('changed tiles: where two pictures of a region differ', async (t) => {
  const w = 40; const h = 20
  const a = new Uint8ClampedArray(w * h * 4).fill(255)
  const b = Uint8ClampedArray.from(a)
  t.same(changedTiles(a, b, w, h), [], 'the same picture: nothing changed')
  b[(5 * w + 20) * 4] = 255 - 10
  t.same(changedTiles(a, b, w, h), [], 'within the tolerance of JPEG rounding')
  b[(5 * w + 20) * 4 + 1] = 0
  b[(18 * w + 39) * 4 + 2] = 0
  t.same(changedTiles(a, b, w, h), [{ x: 16, y: 0, width: 16, height: 16 }, { x: 32, y: 16, width: 8, height: 4 }], 'the squares around each change, edge tiles cut to the region')
  t.throws(() => changedTiles(a, b.subarray(4), w, h), RangeError)
})
