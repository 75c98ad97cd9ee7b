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
/** …once the picture has been quiet this long. */
const REASK_QUIET_MS = 150

interface Shown {
  clip: DetailClip
  scrollX: number
  scrollY: number
  device: { width: number, height: number }
  /** The still's part of the frame, in frame pixels, and how it looked in the last frame. */
  region: Rect
  prev: Uint8ClampedArray
  stale: number
}

export class DetailLayer {
  readonly canvas: HTMLCanvasElement
  readonly #ctx: CanvasRenderingContext2D
  readonly #stats: PanelStats
  /** The newest frame, kept while zoomed: a still arriving next refines it. */
  readonly #copy = new OffscreenCanvas(1, 1)
  readonly #copyCtx = this.#copy.getContext('2d', { willReadFrequently: true })!
  #copySeq = -1
  #copyScroll = { x: 0, y: 0 }
  #shown: Shown | null = null
  #active = false
  #reask = 0
  /** Asks the host for a still of what is on show now (set by the panel). */
  onStale: () => void = () => {}

  constructor (canvas: HTMLCanvasElement, stats: PanelStats) {
    this.canvas = canvas
    this.#ctx = canvas.getContext('2d')!
    this.#stats = stats
  }

  /** Zoomed in past what the stream can show sharply (true), or not (false: drop the still). */
  setActive (active: boolean): void {
    this.#active = active
    if (!active) this.clear()
  }

  clear (): void {
    this.#shown = null
    this.canvas.hidden = true
    clearTimeout(this.#reask)
  }

  /** Every frame, before it is drawn (the bitmap is still whole). */
  beforeFrame (header: FrameHeader, bitmap: ImageBitmap): void {
    if (!this.#active) return
    this.#copy.width = bitmap.width
    this.#copy.height = bitmap.height
    this.#copyCtx.drawImage(bitmap, 0, 0)
    this.#copySeq = header.seq
    this.#copyScroll = { x: header.scrollX, y: header.scrollY }
    const shown = this.#shown
    if (!shown) return
    if (header.scrollX !== shown.scrollX || header.scrollY !== shown.scrollY || header.deviceWidth !== shown.device.width || header.deviceHeight !== shown.device.height) {
      // The page scrolled (or resized) under the still: all of it is out of date.
      this.clear()
      this.#askSoon()
      return
    }
    const { region } = shown
    const next = this.#copyCtx.getImageData(region.x, region.y, region.width, region.height).data
    const tiles = changedTiles(shown.prev, next, region.width, region.height)
    shown.prev = next
    if (tiles.length === 0) return
    const k = this.canvas.width / region.width
    for (const tile of tiles) this.#ctx.clearRect(Math.floor(tile.x * k), Math.floor(tile.y * k), Math.ceil(tile.width * k) + 1, Math.ceil(tile.height * k) + 1)
    shown.stale += tiles.reduce((sum, tile) => sum + tile.width * tile.height, 0)
    this.#stats.still_stale_share = Math.min(1, shown.stale / (region.width * region.height))
    if (this.#stats.still_stale_share >= STALE_SHARE) this.#askSoon()
  }

  /** A still from the host; false when it refines a frame other than the one on show. */
  show (header: FrameHeader, bitmap: ImageBitmap): boolean {
    const clip = header.detail
    if (!clip || !this.#active || header.seq !== this.#copySeq || header.scrollX !== this.#copyScroll.x || header.scrollY !== this.#copyScroll.y) {
      bitmap.close()
      this.#stats.stills_dropped++
      if (this.#active) this.#askSoon()
      return false
    }
    // The still's part of the frame it refines, in that frame's pixels.
    const k = this.#copy.width / header.deviceWidth
    const region = {
      x: Math.floor(clip.x * k),
      y: Math.floor(clip.y * k),
      width: Math.max(1, Math.min(this.#copy.width, Math.ceil((clip.x + clip.width) * k)) - Math.floor(clip.x * k)),
      height: Math.max(1, Math.min(this.#copy.height, Math.ceil((clip.y + clip.height) * k)) - Math.floor(clip.y * k))
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
      region,
      prev: this.#copyCtx.getImageData(region.x, region.y, region.width, region.height).data,
      stale: 0
    }
    this.canvas.hidden = false
    this.#stats.stills_drawn++
    this.#stats.still = { ...clip, imageWidth: this.canvas.width, imageHeight: this.canvas.height }
    this.#stats.still_stale_share = 0
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

  #askSoon (): void {
    clearTimeout(this.#reask)
    this.#reask = window.setTimeout(() => { if (this.#active) this.onStale() }, REASK_QUIET_MS)
  }
}
