import t from 'tap'
import { decodeFrame, encodeFrame, FRAME_VERSION, type FrameHeader } from '../../src/panel/frame-codec.js'

const header: FrameHeader = {
  seq: 7, deviceWidth: 1280, deviceHeight: 720, pageScaleFactor: 1, scrollX: 0, scrollY: 312.5,
  aim: { kind: 'selector', rect: { x: 103.5, y: 77, width: 522, height: 302 } }, receivedAt: 1764547200123.25
}
const jpeg = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 0xff, 0xd9])

t.test('a frame round-trips header and JPEG bytes unchanged', async (t) => {
  const bytes = encodeFrame(header, jpeg)
  t.equal(bytes[0], FRAME_VERSION)
  const out = decodeFrame(bytes)
  t.same(out.header, header)
  t.same([...out.jpeg], [...jpeg])
  t.same(decodeFrame(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer).header, header, 'from an ArrayBuffer, as the panel receives it')
})

t.test('the header carries non-ASCII selectors intact (length in bytes, not characters)', async (t) => {
  const h = { ...header, aim: { kind: 'viewport' as const } , seq: 1 }
  const odd = { ...h, note: 'défi — 挑战' } as FrameHeader
  t.same(decodeFrame(encodeFrame(odd, jpeg)).header, odd)
})

t.test('the JPEG is a view into the message, not a copy', async (t) => {
  const bytes = encodeFrame(header, jpeg)
  t.equal(decodeFrame(bytes).jpeg.buffer, bytes.buffer)
})

t.test('anything else is refused', async (t) => {
  t.throws(() => decodeFrame(new Uint8Array([1, 0])), RangeError)
  const wrong = encodeFrame(header, jpeg)
  wrong[0] = 2
  t.throws(() => decodeFrame(wrong), /version/)
  const short = encodeFrame(header, jpeg).subarray(0, 10)
  t.throws(() => decodeFrame(short), /past the message/)
  t.throws(() => encodeFrame({ ...header, aim: { kind: 'viewport', rect: { x: 0, y: 0, width: 1, height: 1 }, pad: 'x'.repeat(70_000) } as never }, jpeg), RangeError)
})
