// Sharp stills of a zoomed view (docs/panel.md "Sharp when zoomed"; docs/decisions.md "The
// stream follows what is shown"). The screencast draws the whole viewport at the page's own
// pixels, so a phone zoomed 3× shows an upscaled picture. A viewer that shows only part of
// the viewport asks for a still of that part drawn at its own pixel density; the host takes it
// with Page.captureScreenshot (which the page cannot observe) and the panel lays it over the
// stream, falling back to the stream tile by tile wherever a newer frame changed.
//
// Pure and import-free apart from the limits and a type: compiled into the panel page too.
import { DETAIL_PIXELS_MAX, DETAIL_SCALE_MAX } from '../limits.js'
import type { DetailRect } from '../schemas/panel-messages.js'

/** The part of the viewport a viewer shows, in viewport CSS px (its schema is the panel's `detail` message). */
export type { DetailRect }
export interface DetailClip extends DetailRect { scale: number }

/** Below this many CSS px a side, a still is not worth a round trip. */
const MIN_SIDE = 8
/** A still must beat the frame by at least this factor to be worth drawing. */
export const DETAIL_MIN_GAIN = 1.2

/**
 * The still the host takes for a viewer's wish: `rect` (viewport CSS px) cut to the viewport
 * and to whole pixels, `scale` bounded by the limits. Null when there is nothing worth taking.
 *
 * The drawn size never equals the viewport's: while a still is taken, the running screencast
 * emits frames of the still's clip, and the host tells them from real frames by their size.
 */
export function detailClip (rect: DetailRect, scale: number, viewport: { width: number; height: number }): DetailClip | null {
  const x = Math.max(0, Math.floor(rect.x))
  const y = Math.max(0, Math.floor(rect.y))
  const right = Math.min(viewport.width, Math.ceil(rect.x + rect.width))
  const bottom = Math.min(viewport.height, Math.ceil(rect.y + rect.height))
  const width = right - x
  const height = bottom - y
  if (!(width >= MIN_SIDE && height >= MIN_SIDE) || !Number.isFinite(scale)) return null
  let s = Math.min(scale, DETAIL_SCALE_MAX, Math.sqrt(DETAIL_PIXELS_MAX / (width * height)))
  if (s < DETAIL_MIN_GAIN) return null
  if (Math.abs(Math.round(width * s) - viewport.width) <= 1 && Math.abs(Math.round(height * s) - viewport.height) <= 1) s *= 0.99
  return { x, y, width, height, scale: Math.round(s * 1000) / 1000 }
}

/** Whether a screencast frame of this size is the page's viewport (not a still's clip). */
export function isViewportFrame (frame: { deviceWidth: number; deviceHeight: number }, viewport: { width: number; height: number }): boolean {
  return frame.deviceWidth === viewport.width && frame.deviceHeight === viewport.height
}

/** Whether a frame has the drawn size (±1 px of rounding) of a still still remembered at `now`. */
export function isClipFrame (frame: { deviceWidth: number; deviceHeight: number }, drawn: ReadonlyArray<{ width: number; height: number; until: number }>, now: number): boolean {
  return drawn.some((d) => d.until > now && Math.abs(d.width - frame.deviceWidth) <= 1 && Math.abs(d.height - frame.deviceHeight) <= 1)
}

/** One changed square of a region, in region pixels. */
export type Tile = DetailRect

/**
 * The squares of `tile` px where two RGBA pictures of one region differ by more than
 * `tolerance` in any channel. JPEG encodes 8×8 blocks on their own, so the unchanged part of
 * a page decodes to the same pixels frame after frame; the tolerance absorbs decoder rounding.
 */
export function changedTiles (a: Uint8ClampedArray, b: Uint8ClampedArray, width: number, height: number, tile = 16, tolerance = 24): Tile[] {
  if (a.length !== b.length || a.length !== width * height * 4) throw new RangeError('the two pictures must be width × height RGBA')
  const out: Tile[] = []
  for (let ty = 0; ty < height; ty += tile) {
    const th = Math.min(tile, height - ty)
    for (let tx = 0; tx < width; tx += tile) {
      const tw = Math.min(tile, width - tx)
      if (tileDiffers(a, b, width, tx, ty, tw, th, tolerance)) out.push({ x: tx, y: ty, width: tw, height: th })
    }
  }
  return out
}

function tileDiffers (a: Uint8ClampedArray, b: Uint8ClampedArray, width: number, tx: number, ty: number, tw: number, th: number, tolerance: number): boolean {
  for (let y = ty; y < ty + th; y++) {
    let i = (y * width + tx) * 4
    const end = i + tw * 4
    for (; i < end; i += 4) {
      if (Math.abs(a[i] - b[i]) > tolerance || Math.abs(a[i + 1] - b[i + 1]) > tolerance || Math.abs(a[i + 2] - b[i + 2]) > tolerance) return true
    }
  }
  return false
}

/** A still waits for the stream to be quiet this long (a page mid-change is not worth a still)… */
export const DETAIL_SETTLE_MS = 120
/** …but no longer than this after the viewer asked (a page that never settles still gets one)… */
export const DETAIL_MAX_WAIT_MS = 600
/** …and a tab gives at most one still in this long, however many viewers ask how often. */
export const DETAIL_MIN_INTERVAL_MS = 250

/** When the host takes the still a viewer asked for: all times in the same clock's ms. */
export function stillDueAt (t: { lastFrameAt: number; askedAt: number; lastTakenAt: number }): number {
  return Math.max(Math.min(t.lastFrameAt + DETAIL_SETTLE_MS, t.askedAt + DETAIL_MAX_WAIT_MS), t.lastTakenAt + DETAIL_MIN_INTERVAL_MS)
}
