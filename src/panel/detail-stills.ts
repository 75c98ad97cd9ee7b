// The host's half of "sharp when zoomed" (docs/panel.md; the maths in core/detail.ts): a
// viewer that shows part of the viewport asks for a still of it; the host takes one with
// Page.captureScreenshot once the stream is quiet and sends it on that viewer's socket only.
//
// While a still is taken, Chromium's running screencast emits frames of the still's clip
// (docs/decisions.md "The stream follows what is shown"). Those must reach no viewer: the
// streamer asks `swallows()` about each frame, and when one was swallowed asks the screencast
// for a fresh frame afterwards, so a change drawn only into a swallowed frame is not lost.
import type { CDPSession } from 'puppeteer-core'
import type { FastifyBaseLogger } from 'fastify'
import { detailClip, isClipFrame, isViewportFrame, stillDueAt, type DetailRect } from '../core/detail.js'
import { encodeFrame, type FrameAim } from './frame-codec.js'

export interface StillTarget { offerStill (still: Uint8Array): void }

export interface StreamFrame {
  seq: number
  receivedAt: number
  meta: { deviceWidth: number, deviceHeight: number, pageScaleFactor: number, scrollOffsetX: number, scrollOffsetY: number }
}

export interface StillSource {
  session (): Promise<CDPSession>
  /** The newest frame of the viewport, if any. */
  last (): StreamFrame | undefined
  aim (): FrameAim
  /** A frame was swallowed: have the screencast send a fresh one. */
  refresh (): void
}

interface Ask { target: StillTarget, rect: DetailRect, scale: number, askedAt: number, pending: boolean }

/** How long the drawn size of a still is recognised on late clip frames. */
const CLIP_MEMORY_MS = 10_000
/** Swallowed frames come in a burst: refresh once it is over. */
const REFRESH_AFTER_MS = 100

export class DetailStills {
  readonly #source: StillSource
  readonly #quality: number
  readonly #log: FastifyBaseLogger
  readonly #now: () => number
  readonly #asks = new Map<object, Ask>()
  #lastFrameAt = 0
  /** Stills are budgeted per tab, not per viewer: more viewers (view links too) get no more. */
  #lastTakenAt = -Infinity
  #taking: { width: number, height: number } | undefined
  /** Drawn sizes of recent stills, to know their clip frames when they come late. */
  #drawn: Array<{ width: number, height: number, until: number }> = []
  #refresh?: NodeJS.Timeout
  #swallowed = 0
  #timer?: NodeJS.Timeout
  #disposed = false
  taken = 0
  /** Frames of a still's clip kept from every viewer, over this stream's life. */
  swallowedTotal = 0

  constructor (source: StillSource, opts: { quality: number, log: FastifyBaseLogger, now: () => number }) {
    this.#source = source
    this.#quality = opts.quality
    this.#log = opts.log
    this.#now = opts.now
  }

  /** A viewer's wish; a null rect withdraws it. Each ask is answered by at most one still. */
  ask (target: StillTarget, rect: DetailRect | null, scale: number): void {
    if (!rect) { this.#asks.delete(target); return }
    const before = this.#asks.get(target)
    const askedAt = before?.pending === true ? before.askedAt : this.#now()
    this.#asks.set(target, { target, rect, scale, askedAt, pending: true })
    this.#schedule()
  }

  forget (target: object): void {
    this.#asks.delete(target)
  }

  /**
   * A frame from the screencast: true when it is a still's clip, which no viewer may see. During
   * a capture, anything not of the viewport's size is one; afterwards (a loaded browser or event
   * loop can deliver them seconds late), anything of the drawn size of a recent still.
   */
  swallows (meta: StreamFrame['meta']): boolean {
    const now = this.#now()
    const taking = this.#taking
    const last = taking ? undefined : this.#viewport()
    const clip = taking ? !isViewportFrame(meta, taking) : isClipFrame(meta, this.#drawn, now) && !(last !== undefined && isViewportFrame(meta, last))
    if (!clip) {
      this.#lastFrameAt = now
      this.#schedule()
      return false
    }
    this.#swallowed++
    this.swallowedTotal++
    // A late one: the frame after it is owed now.
    if (!this.#taking) this.#refreshSoon()
    return true
  }

  /** A capture is under way (Chromium owes its answer). */
  get capturing (): boolean { return this.#taking !== undefined }

  dispose (): void {
    this.#disposed = true
    clearTimeout(this.#timer)
    clearTimeout(this.#refresh)
    this.#asks.clear()
  }

  #viewport (): { width: number, height: number } | undefined {
    const last = this.#source.last()
    return last ? { width: last.meta.deviceWidth, height: last.meta.deviceHeight } : undefined
  }

  #next (): Ask | undefined {
    let best: Ask | undefined
    for (const ask of this.#asks.values()) {
      // Ties go to the longest waiting: a viewer asking over and over cannot starve the others.
      if (ask.pending && (!best || this.#dueAt(ask) < this.#dueAt(best) || (this.#dueAt(ask) === this.#dueAt(best) && ask.askedAt < best.askedAt))) best = ask
    }
    return best
  }

  #dueAt (ask: Ask): number {
    return stillDueAt({ lastFrameAt: this.#lastFrameAt, askedAt: ask.askedAt, lastTakenAt: this.#lastTakenAt })
  }

  #schedule (): void {
    if (this.#disposed || this.#taking) return
    const next = this.#next()
    clearTimeout(this.#timer)
    if (!next) return
    this.#timer = setTimeout(() => { void this.#take() }, Math.max(0, this.#dueAt(next) - this.#now()))
    this.#timer.unref()
  }

  async #take (): Promise<void> {
    const ask = this.#next()
    const last = this.#source.last()
    if (!ask || !last || this.#taking || this.#disposed) return
    if (this.#dueAt(ask) > this.#now()) { this.#schedule(); return }
    const target = ask.target
    ask.pending = false
    this.#lastTakenAt = this.#now()
    const viewport = { width: last.meta.deviceWidth, height: last.meta.deviceHeight }
    const clip = detailClip(ask.rect, ask.scale, viewport)
    if (!clip) { this.#schedule(); return }
    this.#taking = viewport
    this.#drawn = [...this.#drawn.filter((d) => d.until > this.#now()), { width: Math.round(clip.width * clip.scale), height: Math.round(clip.height * clip.scale), until: this.#now() + CLIP_MEMORY_MS }]
    try {
      const session = await this.#source.session()
      // The clip is in document CSS px: the frame's scroll offset is added.
      // Not bounded by a timeout: a page blocked by a JavaScript dialog answers only after the
      // dialog, and until then Chromium still owes the capture, and its clip frames with it.
      const shot = await session.send('Page.captureScreenshot', {
        format: 'jpeg',
        quality: this.#quality,
        clip: { x: clip.x + last.meta.scrollOffsetX, y: clip.y + last.meta.scrollOffsetY, width: clip.width, height: clip.height, scale: clip.scale },
        captureBeyondViewport: false,
        optimizeForSpeed: true
      }) as { data: string }
      this.taken++
      // A viewer that withdrew its ask meanwhile (zoomed out, left) gets nothing.
      if (this.#asks.has(target)) {
        target.offerStill(encodeFrame({
          seq: last.seq,
          deviceWidth: viewport.width,
          deviceHeight: viewport.height,
          pageScaleFactor: last.meta.pageScaleFactor,
          scrollX: last.meta.scrollOffsetX,
          scrollY: last.meta.scrollOffsetY,
          aim: this.#source.aim(),
          receivedAt: last.receivedAt,
          detail: clip
        }, Buffer.from(shot.data, 'base64')))
      }
    } catch (err) {
      this.#log.debug({ err }, 'panel still failed')
    } finally {
      this.#taking = undefined
      if (this.#swallowed > 0) this.#refreshSoon()
      this.#schedule()
    }
  }

  /** Frames were swallowed: once they stop coming, have the screencast send a fresh one. */
  #refreshSoon (): void {
    clearTimeout(this.#refresh)
    this.#refresh = setTimeout(() => {
      if (this.#swallowed === 0 || this.#disposed || this.#taking) return
      this.#swallowed = 0
      this.#source.refresh()
    }, REFRESH_AFTER_MS)
    this.#refresh.unref()
  }
}
