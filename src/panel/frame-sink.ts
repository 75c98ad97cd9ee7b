import WebSocket from 'ws'
import type { FrameTarget } from './streamer.js'
import { AckWindow } from './ack-window.js'
import { wallClock } from './screencast.js'

/**
 * Newest-frame-wins delivery to one viewer (docs/spec.md section 10): at most one frame is on its
 * way to the socket and one waits; a newer frame replaces the waiting one. A slow phone
 * therefore skips frames instead of delaying a fast desktop or growing memory.
 *
 * A still of a zoomed view (docs/panel.md "Sharp when zoomed") waits in a slot of its own and
 * goes after the waiting frame: it refines the frame before it, so it must never replace one.
 *
 * "On its way" ends twice: the socket took the message (its send callback), and, for a viewer
 * that acks, the viewer said it arrived; only as many bytes as its link carries may be between
 * the two (AckWindow), so a slow link skips frames instead of queueing seconds of them.
 */
export class FrameSink implements FrameTarget {
  readonly #ws: WebSocket
  readonly #window = new AckWindow()
  readonly #now: () => number
  #inFlight = false
  #waiting: Uint8Array | undefined
  #waitingStill: Uint8Array | undefined
  sent = 0
  skipped = 0
  bytes = 0
  stills = 0

  constructor (ws: WebSocket, now: () => number = wallClock) {
    this.#ws = ws
    this.#now = now
  }

  /** The viewer's count of binary messages received; false for a count it cannot have. */
  acked (n: number): boolean {
    if (!this.#window.ack(n, this.#now())) return false
    this.#next()
    return true
  }

  get inFlight (): { frames: number, bytes: number } { return this.#window.inFlight }

  offer (frame: Uint8Array): void {
    if (this.#ws.readyState !== WebSocket.OPEN) return
    if (this.#inFlight || !this.#window.open(frame.length, this.#now())) {
      if (this.#waiting) this.skipped++
      this.#waiting = frame
      return
    }
    this.#send(frame)
  }

  offerStill (still: Uint8Array): void {
    if (this.#ws.readyState !== WebSocket.OPEN) return
    if (this.#inFlight || !this.#window.open(still.length, this.#now())) {
      this.#waitingStill = still
      return
    }
    this.#send(still, true)
  }

  #send (message: Uint8Array, still = false): void {
    this.#inFlight = true
    if (still) this.stills++
    else this.sent++
    this.bytes += message.length
    this.#window.sent(message.length, this.#now())
    // The callback fires once the message is handed to the kernel: the socket can take more.
    this.#ws.send(message, { binary: true }, (err) => {
      this.#inFlight = false
      if (!err) this.#next()
    })
  }

  /** The socket or the window has room again: the waiting frame goes, then the waiting still. */
  #next (): void {
    if (this.#inFlight) return
    const next = this.#waiting
    const still = this.#waitingStill
    this.#waiting = undefined
    this.#waitingStill = undefined
    if (next) this.offer(next)
    if (still) this.offerStill(still)
  }
}
