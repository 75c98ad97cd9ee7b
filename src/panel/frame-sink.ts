import WebSocket from 'ws'
import type { FrameTarget } from './streamer.js'

/**
 * Newest-frame-wins delivery to one viewer (SPEC section 10): at most one frame is on its
 * way to the socket and one waits; a newer frame replaces the waiting one. A slow phone
 * therefore skips frames instead of delaying a fast desktop or growing memory.
 */
export class FrameSink implements FrameTarget {
  readonly #ws: WebSocket
  #inFlight = false
  #waiting: Uint8Array | undefined
  sent = 0
  skipped = 0
  bytes = 0

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

  #send (frame: Uint8Array): void {
    this.#inFlight = true
    this.sent++
    this.bytes += frame.length
    // The callback fires once the frame is handed to the kernel: the socket can take more.
    this.#ws.send(frame, { binary: true }, (err) => {
      this.#inFlight = false
      const next = this.#waiting
      this.#waiting = undefined
      if (!err && next) this.offer(next)
    })
  }
}
