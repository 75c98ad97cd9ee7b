// What every screencast of every tab shares (the full stream and the lean one): the event's
// shape, the size asked of Chromium, the clock frames are stamped with, frame numbers, how a
// frame is received and framed for the wire, and the chain their steps run on.
import type { CDPSession, Page } from 'puppeteer-core'
import type { FastifyBaseLogger } from 'fastify'
import { encodeFrame, type FrameAim } from './frame-codec.js'
import { openPageSession } from '../browser/page-session.js'

export interface ScreencastSize { maxWidth: number, maxHeight: number }

export interface ScreencastFrameEvent {
  data: string
  sessionId: number
  metadata: { deviceWidth: number, deviceHeight: number, pageScaleFactor: number, scrollOffsetX: number, scrollOffsetY: number }
}

/** Wall-clock milliseconds (fractional): frames carry it, and the viewer compares it with its own. */
export const wallClock = (): number => performance.timeOrigin + performance.now()

/**
 * Frame numbers run across every tab's streams: a viewer shown a popup and then its opener (or
 * moved between the full and the lean stream) must never take a frame, or a still naming one,
 * of the one for the other.
 */
let frameSeq = 0
export const nextFrameSeq = (): number => ++frameSeq

/** A screencast frame as it reached Node: decoded once, stamped, numbered. */
export interface ReceivedFrame { jpeg: Buffer, meta: ScreencastFrameEvent['metadata'], receivedAt: number, seq: number }

/** A DevTools session of the page whose screencast frames go to `onFrame` (one screencast per session). */
export async function screencastSession (page: Page, onFrame: (frame: ReceivedFrame) => void): Promise<CDPSession> {
  const session = await openPageSession(page)
  session.on('Page.screencastFrame', (ev: ScreencastFrameEvent) => {
    // Acked at once: delaying the ack costs frame rate (docs/panel.md "Stream").
    session.send('Page.screencastFrameAck', { sessionId: ev.sessionId }).catch(() => undefined)
    onFrame({ jpeg: Buffer.from(ev.data, 'base64'), meta: ev.metadata, receivedAt: wallClock(), seq: nextFrameSeq() })
  })
  return session
}

/** The frame as the wire carries it (docs/panel.md "Frames"), with the aim that applies. */
export function wireFrame (frame: ReceivedFrame, aim: FrameAim): Uint8Array {
  return encodeFrame({
    seq: frame.seq,
    deviceWidth: frame.meta.deviceWidth,
    deviceHeight: frame.meta.deviceHeight,
    pageScaleFactor: frame.meta.pageScaleFactor,
    scrollX: frame.meta.scrollOffsetX,
    scrollY: frame.meta.scrollOffsetY,
    aim,
    receivedAt: frame.receivedAt
  }, frame.jpeg)
}

/** Screencast steps (start, resize, stop) run one after another; a failed one is logged, not thrown. */
export class StepChain {
  readonly #log: FastifyBaseLogger
  readonly #what: string
  #chain: Promise<void> = Promise.resolve()

  constructor (log: FastifyBaseLogger, what: string) {
    this.#log = log
    this.#what = what
  }

  enqueue (step: () => Promise<void>): void {
    this.#chain = this.#chain.then(step).catch((err: unknown) => {
      this.#log.warn({ err }, `${this.#what} step failed`)
    })
  }

  /** Settles once every step enqueued so far has run. */
  get idle (): Promise<void> { return this.#chain }
}
