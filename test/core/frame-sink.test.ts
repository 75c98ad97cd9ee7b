import t from 'tap'
import WebSocket from 'ws'
import { FrameSink } from '../../src/panel/frame-sink.js'

/** A socket whose writes complete only when the test says so: a slow phone. */
class SlowSocket {
  readyState: number = WebSocket.OPEN
  readonly written: Uint8Array[] = []
  readonly #pending: Array<(err?: Error) => void> = []
  send (data: Uint8Array, _opts: unknown, cb: (err?: Error) => void): void {
    this.written.push(data)
    this.#pending.push(cb)
  }

  drain (): void { this.#pending.shift()?.() }
  fail (): void { this.#pending.shift()?.(new Error('socket broke')) }
  get waiting (): number { return this.#pending.length }
}

const frame = (n: number): Uint8Array => Uint8Array.of(n)

t.test('a slow viewer gets the newest frame, holds at most two, and skips the rest', async (t) => {
  const ws = new SlowSocket()
  const sink = new FrameSink(ws as unknown as WebSocket)
  for (let i = 1; i <= 100; i++) sink.offer(frame(i))
  t.same(ws.written.map((f) => f[0]), [1], 'one frame on its way')
  t.equal(ws.waiting, 1)
  t.equal(sink.skipped, 98, 'frames 2..99 were replaced before they were sent')
  ws.drain()
  t.same(ws.written.map((f) => f[0]), [1, 100], 'then the newest, never the stale ones')
  ws.drain()
  t.equal(ws.waiting, 0)
  sink.offer(frame(101))
  t.same(ws.written.map((f) => f[0]), [1, 100, 101], 'an idle socket sends at once')
  t.equal(sink.sent, 3)
  t.equal(sink.bytes, 3)
})

t.test('a fast viewer is never held back by a slow one', async (t) => {
  const slow = new SlowSocket()
  const fast = new SlowSocket()
  const a = new FrameSink(slow as unknown as WebSocket)
  const b = new FrameSink(fast as unknown as WebSocket)
  for (let i = 1; i <= 60; i++) {
    a.offer(frame(i))
    b.offer(frame(i))
    fast.drain()
  }
  t.equal(fast.written.length, 60, 'the fast viewer got every frame')
  t.equal(slow.written.length, 1, 'the slow one got what it could take')
})

t.test('a closed socket gets nothing; a failed write sends nothing more', async (t) => {
  const ws = new SlowSocket()
  const sink = new FrameSink(ws as unknown as WebSocket)
  sink.offer(frame(1))
  sink.offer(frame(2))
  ws.fail()
  t.equal(ws.written.length, 1, 'the waiting frame is dropped after a failed write')
  ws.readyState = WebSocket.CLOSED
  sink.offer(frame(3))
  t.equal(ws.written.length, 1, 'nothing is sent to a closed socket')
})

t.test('a still waits behind the frame it refines and never replaces one', async (t) => {
  const ws = new SlowSocket()
  const sink = new FrameSink(ws as unknown as WebSocket)
  sink.offer(frame(1))
  sink.offer(frame(2))
  sink.offerStill(frame(102))
  sink.offer(frame(3))
  t.same(ws.written.map((f) => f[0]), [1], 'frame 1 on its way; 3 replaced 2, the still waits in its own slot')
  ws.drain()
  t.same(ws.written.map((f) => f[0]), [1, 3], 'the waiting frame goes first')
  ws.drain()
  t.same(ws.written.map((f) => f[0]), [1, 3, 102], 'then the still')
  ws.drain()
  sink.offerStill(frame(103))
  t.same(ws.written.map((f) => f[0]), [1, 3, 102, 103], 'an idle socket sends a still at once')
  t.equal(sink.sent, 2, 'stills are not counted as frames sent')
  t.equal(sink.stills, 2)
})
