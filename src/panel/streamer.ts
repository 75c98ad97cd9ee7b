// One CDP screencast per tab, shared by every viewer (docs/spec.md section 10 "Stream").
//
// Frames are acked the moment they reach Node (delaying the ack costs frame rate,
// docs/panel.md "CDP facts" 2), decoded from base64 once, framed once, and offered to each
// viewer's FrameSink, which keeps only the newest. The last frame is cached so a
// viewer that connects to a settled page (which sends no frames) is painted at once.
// The frame size is the largest any viewer can show; nothing streams without a viewer
// except briefly after a live check that expects one.
//
// A viewer whose link drops most of those frames is moved to a second, lean screencast of
// smaller frames (docs/panel.md "A slow viewer"); the others never notice.
import type { CDPSession, Page } from 'puppeteer-core'
import type { FastifyBaseLogger } from 'fastify'
import type { DetailRect } from '../core/detail.js'
import { initialTier, leanSize, LEAN_QUALITY, nextTier, TIER_WINDOW_MS, type TierState } from '../core/stream-tier.js'
import { DetailStills, type StillTarget } from './detail-stills.js'
import type { FrameAim } from './frame-codec.js'
import { LeanStream } from './lean-stream.js'
import { screencastSession, StepChain, wallClock, wireFrame, type ReceivedFrame, type ScreencastSize } from './screencast.js'

export type { ScreencastSize } from './screencast.js'
/** A viewer's end of the stream; a sink that counts what it sent and skipped can be moved to the lean stream. */
export interface FrameTarget { offer (frame: Uint8Array): void, readonly sent?: number, readonly skipped?: number }

/** A viewer's tier and the sink counts at the start of its measuring window. */
interface Delivery { state: TierState, sent: number, skipped: number, at: number }


export interface StreamerOptions {
  quality: number
  log: FastifyBaseLogger
  /** Before any viewer said how big it is: the viewport itself. */
  provisional: ScreencastSize
}

const FRESH_MS = 1_500
const RESIZE_DEBOUNCE_MS = 120

export class TabStreamer {
  readonly #page: Page
  readonly #opts: StreamerOptions
  readonly #targets = new Map<FrameTarget, ScreencastSize | undefined>()
  readonly #waiters = new Set<() => void>()
  #session?: Promise<CDPSession>
  #running?: ScreencastSize
  #last?: ReceivedFrame
  #encoded?: Uint8Array
  #aim: FrameAim = { kind: 'viewport' }
  readonly #steps: StepChain
  #lingerUntil = 0
  #linger?: NodeJS.Timeout
  #resize?: NodeJS.Timeout
  #disposed = false
  readonly #stills: DetailStills
  readonly #lean: LeanStream
  readonly #deliveries = new Map<FrameTarget, Delivery>()
  #tierTimer?: NodeJS.Timeout
  frames = 0

  constructor (page: Page, opts: StreamerOptions) {
    this.#page = page
    this.#opts = opts
    this.#steps = new StepChain(opts.log, 'panel screencast')
    this.#stills = new DetailStills({
      session: () => this.#sessionOf(),
      last: () => this.#last,
      aim: () => this.#aim,
      refresh: () => { const size = this.#running; if (size) this.#enqueue(() => this.#start(size, true)) }
    }, { quality: opts.quality, log: opts.log, now: wallClock })
    this.#lean = new LeanStream(page, {
      quality: Math.min(LEAN_QUALITY, opts.quality),
      log: opts.log,
      aim: () => this.#aim,
      deliver: (frame) => { for (const target of this.#onLean()) target.offer(frame) }
    })
  }

  /** Starts streaming to a viewer; it gets the cached frame at once if there is one. */
  add (target: FrameTarget): void {
    this.#targets.set(target, undefined)
    this.#watchDelivery(target)
    this.#clearLinger()
    const frame = this.#frame()
    if (frame) target.offer(frame)
  }

  remove (target: FrameTarget): void {
    if (!this.#targets.delete(target)) return
    this.#stills.forget(target)
    const wasLean = this.#deliveries.get(target)?.state.tier === 'lean'
    this.#deliveries.delete(target)
    if (wasLean) this.#steerLean()
    if (this.#deliveries.size === 0) { clearInterval(this.#tierTimer); this.#tierTimer = undefined }
    if (this.#targets.size === 0) this.#enqueue(() => this.#stop())
    else this.#scheduleResize()
  }

  /** A viewer told us how many frame pixels it can show. Nothing starts before the first size. */
  want (target: FrameTarget, size: ScreencastSize): void {
    if (!this.#targets.has(target)) return
    this.#targets.set(target, size)
    if (!this.#running) this.#enqueue(() => this.#start(this.#desired()))
    else this.#scheduleResize()
    if (this.#deliveries.get(target)?.state.tier === 'lean') this.#steerLean()
  }

  /** Which stream each viewer is on, and the lean stream's size while it runs. */
  get tiers (): { lean: number, full: number, leanSize?: ScreencastSize, leanFrames: number } {
    const lean = this.#onLean().length
    return { lean, full: this.#targets.size - lean, leanSize: this.#lean.running, leanFrames: this.#lean.frames }
  }

  /** A viewer showing part of the viewport asks for a sharp still of it (null: no longer). */
  detail (target: FrameTarget & StillTarget, rect: DetailRect | null, scale: number): void {
    if (this.#targets.has(target)) this.#stills.ask(target, rect, scale)
  }

  get stills (): { taken: number, swallowed: number, capturing: boolean } {
    return { taken: this.#stills.taken, swallowed: this.#stills.swallowedTotal, capturing: this.#stills.capturing }
  }

  setAim (aim: FrameAim): void {
    if (JSON.stringify(aim) === JSON.stringify(this.#aim)) return
    this.#aim = aim
    this.#encoded = undefined
    this.#lean.reframe()
    this.#broadcast()
    const lean = this.#lean.frame()
    if (lean) for (const target of this.#onLean()) target.offer(lean)
  }

  get aim (): FrameAim { return this.#aim }
  get running (): ScreencastSize | undefined { return this.#running }
  get device (): { width: number, height: number } | undefined {
    return this.#last ? { width: this.#last.meta.deviceWidth, height: this.#last.meta.deviceHeight } : undefined
  }

  /**
   * The live check's "the screencast can deliver a frame", answered by this stream: a
   * recent frame, or a fresh one forced by (re)starting. With `keep` the stream stays up
   * for a viewer about to connect; otherwise it stops again unless someone watches.
   */
  async proveFrame (keep: boolean, timeoutMs: number): Promise<void> {
    const fresh = this.#running !== undefined && this.#last !== undefined && wallClock() - this.#last.receivedAt < FRESH_MS
    if (!fresh) {
      const next = this.#nextFrame(timeoutMs)
      this.#enqueue(() => this.#start(this.#running ?? this.#desired(), true))
      await next
    }
    if (this.#targets.size === 0) this.#armLinger(keep ? 10_000 : 500)
  }

  async dispose (): Promise<void> {
    this.#disposed = true
    this.#stills.dispose()
    this.#clearLinger()
    clearTimeout(this.#resize)
    clearInterval(this.#tierTimer)
    this.#targets.clear()
    this.#deliveries.clear()
    this.#enqueue(() => this.#stop())
    await Promise.all([this.#steps.idle, this.#lean.dispose()])
    const session = await this.#session?.catch(() => undefined)
    await session?.detach().catch(() => undefined)
  }

  /** The full stream's size: what its viewers can show (a lean viewer's zoom costs the others nothing). */
  #desired (): ScreencastSize {
    const onFull = [...this.#targets].filter(([target]) => this.#deliveries.get(target)?.state.tier !== 'lean')
    return largest((onFull.length > 0 ? onFull : [...this.#targets]).map(([, size]) => size)) ?? this.#opts.provisional
  }

  #scheduleResize (): void {
    clearTimeout(this.#resize)
    this.#resize = setTimeout(() => {
      const want = this.#desired()
      const now = this.#running
      if (now && (differs(want.maxWidth, now.maxWidth) || differs(want.maxHeight, now.maxHeight))) this.#enqueue(() => this.#start(want, true))
    }, RESIZE_DEBOUNCE_MS)
    this.#resize.unref()
  }

  #enqueue (step: () => Promise<void>): void {
    this.#steps.enqueue(step)
  }

  async #sessionOf (): Promise<CDPSession> {
    this.#session ??= screencastSession(this.#page, (frame) => this.#onFrame(frame))
    return await this.#session
  }

  async #start (size: ScreencastSize, restart = false): Promise<void> {
    if (this.#disposed) return
    if (this.#running && !restart) return
    const session = await this.#sessionOf()
    if (this.#running) await session.send('Page.stopScreencast').catch(() => undefined)
    else await session.send('Page.bringToFront').catch(() => undefined)
    this.#running = size
    await session.send('Page.startScreencast', { format: 'jpeg', quality: this.#opts.quality, ...size, everyNthFrame: 1 })
  }

  async #stop (): Promise<void> {
    if (!this.#running || this.#targets.size > 0 || wallClock() < this.#lingerUntil) return
    this.#running = undefined
    const session = await this.#session?.catch(() => undefined)
    await session?.send('Page.stopScreencast').catch(() => undefined)
  }

  #onFrame (received: ReceivedFrame): void {
    if (!this.#running) return
    // A frame of a still's clip, not of the viewport: no viewer may see it.
    if (this.#stills.swallows(received.meta)) return
    this.#last = received
    this.#encoded = undefined
    this.frames++
    this.#broadcast()
    for (const wake of [...this.#waiters]) wake()
  }

  #frame (): Uint8Array | undefined {
    const last = this.#last
    if (!last) return undefined
    this.#encoded ??= wireFrame(last, this.#aim)
    return this.#encoded
  }

  #broadcast (): void {
    const frame = this.#frame()
    if (!frame) return
    // A viewer moved to the lean stream keeps the full one until the lean one has a frame.
    const leanReady = this.#lean.frame() !== undefined
    for (const target of this.#targets.keys()) {
      if (leanReady && this.#deliveries.get(target)?.state.tier === 'lean') continue
      target.offer(frame)
    }
  }

  #onLean (): FrameTarget[] {
    return [...this.#deliveries].filter(([, d]) => d.state.tier === 'lean').map(([target]) => target)
  }

  /** Sinks that count what they send are measured each window; others stay on the full stream. */
  #watchDelivery (target: FrameTarget): void {
    if (target.sent === undefined || target.skipped === undefined) return
    const now = wallClock()
    this.#deliveries.set(target, { state: initialTier(now), sent: target.sent, skipped: target.skipped, at: now })
    if (this.#tierTimer) return
    this.#tierTimer = setInterval(() => this.#measureDeliveries(), TIER_WINDOW_MS)
    this.#tierTimer.unref()
  }

  #measureDeliveries (): void {
    const now = wallClock()
    let moved = false
    const backToFull: FrameTarget[] = []
    for (const [target, d] of this.#deliveries) {
      const sent = target.sent ?? 0
      const skipped = target.skipped ?? 0
      const window = { sent: sent - d.sent, skipped: skipped - d.skipped, ms: now - d.at }
      const state = nextTier(d.state, window, now)
      if (state.tier !== d.state.tier) {
        moved = true
        if (state.tier === 'full') backToFull.push(target)
        this.#opts.log.info({ tier: state.tier, fps: Math.round(window.sent * 1000 / window.ms), skipped: window.skipped, retry_ms: state.retryMs }, state.tier === 'lean' ? 'panel viewer moved to the lean stream' : 'panel viewer tries the full stream again')
      }
      this.#deliveries.set(target, { state, sent, skipped, at: now })
    }
    if (moved) this.#steerLean()
    // A viewer back on the full stream is painted at once, not at the page's next change.
    const frame = this.#frame()
    if (frame) for (const target of backToFull) target.offer(frame)
  }

  /** Runs the lean stream at the size its largest viewer needs, or stops it when nobody is on it. */
  #steerLean (): void {
    this.#lean.want(largest(this.#onLean().map((target) => leanSize(this.#targets.get(target) ?? this.#opts.provisional))))
    if (this.#running) this.#scheduleResize()
  }

  #nextFrame (timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const done = (): void => { clearTimeout(timer); this.#waiters.delete(done); resolve() }
      const timer = setTimeout(() => {
        this.#waiters.delete(done)
        reject(new Error(`no screencast frame within ${timeoutMs} ms`))
      }, timeoutMs)
      this.#waiters.add(done)
    })
  }

  #armLinger (ms: number): void {
    const until = wallClock() + ms
    if (until <= this.#lingerUntil) return
    this.#lingerUntil = until
    clearTimeout(this.#linger)
    this.#linger = setTimeout(() => this.#enqueue(() => this.#stop()), ms + 10)
    this.#linger.unref()
  }

  #clearLinger (): void {
    clearTimeout(this.#linger)
    this.#lingerUntil = 0
  }
}

function largest (sizes: Array<ScreencastSize | undefined>): ScreencastSize | undefined {
  let best: ScreencastSize | undefined
  for (const size of sizes) {
    if (!size) continue
    best = best ? { maxWidth: Math.max(best.maxWidth, size.maxWidth), maxHeight: Math.max(best.maxHeight, size.maxHeight) } : size
  }
  return best
}

/** Restart only for a real change in size: each restart costs a frame interval. */
function differs (want: number, have: number): boolean {
  return Math.abs(want - have) > Math.max(16, have * 0.1)
}
