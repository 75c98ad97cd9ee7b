// The second, smaller screencast of a tab, for viewers whose link cannot carry the full one
// (docs/panel.md "A slow viewer"). Chromium runs one screencast per DevTools session, so this
// has a session of its own; it runs only while some viewer is on it, at the size the largest
// of them needs, and its frames are numbered and framed like the full stream's.
import type { CDPSession, Page } from 'puppeteer-core'
import type { FastifyBaseLogger } from 'fastify'
import type { FrameAim } from './frame-codec.js'
import { screencastSession, StepChain, wireFrame, type ReceivedFrame, type ScreencastSize } from './screencast.js'

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
  #last?: ReceivedFrame
  #encoded?: Uint8Array
  readonly #steps: StepChain
  #disposed = false
  frames = 0

  constructor (page: Page, opts: LeanStreamOptions) {
    this.#page = page
    this.#opts = opts
    this.#steps = new StepChain(opts.log, 'panel lean screencast')
  }

  get running (): ScreencastSize | undefined { return this.#running }

  /** Streams at `size`, or stops with undefined (nobody is on the lean stream). */
  want (size: ScreencastSize | undefined): void {
    this.#steps.enqueue(async () => {
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
    this.#encoded ??= wireFrame(last, this.#opts.aim())
    return this.#encoded
  }

  /** The aim changed: the next frame handed out is framed anew. */
  reframe (): void {
    this.#encoded = undefined
  }

  async dispose (): Promise<void> {
    this.#disposed = true
    this.#steps.enqueue(() => this.#stop())
    await this.#steps.idle
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

  async #sessionOf (): Promise<CDPSession> {
    this.#session ??= screencastSession(this.#page, (frame) => this.#onFrame(frame))
    return await this.#session
  }

  #onFrame (received: ReceivedFrame): void {
    if (!this.#running) return
    this.#last = received
    this.#encoded = undefined
    this.frames++
    const frame = this.frame()
    if (frame) this.#opts.deliver(frame)
  }
}
