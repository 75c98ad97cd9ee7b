// Sharp when zoomed (docs/panel.md): a still of the part of the page on show, drawn at the
// viewer's own pixel density, laid over the stream inside the zoomed picture. Where a newer
// frame differs from the frame the still refined, that square of the still is cleared and the
// stream shows through; once enough of it is cleared the panel asks for a new still.
import { changedTiles, type DetailClip } from '../core/detail.js'
import type { Rect } from '../core/coords.js'
import type { FrameHeader } from '../panel/frame-codec.js'
import type { PanelStats } from './stats.js'

/** Stale squares may cover this share of a still before the panel asks for a new one. */
const STALE_SHARE = 0.01
/**
 * …this long after they did (the host then waits for a quiet moment of its own). A still that
 * went stale within a second doubles the wait, up to a few seconds: on a page that never stops
 * moving, stills would only cost frames (each one interrupts the stream for a frame or two).
 */
const REASK_MS = 150
const REASK_MAX_MS = 4_000
const FRESH_FOR_MS = 1_000

/** Frames kept to compare a late still against: each is a full frame of GPU memory. */
const KEPT_FRAMES = 3

interface Kept { canvas: OffscreenCanvas | HTMLCanvasElement, ctx: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D, seq: number, scrollX: number, scrollY: number }

function kept (): Kept {
  // Safari before 16.4 has no OffscreenCanvas: a <canvas> that is never attached does the same job.
  const canvas = typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(1, 1) : Object.assign(document.createElement('canvas'), { width: 1, height: 1 })
  const ctx = canvas.getContext('2d', { willReadFrequently: true }) as Kept['ctx']
  return { canvas, ctx, seq: -1, scrollX: 0, scrollY: 0 }
}

interface Shown {
  clip: DetailClip
  scrollX: number
  scrollY: number
  device: { width: number, height: number }
  /** The pixel size of the frame it refines: a stream resized since compares other pixels. */
  frame: { width: number, height: number }
  /** The still's part of the frame, in frame pixels, and how it looked in the last frame. */
  region: Rect
  prev: Uint8ClampedArray
  stale: number
}

export class DetailLayer {
  readonly canvas: HTMLCanvasElement
  readonly #ctx: CanvasRenderingContext2D
  readonly #stats: PanelStats
  /**
   * The last few frames, kept while zoomed: a still refines the frame that was newest when the
   * host took it, and on a busy page a newer one may already be drawn when it arrives.
   */
  readonly #recent: Kept[] = Array.from({ length: KEPT_FRAMES }, () => kept())
  #newest: Kept | null = null
  /**
   * Unzoomed, the newest frame's JPEG only (a reference, no copy): copying every frame of a
   * viewer that never zooms would cost it a full-frame copy per frame. A zoom decodes it again.
   */
  #latest: { header: FrameHeader, jpeg: Uint8Array } | null = null
  #seeding: Promise<void> = Promise.resolve()
  #shown: Shown | null = null
  #active = false
  #reask = 0
  #reaskDelay = REASK_MS
  #shownAt = 0
  /** Asks the host for a still of what is on show now (set by the panel). */
  onStale: () => void = () => {}

  constructor (canvas: HTMLCanvasElement, stats: PanelStats) {
    this.canvas = canvas
    this.#ctx = canvas.getContext('2d')!
    this.#stats = stats
  }

  /** Zoomed in past what the stream can show sharply (true), or not (false: drop the still). */
  setActive (active: boolean): void {
    if (active === this.#active) return
    this.#active = active
    if (active) { this.#seeding = this.#seed(); return }
    this.clear()
    // Let go of the kept frames' memory until the next zoom.
    this.#newest = null
    for (const f of this.#recent) {
      f.seq = -1
      f.canvas.width = 1
      f.canvas.height = 1
    }
  }

  /** Settled once the frame on show when the zoom began is kept (a still may refine it). */
  get seeding (): Promise<void> { return this.#seeding }

  async #seed (): Promise<void> {
    const latest = this.#latest
    if (!latest) return
    const bitmap = await createImageBitmap(new Blob([latest.jpeg as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' })).catch(() => null)
    if (!bitmap) return
    // Frames that came meanwhile were kept as they came; this one only if it is still the newest.
    if (this.#active && (this.#newest?.seq ?? -1) < latest.header.seq) this.#keep(latest.header, bitmap)
    bitmap.close()
  }

  #keep (header: FrameHeader, bitmap: ImageBitmap): Kept {
    // Reuse the oldest kept frame for this one.
    const slot = this.#recent.reduce((a, b) => (a.seq <= b.seq ? a : b))
    slot.canvas.width = bitmap.width
    slot.canvas.height = bitmap.height
    slot.ctx.drawImage(bitmap, 0, 0)
    Object.assign(slot, { seq: header.seq, scrollX: header.scrollX, scrollY: header.scrollY })
    this.#newest = slot
    return slot
  }

  /** Another tab is on show: neither the still nor the kept frames are pictures of it. */
  forgetFrames (): void {
    this.clear()
    for (const f of this.#recent) f.seq = -1
    this.#newest = null
    this.#latest = null
  }

  clear (): void {
    this.#shown = null
    this.canvas.hidden = true
    clearTimeout(this.#reask)
    this.#reask = 0
  }

  /**
   * Every frame, before it is drawn (the bitmap is still whole), with the JPEG it came from.
   * Zoomed, the frame is kept to compare stills against; unzoomed, only its JPEG is remembered,
   * so that the first still after a zoom, of a page that draws nothing new, has its frame.
   */
  beforeFrame (header: FrameHeader, bitmap: ImageBitmap, jpeg: Uint8Array): void {
    this.#latest = { header, jpeg }
    if (!this.#active) return
    const slot = this.#keep(header, bitmap)
    const shown = this.#shown
    if (!shown) return
    if (header.scrollX !== shown.scrollX || header.scrollY !== shown.scrollY || header.deviceWidth !== shown.device.width || header.deviceHeight !== shown.device.height ||
      bitmap.width !== shown.frame.width || bitmap.height !== shown.frame.height) {
      // The page scrolled or resized under the still, or the stream changed size: start again.
      this.clear()
      this.#askSoon()
      return
    }
    const { region } = shown
    const next = slot.ctx.getImageData(region.x, region.y, region.width, region.height).data
    this.#clearChanged(shown, next)
  }

  /** Clears the squares of the still where `next` (the region as now drawn) differs from before. */
  #clearChanged (shown: Shown, next: Uint8ClampedArray): void {
    const { region } = shown
    const tiles = changedTiles(shown.prev, next, region.width, region.height)
    shown.prev = next
    if (tiles.length === 0) return
    const k = this.canvas.width / region.width
    for (const tile of tiles) this.#ctx.clearRect(Math.floor(tile.x * k), Math.floor(tile.y * k), Math.ceil(tile.width * k) + 1, Math.ceil(tile.height * k) + 1)
    shown.stale += tiles.reduce((sum, tile) => sum + tile.width * tile.height, 0)
    const share = Math.min(1, shown.stale / (region.width * region.height))
    this.#stats.still_stale_share = share
    if (share >= STALE_SHARE) this.#askSoon()
  }

  /** A still from the host; false when the frame it refines is no longer kept. */
  show (header: FrameHeader, bitmap: ImageBitmap): boolean {
    const clip = header.detail
    const base = this.#recent.find((f) => f.seq === header.seq)
    const newest = this.#newest
    if (!clip || !this.#active || !base || !newest || base.scrollX !== newest.scrollX || base.scrollY !== newest.scrollY || base.canvas.width !== newest.canvas.width) {
      bitmap.close()
      this.#stats.stills_dropped++
      // A dropped still is one that went stale at once: the next ask backs off as for one.
      this.#shownAt = performance.now()
      if (this.#active) this.#askSoon()
      return false
    }
    // The still's part of the frame it refines, in that frame's pixels.
    const k = base.canvas.width / header.deviceWidth
    const region = {
      x: Math.floor(clip.x * k),
      y: Math.floor(clip.y * k),
      width: Math.max(1, Math.min(base.canvas.width, Math.ceil((clip.x + clip.width) * k)) - Math.floor(clip.x * k)),
      height: Math.max(1, Math.min(base.canvas.height, Math.ceil((clip.y + clip.height) * k)) - Math.floor(clip.y * k))
    }
    this.canvas.width = bitmap.width
    this.canvas.height = bitmap.height
    this.#ctx.drawImage(bitmap, 0, 0)
    bitmap.close()
    this.#shown = {
      clip,
      scrollX: header.scrollX,
      scrollY: header.scrollY,
      device: { width: header.deviceWidth, height: header.deviceHeight },
      frame: { width: base.canvas.width, height: base.canvas.height },
      region,
      prev: base.ctx.getImageData(region.x, region.y, region.width, region.height).data,
      stale: 0
    }
    this.canvas.hidden = false
    this.#stats.stills_drawn++
    this.#shownAt = performance.now()
    this.#stats.still = { ...clip, imageWidth: this.canvas.width, imageHeight: this.canvas.height, scrollY: header.scrollY }
    this.#stats.still_stale_share = 0
    // Frames drawn since the one it refines: what they changed shows through at once.
    if (newest !== base) this.#clearChanged(this.#shown, newest.ctx.getImageData(region.x, region.y, region.width, region.height).data)
    return true
  }

  /**
   * Places the still over the frame: `frame` is where the main canvas (the whole viewport of
   * `deviceWidth` CSS px) sits, in the same coordinates as this canvas.
   */
  place (frame: Rect, deviceWidth: number): void {
    const shown = this.#shown
    if (!shown || !(deviceWidth > 0)) return
    const k = frame.width / deviceWidth
    Object.assign(this.canvas.style, {
      left: `${frame.x + shown.clip.x * k}px`,
      top: `${frame.y + shown.clip.y * k}px`,
      width: `${shown.clip.width * k}px`,
      height: `${shown.clip.height * k}px`
    })
  }

  /** The person zoomed or panned: what they look at now gets a still soon, whatever came before. */
  moved (): void {
    this.#reaskDelay = REASK_MS
  }

  /** One ask per stale still: a page that never stops changing must not postpone it forever. */
  #askSoon (): void {
    if (this.#reask) return
    const quickly = this.#shownAt > 0 && performance.now() - this.#shownAt < FRESH_FOR_MS
    this.#reaskDelay = quickly ? Math.min(REASK_MAX_MS, this.#reaskDelay * 2) : REASK_MS
    this.#reask = window.setTimeout(() => { this.#reask = 0; if (this.#active) this.onStale() }, this.#reaskDelay)
  }
}
