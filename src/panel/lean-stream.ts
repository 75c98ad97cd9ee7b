// The second, smaller screencast of a tab, for viewers whose link cannot carry the full one
// (docs/panel.md "A slow viewer"). Chromium runs one screencast per DevTools session, so this
// has a session of its own; it runs only while some viewer is on it, at the size the largest
// of them needs, and its frames are numbered and framed like the full stream's.
import type { CDPSession, Page } from 'puppeteer-core'
import type { FastifyBaseLogger } from 'fastify'
import { encodeFrame, type FrameAim } from './frame-codec.js'
import { nextFrameSeq, wallClock, type ScreencastFrameEvent, type ScreencastSize } from './screencast.js'

export interface LeanStreamOptions {
  quality: number
  log: FastifyBaseLogger
  /** The aim the full stream applies now: both streams' frames say the same. */
  aim: () => FrameAim
  /** A new lean frame, framed for the wire. */
  deliver: (frame: Uint8Array) => void
}

export class LeanStream {
  readonly #page: Page
  readonly #opts: LeanStreamOptions
  #session?: Promise<CDPSession>
  #running?: ScreencastSize
  #last?: { jpeg: Buffer, meta: ScreencastFrameEvent['metadata'], receivedAt: number, seq: number }
  #encoded?: Uint8Array
  #chain: Promise<void> = Promise.resolve()
  #disposed = false
  frames = 0

  constructor (page: Page, opts: LeanStreamOptions) {
    this.#page = page
    this.#opts = opts
  }

  get running (): ScreencastSize | undefined { return this.#running }

  /** Streams at `size`, or stops with undefined (nobody is on the lean stream). */
  want (size: ScreencastSize | undefined): void {
    this.#enqueue(async () => {
      if (this.#disposed) return
      if (!size) return await this.#stop()
      const now = this.#running
      if (now && now.maxWidth === size.maxWidth && now.maxHeight === size.maxHeight) return
      const session = await this.#sessionOf()
      if (now) await session.send('Page.stopScreencast').catch(() => undefined)
      this.#running = size
      await session.send('Page.startScreencast', { format: 'jpeg', quality: this.#opts.quality, ...size, everyNthFrame: 1 })
    })
  }

  /** The newest lean frame as the wire carries it, or undefined before the first. */
  frame (): Uint8Array | undefined {
    const last = this.#last
    if (!last || !this.#running) return undefined
    this.#encoded ??= encodeFrame({
      seq: last.seq,
      deviceWidth: last.meta.deviceWidth,
      deviceHeight: last.meta.deviceHeight,
      pageScaleFactor: last.meta.pageScaleFactor,
      scrollX: last.meta.scrollOffsetX,
      scrollY: last.meta.scrollOffsetY,
      aim: this.#opts.aim(),
      receivedAt: last.receivedAt
    }, last.jpeg)
    return this.#encoded
  }

  /** The aim changed: the next frame handed out is framed anew. */
  reframe (): void {
    this.#encoded = undefined
  }

  async dispose (): Promise<void> {
    this.#disposed = true
    this.#enqueue(() => this.#stop())
    await this.#chain
    const session = await this.#session?.catch(() => undefined)
    await session?.detach().catch(() => undefined)
  }

  async #stop (): Promise<void> {
    if (!this.#running) return
    this.#running = undefined
    this.#last = undefined
    this.#encoded = undefined
    const session = await this.#session?.catch(() => undefined)
    await session?.send('Page.stopScreencast').catch(() => undefined)
  }

  #enqueue (step: () => Promise<void>): void {
    this.#chain = this.#chain.then(step).catch((err: unknown) => {
      this.#opts.log.warn({ err }, 'panel lean screencast step failed')
    })
  }

  async #sessionOf (): Promise<CDPSession> {
    this.#session ??= this.#page.createCDPSession().then((session) => {
      session.on('Page.screencastFrame', (ev: ScreencastFrameEvent) => this.#onFrame(session, ev))
      return session
    })
    return await this.#session
  }

  #onFrame (session: CDPSession, ev: ScreencastFrameEvent): void {
    session.send('Page.screencastFrameAck', { sessionId: ev.sessionId }).catch(() => undefined)
    if (!this.#running) return
    this.#last = { jpeg: Buffer.from(ev.data, 'base64'), meta: ev.metadata, receivedAt: wallClock(), seq: nextFrameSeq() }
    this.#encoded = undefined
    this.frames++
    const frame = this.frame()
    if (frame) this.#opts.deliver(frame)
  }
}
