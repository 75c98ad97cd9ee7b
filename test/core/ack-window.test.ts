import t from 'tap'
import WebSocket from 'ws'
import { AckWindow, MIN_FRAMES_IN_FLIGHT } from '../../src/panel/ack-window.js'
import { FrameSink } from '../../src/panel/frame-sink.js'

t.test('a viewer that never acks is not limited', async (t) => {
  const w = new AckWindow()
  for (let i = 0; i < 50; i++) w.sent(20_000, i)
  t.ok(w.open(20_000, 50))
  t.equal(w.inFlight.frames, 50)
  t.equal(w.inFlight.bytes, 0, 'and keeps no record of each message: nothing grows for a socket that never acks')
})

t.test('a viewer that starts acking late counts from its socket\'s first message', async (t) => {
  const w = new AckWindow()
  for (let i = 0; i < 5; i++) w.sent(10_000, i)
  t.ok(w.ack(2, 10), 'two of the five untracked messages arrived')
  w.sent(10_000, 10)
  t.equal(w.inFlight.frames, 4)
  t.notOk(w.ack(7, 11), 'six were sent in all')
  t.ok(w.ack(6, 40))
  t.same(w.inFlight, { frames: 0, bytes: 0 })
})

t.test('an acking viewer gets a few frames on their way, then as many as its link delivers per round trip', async (t) => {
  const w = new AckWindow()
  t.ok(w.ack(0, 0), 'the panel says it acks before any frame')
  for (let i = 0; i < MIN_FRAMES_IN_FLIGHT; i++) { t.ok(w.open(10_000, 0)); w.sent(10_000, 0) }
  t.notOk(w.open(10_000, 0), `no more than ${MIN_FRAMES_IN_FLIGHT} frames before anything is acked`)
  // A link of 100 KB/s with a 300 ms round trip: each ack comes 300 ms after its frame left.
  let now = 0
  let sent = MIN_FRAMES_IN_FLIGHT
  let acked = 0
  for (let step = 0; step < 100; step++) {
    now += 100
    acked = Math.min(sent, acked + 1)
    w.ack(acked, now)
    while (w.open(10_000, now)) { w.sent(10_000, now); sent++ }
  }
  const limit = w.limit(10_000, now)
  t.ok(limit >= 30_000 && limit <= 50_000, `the window settles near 100 KB/s × 300 ms with headroom (${Math.round(limit)} bytes)`)
  t.ok(w.inFlight.bytes <= limit, 'never more on its way than the window')
})

t.test('counts that the socket never carried are refused', async (t) => {
  const w = new AckWindow()
  w.sent(10, 0)
  t.notOk(w.ack(2, 1), 'more than were sent')
  t.ok(w.ack(1, 1))
  t.notOk(w.ack(0, 2), 'a count never goes back')
  t.notOk(w.ack(1.5, 2), 'a count is whole')
})

/** A socket that takes every write at once, as a kernel buffer does until it is full. */
class EagerSocket {
  readyState: number = WebSocket.OPEN
  readonly written: Uint8Array[] = []
  send (data: Uint8Array, _opts: unknown, cb: (err?: Error) => void): void { this.written.push(data); queueMicrotask(() => cb()) }
}

t.test('an acking viewer on a slow link gets the newest frame when its acks come, never a queue of old ones', async (t) => {
  const ws = new EagerSocket()
  let now = 0
  const sink = new FrameSink(ws as unknown as WebSocket, () => now)
  t.ok(sink.acked(0))
  for (let i = 1; i <= 60; i++) {
    sink.offer(Uint8Array.of(i))
    await Promise.resolve()
    now += 16
  }
  t.same(ws.written.map((f) => f[0]), [1, 2, 3], 'three on their way, the rest wait for acks')
  t.ok(sink.skipped >= 55, 'the others were replaced by newer ones')
  t.ok(sink.acked(1))
  await Promise.resolve()
  t.same(ws.written.map((f) => f[0]), [1, 2, 3, 60], 'an ack lets the newest go')
  t.notOk(sink.acked(9), 'a count beyond what was sent is refused')
})
