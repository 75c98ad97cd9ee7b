import t from 'tap'
import {
  panKeepingCentre,
  clampAim, containerToViewport, containerToViewportClamped, drawnAim, geometryFromScreencast,
  imagePixelToViewport, imagePlacement, layoutAim, screencastSizeFor, viewportToContainer, viewportToDocument,
  type FrameGeometry, type Layout, type Point, type Rect
} from '../../src/core/coords.js'

const geom = (over: Partial<FrameGeometry> = {}): FrameGeometry => ({
  deviceWidth: 1280, deviceHeight: 720, imageWidth: 1280, imageHeight: 720,
  pageScaleFactor: 1, scrollX: 0, scrollY: 0, ...over
})

t.test('layoutAim fits and centres the aim (worked examples)', async t => {
  const aim = { x: 100, y: 50, width: 400, height: 200 }
  // 1000/400 = 2.5 beats 600/200 = 3: width-bound, drawn 1000×500, 50 px bands above and below.
  t.same(layoutAim(aim, { width: 1000, height: 600 }), { scale: 2.5, offsetX: 0, offsetY: 50, aim })
  // Padding 50: min(900/400, 500/200) = 2.25, drawn 900×450.
  t.same(layoutAim(aim, { width: 1000, height: 600 }, { padding: 50 }), { scale: 2.25, offsetX: 50, offsetY: 75, aim })
  // Height-bound: min(2000/400, 300/200) = 1.5, drawn 600×300, 700 px bands left and right.
  t.same(layoutAim(aim, { width: 2000, height: 300 }), { scale: 1.5, offsetX: 700, offsetY: 0, aim })
})

t.test('containerToViewport (worked example)', async t => {
  const layout = layoutAim({ x: 100, y: 50, width: 400, height: 200 }, { width: 1000, height: 600 })
  t.same(containerToViewport({ x: 500, y: 300 }, layout), { x: 300, y: 150 })
  t.same(containerToViewport({ x: 0, y: 50 }, layout), { x: 100, y: 50 }, 'top-left corner of the aim')
  t.same(viewportToContainer({ x: 300, y: 150 }, layout), { x: 500, y: 300 })
  t.equal(containerToViewport({ x: 500, y: 20 }, layout), null, 'band above')
  t.equal(containerToViewport({ x: 500, y: 560 }, layout), null, 'band below')
  t.equal(containerToViewport({ x: 500, y: 550 }, layout), null, 'the far edge is outside')
  t.equal(containerToViewport({ x: -1, y: 300 }, layout), null, 'left of the container')
})

t.test('a panel with no room maps nothing and does not divide by zero', async t => {
  const aim = { x: 0, y: 0, width: 1280, height: 720 }
  for (const container of [{ width: 0, height: 0 }, { width: 10, height: 10 }]) {
    const layout = layoutAim(aim, container, { padding: 8 })
    t.equal(layout.scale, 0)
    t.equal(containerToViewport({ x: 1, y: 1 }, layout), null)
    t.equal(containerToViewportClamped({ x: 1, y: 1 }, layout), null)
  }
  t.equal(layoutAim({ x: 0, y: 0, width: 0, height: 10 }, { width: 500, height: 500 }).scale, 0, 'empty aim')
})

t.test('drawnAim and imagePlacement (worked example)', async t => {
  const layout = layoutAim({ x: 100, y: 50, width: 400, height: 200 }, { width: 1000, height: 600 })
  t.same(drawnAim(layout), { x: 0, y: 50, width: 1000, height: 500 })
  // The 1280×720 viewport at ×2.5 is 3200×1800, shifted so that (100, 50) sits at (0, 50).
  t.same(imagePlacement(layout, geom({ imageWidth: 640, imageHeight: 360 })), { x: -250, y: -75, width: 3200, height: 1800 })
})

t.test('imagePixelToViewport scales by device size over image size', async t => {
  t.same(imagePixelToViewport({ x: 320, y: 180 }, geom({ imageWidth: 640, imageHeight: 360 })), { x: 640, y: 360 })
  t.same(imagePixelToViewport({ x: 100, y: 100 }, geom()), { x: 100, y: 100 })
  t.same(imagePixelToViewport({ x: 100, y: 50 }, geom({ imageWidth: 1000, imageHeight: 500 })), { x: 128, y: 72 })
})

t.test('viewportToDocument adds scroll and undoes pinch zoom', async t => {
  t.same(viewportToDocument({ x: 10, y: 20 }, geom({ scrollX: 100, scrollY: 2000 })), { x: 110, y: 2020 })
  t.same(viewportToDocument({ x: 10, y: 20 }, geom({ scrollX: 100, scrollY: 2000, pageScaleFactor: 2 })), { x: 105, y: 2010 })
  t.same(viewportToDocument({ x: 10, y: 20 }, geom({ pageScaleFactor: 0 })), { x: 10, y: 20 }, 'bogus zoom ignored')
})

t.test('geometryFromScreencast renames the CDP metadata', async t => {
  const meta = { offsetTop: 0, pageScaleFactor: 1.5, deviceWidth: 800, deviceHeight: 600, scrollOffsetX: 3, scrollOffsetY: 4, timestamp: 1 }
  t.same(geometryFromScreencast(meta, { width: 400, height: 300 }), {
    deviceWidth: 800, deviceHeight: 600, imageWidth: 400, imageHeight: 300, pageScaleFactor: 1.5, scrollX: 3, scrollY: 4
  })
})

t.test('clampAim', async t => {
  const g = geom()
  t.same(clampAim({ x: 100, y: 100, width: 300, height: 65 }, g, 16), { x: 84, y: 84, width: 332, height: 97 }, 'margin all round')
  t.same(clampAim({ x: 5, y: 700, width: 300, height: 65 }, g, 16), { x: 0, y: 684, width: 321, height: 36 }, 'clipped at the edges')
  t.same(clampAim({ x: 0, y: 0, width: 5000, height: 5000 }, g), { x: 0, y: 0, width: 1280, height: 720 }, 'bigger than the viewport')
  t.same(clampAim({ x: 600, y: 300, width: 0, height: 0 }, g, 20), { x: 580, y: 280, width: 40, height: 40 }, 'a point with margin')
  const whole = { x: 0, y: 0, width: 1280, height: 720 }
  t.same(clampAim({ x: 100, y: 900, width: 300, height: 65 }, g, 16), whole, 'scrolled out of view')
  t.same(clampAim({ x: 100, y: 100, width: 0, height: 0 }, g), whole, 'empty')
})

t.test('screencastSizeFor asks for one frame pixel per screen pixel, at most twice the viewport', async t => {
  const device = { width: 1280, height: 720 }
  const whole = { x: 0, y: 0, width: 1280, height: 720 }
  t.same(screencastSizeFor({ width: 640, height: 360 }, 1, whole, device), { maxWidth: 640, maxHeight: 360 })
  t.same(screencastSizeFor({ width: 640, height: 360 }, 2, whole, device), { maxWidth: 1280, maxHeight: 720 })
  t.same(screencastSizeFor({ width: 500, height: 500 }, 1.5, whole, device), { maxWidth: 750, maxHeight: 422 }, 'width-bound, rounded')
  // A 320×180 widget zoomed into the same 640×360 panel needs the frame at ×2 — on a dpr-2 phone, ×4, capped.
  const widget = { x: 480, y: 270, width: 320, height: 180 }
  t.same(screencastSizeFor({ width: 640, height: 360 }, 1, widget, device), { maxWidth: 2560, maxHeight: 1440 })
  t.same(screencastSizeFor({ width: 320, height: 180 }, 1.5, widget, device), { maxWidth: 1920, maxHeight: 1080 })
  t.same(screencastSizeFor({ width: 640, height: 360 }, 3, widget, device), { maxWidth: 2560, maxHeight: 1440 })
  t.same(screencastSizeFor({ width: 640, height: 360 }, NaN, whole, device), { maxWidth: 640, maxHeight: 360 }, 'bogus dpr as 1')
})

// ---- property checks over many panel sizes, aims and frame sizes ----

const DEVICES = [{ width: 1280, height: 720 }, { width: 390, height: 844 }, { width: 1920, height: 1080 }, { width: 801, height: 603 }]
const IMAGE_SCALES = [1, 0.75, 0.5, 0.3371]
const DPRS = [1, 1.25, 2, 3]

function* cases() {
  const random = seeded(7)
  for (let width = 200; width <= 2000; width += 90) {
    for (let height = 200; height <= 2000; height += 150) {
      const device = DEVICES[Math.floor(random() * DEVICES.length)]!
      const imageScale = IMAGE_SCALES[Math.floor(random() * IMAGE_SCALES.length)]!
      const g = geom({
        deviceWidth: device.width, deviceHeight: device.height,
        imageWidth: Math.round(device.width * imageScale), imageHeight: Math.round(device.height * imageScale),
        scrollX: Math.round(random() * 3000), scrollY: Math.round(random() * 9000)
      })
      // Half the cases aim at a widget, half at the whole viewport.
      const widget = { x: random() * device.width, y: random() * device.height, width: 20 + random() * 400, height: 20 + random() * 300 }
      const aim = random() < 0.5 ? clampAim(widget, g, 12) : clampAim({ x: 0, y: 0, width: 1e9, height: 1e9 }, g)
      const padding = random() < 0.5 ? 0 : 12
      yield { container: { width, height }, g, aim, padding, layout: layoutAim(aim, { width, height }, { padding }), random }
    }
  }
}

// Where a person sees a viewport point: the frame image is drawn at
// imagePlacement, so the point's JPEG pixel sits at that fraction of it.
function whereDrawn(target: Point, g: FrameGeometry, layout: Layout): Point {
  const image = imagePlacement(layout, g)
  const px = { x: target.x * g.imageWidth / g.deviceWidth, y: target.y * g.imageHeight / g.deviceHeight }
  return { x: image.x + px.x * image.width / g.imageWidth, y: image.y + px.y * image.height / g.imageHeight }
}

const inside = (p: Point, r: Rect, eps = 1e-6) =>
  p.x >= r.x - eps && p.x <= r.x + r.width + eps && p.y >= r.y - eps && p.y <= r.y + r.height + eps

t.test('the aim is drawn whole, centred, undistorted, as large as fits', async t => {
  const problems: string[] = []
  let n = 0
  for (const { container, aim, padding, layout } of cases()) {
    const box = drawnAim(layout)
    const room = { x: padding, y: padding, width: container.width - 2 * padding, height: container.height - 2 * padding }
    if (!inside(box, room) || !inside({ x: box.x + box.width, y: box.y + box.height }, room)) problems.push(`aim overflows: ${JSON.stringify({ container, aim, padding })}`)
    if (Math.abs(box.width / box.height - aim.width / aim.height) > 1e-9 * (aim.width / aim.height)) problems.push('aspect ratio changed')
    const tightX = Math.abs(box.width - room.width) < 1e-6
    const tightY = Math.abs(box.height - room.height) < 1e-6
    if (!tightX && !tightY) problems.push(`aim smaller than it could be: ${JSON.stringify({ container, aim, box })}`)
    const left = box.x; const right = container.width - box.x - box.width
    const top = box.y; const bottom = container.height - box.y - box.height
    if (Math.abs(left - right) > 1e-6 || Math.abs(top - bottom) > 1e-6) problems.push('not centred')
    n++
  }
  t.same(problems.slice(0, 5), [], `${problems.length} of ${n} layouts wrong`)
  t.ok(n > 200, `${n} layouts checked`)
})

t.test('a click where the person sees a page point lands within 1 CSS px of it', async t => {
  const problems: string[] = []
  let exact = 0
  let rounded = 0
  for (const { g, aim, layout, random } of cases()) {
    for (let i = 0; i < 20; i++) {
      const target = { x: aim.x + random() * aim.width, y: aim.y + random() * aim.height }
      const seen = whereDrawn(target, g, layout)

      const hit = containerToViewport(seen, layout)
      if (hit === null || distance(hit, target) > 1e-6) problems.push(`exact click missed: ${JSON.stringify({ target, hit, layout })}`)
      exact++

      // Real pointer events are quantised to the viewer's screen pixels. That
      // costs at most half a screen pixel, which is within 1 CSS px of the page
      // as long as a screen pixel covers at most 2 page pixels.
      for (const dpr of DPRS) {
        if (layout.scale * dpr < 0.5) continue
        const click = { x: Math.round(seen.x * dpr) / dpr, y: Math.round(seen.y * dpr) / dpr }
        const landed = containerToViewportClamped(click, layout)!
        if (distance1d(landed, target) > 1) problems.push(`click off by more than 1 px: ${JSON.stringify({ target, landed, dpr, layout })}`)
        rounded++
      }
    }
  }
  t.same(problems.slice(0, 5), [], `${problems.length} clicks missed`)
  t.ok(exact > 4000, `${exact} exact clicks`)
  t.ok(rounded > 4000, `${rounded} screen-pixel clicks`)
})

t.test('aiming at the centre of a JPEG pixel lands within 1 CSS px when the frame is at least half size', async t => {
  const problems: string[] = []
  let n = 0
  for (const { g, aim, random } of cases()) {
    if (g.imageWidth * 2 < g.deviceWidth) continue
    for (let i = 0; i < 20; i++) {
      const target = { x: aim.x + random() * aim.width, y: aim.y + random() * aim.height }
      const pixel = { x: Math.floor(target.x * g.imageWidth / g.deviceWidth) + 0.5, y: Math.floor(target.y * g.imageHeight / g.deviceHeight) + 0.5 }
      if (distance1d(imagePixelToViewport(pixel, g), target) > 1) problems.push(`pixel centre too far: ${JSON.stringify({ g, target, pixel })}`)
      n++
    }
  }
  t.same(problems.slice(0, 5), [], `${problems.length} pixels too far`)
  t.ok(n > 1000, `${n} pixels checked`)
})

t.test('round trips and the letterbox', async t => {
  const problems: string[] = []
  let letterboxed = 0
  for (const { container, layout, random } of cases()) {
    const box = drawnAim(layout)
    for (let i = 0; i < 10; i++) {
      const c = { x: box.x + 0.5 + random() * (box.width - 1), y: box.y + 0.5 + random() * (box.height - 1) }
      const v = containerToViewport(c, layout)
      if (v === null) { problems.push(`inside point rejected: ${JSON.stringify({ c, layout })}`); continue }
      if (distance(viewportToContainer(v, layout), c) > 1e-6) problems.push('container → viewport → container drifted')
      if (distance(containerToViewportClamped(c, layout)!, v) > 1e-9) problems.push('clamping moved an inside point')
    }
    // Half a container pixel into each band around the drawn aim, and the container's corners.
    const outside = [
      { x: box.x - 0.5, y: box.y + box.height / 2 }, { x: box.x + box.width + 0.5, y: box.y + box.height / 2 },
      { x: box.x + box.width / 2, y: box.y - 0.5 }, { x: box.x + box.width / 2, y: box.y + box.height + 0.5 },
      { x: 0, y: 0 }, { x: container.width, y: container.height }
    ]
    for (const c of outside) {
      if (inside(c, box, -1e-9)) continue // no band on this side (aim flush with the container)
      if (containerToViewport(c, layout) !== null) problems.push(`letterbox point mapped: ${JSON.stringify({ c, box })}`)
      const pulled = containerToViewportClamped(c, layout)!
      if (!inside(pulled, layout.aim) || pulled.x >= layout.aim.x + layout.aim.width || pulled.y >= layout.aim.y + layout.aim.height) {
        problems.push(`clamped point outside the aim: ${JSON.stringify({ pulled, aim: layout.aim })}`)
      }
      letterboxed++
    }
  }
  t.same(problems.slice(0, 5), [], `${problems.length} mapping problems`)
  t.ok(letterboxed > 300, `${letterboxed} letterbox points checked`)
})

t.test('clampAim always yields a non-empty rect inside the viewport', async t => {
  const problems: string[] = []
  const random = seeded(11)
  for (let i = 0; i < 2000; i++) {
    const g = geom({ deviceWidth: 300 + random() * 1700, deviceHeight: 300 + random() * 1700 })
    const aim = { x: random() * 4000 - 1000, y: random() * 4000 - 1000, width: random() * 600, height: random() * 600 }
    const r = clampAim(aim, g, random() * 40)
    if (!(r.width > 0 && r.height > 0 && r.x >= 0 && r.y >= 0 && r.x + r.width <= g.deviceWidth + 1e-9 && r.y + r.height <= g.deviceHeight + 1e-9)) {
      problems.push(`bad clamp: ${JSON.stringify({ aim, g, r })}`)
    }
  }
  t.same(problems.slice(0, 5), [], `${problems.length} of 2000 random aims clamped wrongly`)
})

function distance(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y)
}

// "Within 1 CSS pixel" per axis: a click lands on the aimed pixel or a neighbour.
function distance1d(a: Point, b: Point): number {
  return Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y))
}

function seeded(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let r = Math.imul(a ^ (a >>> 15), 1 | a)
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296
  }
}

t.test('panKeepingCentre keeps the page point at the view\'s centre across a relayout', async t => {
  const aim = { x: 0, y: 0, width: 1280, height: 720 }
  const tall = { width: 390, height: 705 }
  const short = { width: 390, height: 400 }
  const zoom = 5
  const before = { layout: layoutAim(aim, tall), size: tall }
  const after = { layout: layoutAim(aim, short), size: short }
  const pan = { x: -700, y: -1500 }
  // The viewport point at the centre, as a person zoomed 5× sees it (p drawn at pan + zoom · p).
  const centreOf = (p: { x: number, y: number }, s: typeof before) => containerToViewport({ x: (s.size.width / 2 - p.x) / zoom, y: (s.size.height / 2 - p.y) / zoom }, s.layout)!
  const kept = panKeepingCentre(pan, zoom, before, after)
  const a = centreOf(pan, before)
  const b = centreOf(kept, after)
  t.ok(Math.abs(a.x - b.x) < 1e-9 && Math.abs(a.y - b.y) < 1e-9, 'the same viewport point is at the centre')
  t.same(panKeepingCentre(pan, zoom, before, { layout: layoutAim(aim, { width: 0, height: 0 }), size: { width: 0, height: 0 } }), pan, 'no room: the pan is kept')
})
