// The live picture: decodes binary frames newest-first and places them with CSS only.
// The same coordinate module the host's tests use maps pointer positions back to page
// CSS pixels (docs/spec.md section 10 "Aim" and "Coordinates").
import {
  clampAim, containerToViewport, containerToViewportClamped, drawnAim, imagePlacement, layoutAim, panKeepingCentre,
  type FrameGeometry, type Layout, type Point, type Rect, type Size
} from '../core/coords.js'
import { DETAIL_MIN_GAIN } from '../core/detail.js'
import { decodeFrame, type DecodedFrame, type FrameHeader } from '../panel/frame-codec.js'
import type { PanelWireMessage } from '../panel/messages.js'
import { DetailLayer } from './detail.js'
import type { PanelStats } from './stats.js'

const AIM_MARGIN = 16
/** The most a person can zoom the view on a phone (docs/spec.md section 10 "Phones": at least 4×). */
export const MAX_ZOOM = 5
const now = (): number => performance.timeOrigin + performance.now()

export class View {
  readonly el: HTMLElement
  readonly stats: PanelStats
  readonly clip: HTMLElement
  readonly canvas: HTMLCanvasElement
  readonly ctx: ImageBitmapRenderingContext
  /** Sharp stills over the stream while zoomed in (docs/panel.md "Sharp when zoomed"). */
  readonly detail: DetailLayer
  whole: boolean
  zoom: number
  pan: Point
  header: FrameHeader | null
  geom: FrameGeometry | null
  layout: Layout | null
  /** The container size `layout` was made for. */
  size: Size = { width: 0, height: 0 }
  pending: DecodedFrame | null
  pendingStill: DecodedFrame | null = null
  decoding: boolean
  onResize: () => void
  /**
   * Frames wait (newest wins) until the panel's layout is final — the host's state and tab
   * list shown — so the first picture is drawn where it stays (docs/spec.md section 17).
   */
  ready = false
  /** Before a frame is laid out: the panel's own bars that follow the frame settle first. */
  beforeLayout: (header: FrameHeader) => void = () => {}
  /** A frame was drawn and laid out: input that waited for the picture can go. */
  onDrawn: () => void = () => {}

  constructor (el: HTMLElement, stats: PanelStats) {
    this.el = el
    this.stats = stats
    this.clip = el.querySelector<HTMLElement>('.afhttp-clip')!
    this.canvas = el.querySelector<HTMLCanvasElement>('.afhttp-frame')!
    // The decoded bitmap is handed to the canvas, not copied into it.
    this.ctx = this.canvas.getContext('bitmaprenderer')!
    this.detail = new DetailLayer(el.querySelector<HTMLCanvasElement>('.afhttp-detail')!, stats)
    this.whole = false
    // The person's zoom of the view (phones): a CSS transform of the picture only. It never
    // changes the page; a container point maps back through it before the aim mapping.
    this.zoom = 1
    this.pan = { x: 0, y: 0 }
    this.header = null
    this.geom = null
    this.layout = null
    this.pending = null
    this.decoding = false
    this.onResize = () => {}
    new ResizeObserver(() => { this.relayout(); this.onResize() }).observe(el)
  }

  /** A binary message from the host: a frame (older undecoded ones are skipped) or a still. */
  push (buffer: ArrayBuffer): void {
    let decoded: DecodedFrame
    try { decoded = decodeFrame(buffer) } catch (err) { console.warn('afhttp: a frame could not be read', err); return }
    if (decoded.header.detail) {
      // A still refines the frame before it: it waits behind that frame and never replaces one.
      this.stats.still_bytes += buffer.byteLength
      this.pendingStill = decoded
    } else {
      this.stats.frames++
      this.stats.bytes += buffer.byteLength
      this.stats.last_frame_at = now()
      if (this.pending) this.stats.frames_skipped++
      this.pending = decoded
    }
    if (!this.decoding) void this.drain()
  }

  /** The layout is final: the frames that waited may be drawn. */
  start (): void {
    if (this.ready) return
    this.ready = true
    if (!this.decoding) void this.drain()
  }

  async drain (): Promise<void> {
    if (!this.ready) return
    this.decoding = true
    while (this.pending || this.pendingStill) {
      const frame = this.pending
      this.pending = null
      const still = frame ? null : this.pendingStill
      if (still) this.pendingStill = null
      const { header, jpeg } = (frame ?? still)!
      try {
        const bitmap = await createImageBitmap(new Blob([jpeg as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }))
        if (frame) this.draw(header, bitmap, jpeg)
        else {
          // The frame it refines may still be decoding, kept again at the zoom.
          await this.detail.seeding
          if (this.detail.show(header, bitmap)) this.placeDetail()
        }
      } catch (err) {
        console.warn('afhttp: a frame could not be shown', err)
      }
    }
    this.decoding = false
  }

  draw (header: FrameHeader, bitmap: ImageBitmap, jpeg: Uint8Array): void {
    const { width, height } = bitmap
    // A hook for embedding pages and the benchmark; the bitmap is gone once transferred.
    if (typeof window.afhttpOnFrame === 'function') window.afhttpOnFrame({ header, bitmap, drawnAt: now() })
    this.detail.beforeFrame(header, bitmap, jpeg)
    this.ctx.transferFromImageBitmap(bitmap)
    // A new aim (or the first frame) changes how large the page is drawn: the stream and the
    // still this viewer wants may change with it.
    const reaimed = !this.header || JSON.stringify(this.header.aim) !== JSON.stringify(header.aim)
    this.header = header
    this.geom = {
      deviceWidth: header.deviceWidth,
      deviceHeight: header.deviceHeight,
      imageWidth: width,
      imageHeight: height,
      pageScaleFactor: header.pageScaleFactor,
      scrollX: header.scrollX,
      scrollY: header.scrollY
    }
    this.stats.aim = header.aim.kind
    this.stats.device = { width: header.deviceWidth, height: header.deviceHeight }
    this.beforeLayout(header)
    this.relayout()
    if (reaimed) this.onResize()
    const t = now()
    this.stats.frames_drawn++
    this.stats.last_drawn_at = t
    const first = !this.stats.first_frame_at
    if (first) this.stats.first_frame_at = t
    this.onDrawn()
    // Tests and embedding pages act "at the first frame" here: laid out, and input can go.
    if (typeof window.afhttpOnDrawn === 'function') window.afhttpOnDrawn({ header, drawnAt: t, first })
  }

  /** The part of the viewport on show: the frame's aim, or all of it when "Whole page" is on. */
  aimRect (): Rect | null {
    if (!this.geom || !this.header) return null
    const full = { x: 0, y: 0, width: this.geom.deviceWidth, height: this.geom.deviceHeight }
    if (this.whole || !this.header.aim.rect) return full
    return clampAim(this.header.aim.rect, this.geom, AIM_MARGIN)
  }

  relayout (): void {
    const aim = this.aimRect()
    if (!aim || !this.geom) return
    const size = { width: this.el.clientWidth, height: this.el.clientHeight }
    // No room (the view hidden or mid-layout): nothing is shown, and the person's zoom is kept.
    if (size.width < 1 || size.height < 1) return
    const before = this.layout
    this.layout = layoutAim(aim, size)
    if (before && this.zoom > 1) this.pan = panKeepingCentre(this.pan, this.zoom, { layout: before, size: this.size }, { layout: this.layout, size })
    this.size = size
    const drawn = drawnAim(this.layout)
    const place = imagePlacement(this.layout, this.geom)
    Object.assign(this.clip.style, { left: `${drawn.x}px`, top: `${drawn.y}px`, width: `${drawn.width}px`, height: `${drawn.height}px` })
    Object.assign(this.canvas.style, { left: `${place.x - drawn.x}px`, top: `${place.y - drawn.y}px`, width: `${place.width}px`, height: `${place.height}px` })
    this.placeDetail()
    this.applyZoom()
  }

  placeDetail (): void {
    if (!this.layout || !this.geom) return
    const drawn = drawnAim(this.layout)
    const place = imagePlacement(this.layout, this.geom)
    this.detail.place({ x: place.x - drawn.x, y: place.y - drawn.y, width: place.width, height: place.height }, this.geom.deviceWidth)
  }

  /** Zooms to `zoom` keeping the container point `at` (client px relative to the view) still. */
  zoomAt (zoom: number, at: Point): void {
    const z = Math.min(MAX_ZOOM, Math.max(1, zoom))
    const pre = { x: (at.x - this.pan.x) / this.zoom, y: (at.y - this.pan.y) / this.zoom }
    this.zoom = z
    this.pan = { x: at.x - pre.x * z, y: at.y - pre.y * z }
    this.applyZoom()
  }

  /** Moves the zoomed picture by (dx, dy) container px; false when it is already at that edge. */
  panBy (dx: number, dy: number): boolean {
    const before = { ...this.pan }
    this.pan = { x: this.pan.x + dx, y: this.pan.y + dy }
    this.applyZoom()
    return before.x !== this.pan.x || before.y !== this.pan.y
  }

  applyZoom (): void {
    // Keep the picture covering the view: no panning into empty space, none at all at 1×.
    const w = this.el.clientWidth
    const h = this.el.clientHeight
    const clampTo = (v: number, size: number): number => Math.min(0, Math.max(size - size * this.zoom, v))
    this.pan = this.zoom === 1 ? { x: 0, y: 0 } : { x: clampTo(this.pan.x, w), y: clampTo(this.pan.y, h) }
    this.stats.zoom = Math.round(this.zoom * 1000) / 1000
    // Scale about the view's own corner (the clip sits inside it, letterboxed), so that a view
    // point p is shown at pan + zoom · p.
    const drawn = this.layout ? drawnAim(this.layout) : { x: 0, y: 0 }
    Object.assign(this.clip.style, {
      transformOrigin: `${-drawn.x}px ${-drawn.y}px`,
      transform: this.zoom === 1 ? '' : `translate(${this.pan.x}px, ${this.pan.y}px) scale(${this.zoom})`
    })
  }

  /** Page viewport CSS pixels under a client point; `clamped` pulls outside points to the edge (drags). */
  toViewport (clientX: number, clientY: number, clamped: boolean): Point | null {
    if (!this.layout) return null
    return this.fromView(this.pointIn(clientX, clientY), clamped) ?? null
  }

  /** A client point in the view's own (unzoomed) pixels. */
  pointIn (clientX: number, clientY: number): Point {
    const r = this.el.getBoundingClientRect()
    return { x: (clientX - r.left - this.pan.x) / this.zoom, y: (clientY - r.top - this.pan.y) / this.zoom }
  }

  /** Page viewport CSS pixels under a view point; undefined while no picture is laid out yet. */
  fromView (pt: Point, clamped: boolean): Point | null | undefined {
    if (!this.layout) return undefined
    return clamped ? containerToViewportClamped(pt, this.layout) : containerToViewport(pt, this.layout)
  }

  /** Container CSS pixels per viewport CSS pixel as drawn now (finger travel ÷ scale = page px). */
  get scale (): number { return (this.layout?.scale || 1) * this.zoom }

  /** What this viewer would like the host to stream (frame pixels it can actually show). */
  wantedSize (): Extract<PanelWireMessage, { t: 'size' }> {
    // Zoomed in, the picture needs more pixels to stay sharp (capped by the host at the page's own).
    const width = Math.round(this.el.clientWidth * this.zoom)
    const height = Math.round(this.el.clientHeight * this.zoom)
    return { t: 'size', width, height, dpr: window.devicePixelRatio || 1, whole: this.whole }
  }

  /**
   * The still this viewer would like (docs/panel.md "Sharp when zoomed"): the part of the
   * viewport on show, at the device pixels per CSS pixel it is shown at; none while the stream
   * already has that many.
   */
  wantedDetail (): Extract<PanelWireMessage, { t: 'detail' }> {
    const dpr = window.devicePixelRatio || 1
    // Device pixels of this screen per viewport CSS pixel, as the picture is shown now.
    const scale = this.layout ? dpr * this.scale : 0
    const frameScale = this.geom ? this.geom.imageWidth / this.geom.deviceWidth : 1
    const r = this.el.getBoundingClientRect()
    const a = this.toViewport(r.left, r.top, true)
    const b = this.toViewport(r.right, r.bottom, true)
    // Zoomed by the person or by the aim (a small widget drawn large): either can outrun the frames.
    const sharpEnough = scale < frameScale * DETAIL_MIN_GAIN
    this.detail.setActive(!sharpEnough && a !== null && b !== null)
    if (sharpEnough || !a || !b) return { t: 'detail', rect: null, scale }
    return { t: 'detail', rect: { x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y }, scale: Math.round(scale * 1000) / 1000 }
  }
}
