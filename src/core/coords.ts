// Panel ↔ page coordinate maths (SPEC §10 "Aim" and "Coordinates").
//
// This module is also compiled into the panel page (tsconfig.panel.json, served as
// /panel/lib/core/coords.js) and imported there as a browser ES module: keep it free
// of imports and of anything that only exists in Node.
//
// Three spaces meet here:
// - image pixels: the JPEG frame, which may be smaller than the viewport;
// - viewport CSS pixels: the page's viewport as the screencast metadata sees it
//   (deviceWidth × deviceHeight). CDP Input.dispatchMouseEvent takes x/y
//   relative to the viewport in CSS pixels — not document coordinates — so a
//   point in this space is sent as it is, whatever the page's scroll position
//   and whatever the tab's device scale factor;
// - container CSS pixels: the panel element showing the page. Pointer events
//   arrive in CSS pixels too, so the viewer's devicePixelRatio plays no part in
//   the mapping; it only decides how many frame pixels are worth asking for
//   (screencastSizeFor).

export interface Point { x: number; y: number }
export interface Size { width: number; height: number }
export interface Rect { x: number; y: number; width: number; height: number }

export interface FrameGeometry {
  /** Viewport size in CSS pixels (screencast metadata deviceWidth/deviceHeight). */
  deviceWidth: number
  deviceHeight: number
  /** Pixel size of the decoded JPEG frame. */
  imageWidth: number
  imageHeight: number
  /** Pinch zoom; 1 unless someone zoomed the page. */
  pageScaleFactor: number
  /** Scroll position in document CSS pixels. */
  scrollX: number
  scrollY: number
}

/**
 * How the aim rectangle (viewport CSS px) is drawn in the container
 * (container CSS px): containerPoint = (viewportPoint − aim.xy) × scale + offset.
 */
export interface Layout { scale: number; offsetX: number; offsetY: number; aim: Rect }

/** The subset of CDP `Page.screencastFrame` metadata the geometry needs. */
export interface ScreencastFrameMetadata {
  deviceWidth: number
  deviceHeight: number
  pageScaleFactor: number
  scrollOffsetX: number
  scrollOffsetY: number
}

export function geometryFromScreencast(meta: ScreencastFrameMetadata, image: Size): FrameGeometry {
  return {
    deviceWidth: meta.deviceWidth,
    deviceHeight: meta.deviceHeight,
    imageWidth: image.width,
    imageHeight: image.height,
    pageScaleFactor: meta.pageScaleFactor,
    scrollX: meta.scrollOffsetX,
    scrollY: meta.scrollOffsetY
  }
}

/** Fit the aim into the container, aspect ratio kept, centred (letterboxed). */
export function layoutAim(aim: Rect, container: Size, opts: { padding?: number } = {}): Layout {
  const padding = Math.max(0, opts.padding ?? 0)
  const room = { width: container.width - 2 * padding, height: container.height - 2 * padding }
  // A hidden or collapsed panel has no room: scale 0 maps every point to null
  // rather than dividing by zero later.
  const scale = room.width > 0 && room.height > 0 && aim.width > 0 && aim.height > 0
    ? Math.min(room.width / aim.width, room.height / aim.height)
    : 0
  return {
    scale,
    offsetX: (container.width - aim.width * scale) / 2,
    offsetY: (container.height - aim.height * scale) / 2,
    aim: { ...aim }
  }
}

export function viewportToContainer(pt: Point, layout: Layout): Point {
  return {
    x: (pt.x - layout.aim.x) * layout.scale + layout.offsetX,
    y: (pt.y - layout.aim.y) * layout.scale + layout.offsetY
  }
}

/** The viewport point under a container point, or null in the letterbox (outside the aim). */
export function containerToViewport(pt: Point, layout: Layout): Point | null {
  if (!(layout.scale > 0)) return null
  const v = unproject(pt, layout)
  const { aim } = layout
  const inside = v.x >= aim.x && v.x < aim.x + aim.width && v.y >= aim.y && v.y < aim.y + aim.height
  return inside ? v : null
}

/**
 * Like containerToViewport, but a point outside the aim is pulled to its
 * nearest edge. For the moves and the release of a drag that left the picture:
 * dropping them would leave the page's button pressed (SPEC §10: down/up are
 * never dropped).
 */
export function containerToViewportClamped(pt: Point, layout: Layout): Point | null {
  if (!(layout.scale > 0)) return null
  const v = unproject(pt, layout)
  const { aim } = layout
  // Stay a hair inside the far edge: x = aim.x + aim.width is already outside.
  const inset = Math.min(0.01, aim.width / 2, aim.height / 2)
  return {
    x: clamp(v.x, aim.x, aim.x + aim.width - inset),
    y: clamp(v.y, aim.y, aim.y + aim.height - inset)
  }
}

/** Where the aim is drawn in the container: the panel clips the picture to this box. */
export function drawnAim(layout: Layout): Rect {
  const topLeft = viewportToContainer(layout.aim, layout)
  return { ...topLeft, width: layout.aim.width * layout.scale, height: layout.aim.height * layout.scale }
}

/**
 * Where the whole frame image goes in the container so that the aim lands on
 * drawnAim(layout). The image spans the whole viewport whatever its pixel size,
 * so a re-aim is only a new placement: no re-encode, no round trip.
 */
export function imagePlacement(layout: Layout, geom: FrameGeometry): Rect {
  const origin = viewportToContainer({ x: 0, y: 0 }, layout)
  return { ...origin, width: geom.deviceWidth * layout.scale, height: geom.deviceHeight * layout.scale }
}

/**
 * Grow the aim by `margin` on every side and keep it inside the viewport. An
 * aim with nothing left inside the viewport (a widget scrolled away, an empty
 * rect) falls back to the whole viewport, as the SPEC's aim order does.
 */
export function clampAim(aim: Rect, geom: FrameGeometry, margin = 0): Rect {
  const left = Math.max(0, aim.x - margin)
  const top = Math.max(0, aim.y - margin)
  const right = Math.min(geom.deviceWidth, aim.x + aim.width + margin)
  const bottom = Math.min(geom.deviceHeight, aim.y + aim.height + margin)
  if (!(right > left && bottom > top)) return { x: 0, y: 0, width: geom.deviceWidth, height: geom.deviceHeight }
  return { x: left, y: top, width: right - left, height: bottom - top }
}

/** A JPEG pixel to viewport CSS pixels (docs/panel.md "CDP facts" 4). */
export function imagePixelToViewport(px: Point, geom: FrameGeometry): Point {
  return {
    x: px.x * geom.deviceWidth / geom.imageWidth,
    y: px.y * geom.deviceHeight / geom.imageHeight
  }
}

/**
 * A viewport point to document CSS pixels — for reports and hit-testing,
 * never for dispatching input. Under pinch zoom one viewport pixel covers
 * 1/pageScaleFactor document pixels, counted from the scroll position.
 */
export function viewportToDocument(pt: Point, geom: FrameGeometry): Point {
  const zoom = geom.pageScaleFactor > 0 ? geom.pageScaleFactor : 1
  return { x: geom.scrollX + pt.x / zoom, y: geom.scrollY + pt.y / zoom }
}

/**
 * The screencast maxWidth/maxHeight that gives one frame pixel per screen
 * pixel of the viewer: the whole viewport drawn at the layout's scale, times
 * the viewer's devicePixelRatio. Capped at twice the viewport, past which a
 * bigger frame costs CPU and bandwidth without showing anything sharper.
 * With several viewers, ask for the largest of their answers.
 */
export function screencastSizeFor(
  container: Size,
  dpr: number,
  aim: Rect,
  device: Size,
  opts: { padding?: number } = {}
): { maxWidth: number; maxHeight: number } {
  const ratio = Number.isFinite(dpr) && dpr > 0 ? dpr : 1
  const framePxPerCssPx = Math.min(2, layoutAim(aim, container, opts).scale * ratio)
  return {
    maxWidth: Math.max(1, Math.round(device.width * framePxPerCssPx)),
    maxHeight: Math.max(1, Math.round(device.height * framePxPerCssPx))
  }
}

/**
 * The pan of a zoomed view (container px; a view point p is drawn at pan + zoom · p) that keeps
 * the page point at the centre of the view where it was when the view is laid out again: a
 * phone's keyboard rising, a rotation or a reflowed toolbar resizes the view under a person's
 * zoom, and the part of the page they were looking at must stay in front of them. A layout with
 * no room (scale 0) keeps the pan as it was.
 */
export function panKeepingCentre(pan: Point, zoom: number, before: { layout: Layout, size: Size }, after: { layout: Layout, size: Size }): Point {
  if (!(before.layout.scale > 0) || !(after.layout.scale > 0)) return pan
  const centre = unproject({ x: (before.size.width / 2 - pan.x) / zoom, y: (before.size.height / 2 - pan.y) / zoom }, before.layout)
  const c = viewportToContainer(centre, after.layout)
  return { x: after.size.width / 2 - c.x * zoom, y: after.size.height / 2 - c.y * zoom }
}

function unproject(pt: Point, layout: Layout): Point {
  return {
    x: (pt.x - layout.offsetX) / layout.scale + layout.aim.x,
    y: (pt.y - layout.offsetY) / layout.scale + layout.aim.y
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max)
}
