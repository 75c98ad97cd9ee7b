import WebSocket from 'ws'
import type { FrameTarget } from './streamer.js'

/**
 * Newest-frame-wins delivery to one viewer (docs/spec.md section 10): at most one frame is on its
 * way to the socket and one waits; a newer frame replaces the waiting one. A slow phone
 * therefore skips frames instead of delaying a fast desktop or growing memory.
 *
 * A still of a zoomed view (docs/panel.md "Sharp when zoomed") waits in a slot of its own and
 * goes after the waiting frame: it refines the frame before it, so it must never replace one.
 */
export class FrameSink implements FrameTarget {
  readonly #ws: WebSocket
  #inFlight = false
  #waiting: Uint8Array | undefined
  #waitingStill: Uint8Array | undefined
  sent = 0
  skipped = 0
  bytes = 0
  stills = 0

  constructor (ws: WebSocket) {
    this.#ws = ws
  }

  offer (frame: Uint8Array): void {
    if (this.#ws.readyState !== WebSocket.OPEN) return
    if (this.#inFlight) {
      if (this.#waiting) this.skipped++
      this.#waiting = frame
      return
    }
    this.#send(frame)
  }

  offerStill (still: Uint8Array): void {
    if (this.#ws.readyState !== WebSocket.OPEN) return
    if (this.#inFlight) {
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
    // The callback fires once the message is handed to the kernel: the socket can take more.
    this.#ws.send(message, { binary: true }, (err) => {
      this.#inFlight = false
      if (err) return
      const next = this.#waiting
      const still = this.#waitingStill
      this.#waiting = undefined
      this.#waitingStill = undefined
      if (next) this.offer(next)
      if (still) this.offerStill(still)
    })
  }
}
