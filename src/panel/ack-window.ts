// How many frame bytes may be on their way to one viewer (docs/panel.md "A slow viewer").
//
// A socket's send buffers accept megabytes before they push back: on a slow link the frames
// queue there and the picture falls seconds behind the page, growing without end. So the viewer
// counts the binary messages it received (`{t:"ack", n}`) and the host keeps no more bytes
// unacknowledged than the link delivered over its shortest round trip, with some headroom and
// never fewer than a few frames: a link that can carry more shows it by acking faster, and the
// window grows with it, as TCP's own does. A viewer that never acks (an older panel, a test's
// bare socket) is not limited. Pure but for the clock it is handed.

/** Frames always allowed on their way: enough for 60 fps on a short round trip. */
export const MIN_FRAMES_IN_FLIGHT = 3
/** Headroom over the measured bandwidth × round trip, so the window can grow when the link allows. */
const HEADROOM = 1.25
/** Delivery rate is measured over this much recent time. */
const RATE_WINDOW_MS = 1_000
/** The shortest round trip is forgotten after this long (a link that got slower is believed). */
const MIN_RTT_WINDOW_MS = 10_000

interface Sent { bytes: number, at: number }
interface Acked { bytes: number, at: number, rtt: number }

export class AckWindow {
  /** Sent and not yet acked, oldest first; recorded once the viewer acks (nothing grows otherwise). */
  readonly #queue: Sent[] = []
  readonly #acked: Acked[] = []
  /** Messages sent before the viewer's first ack: counted, never queued. */
  #untracked = 0
  #ackedCount = 0
  #inFlightBytes = 0
  /** The viewer acks: from its first ack on, the window applies. */
  acking = false

  /** A binary message (frame or still) handed to the socket. */
  sent (bytes: number, now: number): void {
    if (!this.acking) { this.#untracked++; return }
    this.#queue.push({ bytes, at: now })
    this.#inFlightBytes += bytes
  }

  /** The viewer has received `n` binary messages in all; false for a count it cannot have. */
  ack (n: number, now: number): boolean {
    if (!Number.isSafeInteger(n) || n > this.#ackedCount + this.#untracked + this.#queue.length || n < this.#ackedCount) return false
    this.acking = true
    for (; this.#ackedCount < n; this.#ackedCount++) {
      if (this.#untracked > 0) { this.#untracked--; continue }
      const m = this.#queue.shift()!
      this.#inFlightBytes -= m.bytes
      this.#acked.push({ bytes: m.bytes, at: now, rtt: now - m.at })
    }
    while (this.#acked.length > 0 && now - this.#acked[0].at > MIN_RTT_WINDOW_MS) this.#acked.shift()
    return true
  }

  get inFlight (): { frames: number, bytes: number } {
    return { frames: this.#untracked + this.#queue.length, bytes: this.#inFlightBytes }
  }

  /** The bytes that may be unacknowledged now: bandwidth × shortest round trip, with headroom. */
  limit (frameBytes: number, now: number): number {
    let rateBytes = 0
    let minRtt = Infinity
    for (const a of this.#acked) {
      if (now - a.at <= RATE_WINDOW_MS) rateBytes += a.bytes
      if (a.rtt < minRtt) minRtt = a.rtt
    }
    const bdp = Number.isFinite(minRtt) ? rateBytes * minRtt / RATE_WINDOW_MS : 0
    return Math.max(MIN_FRAMES_IN_FLIGHT * frameBytes, bdp * HEADROOM)
  }

  /** May a message of `bytes` go now? Always for a viewer that does not ack. */
  open (bytes: number, now: number): boolean {
    if (!this.acking || this.#queue.length === 0) return true
    return this.#inFlightBytes + bytes <= this.limit(bytes, now)
  }
}
