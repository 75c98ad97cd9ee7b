// Binary frame messages on the panel WebSocket (docs/panel.md "Frames").
//
// Compiled into the panel page too (/panel/lib/panel/frame-codec.js) and imported there as a
// browser ES module, like coords.js: keep it free of imports and of anything Node-only.
//
// Layout: byte 0 version, byte 1 reserved (0), bytes 2–3 header length (big endian),
// then the header as UTF-8 JSON, then the JPEG exactly as Chromium encoded it.

export const FRAME_VERSION = 1
const PREFIX = 4
const MAX_HEADER = 0xffff

export type AimKind = 'selector' | 'detected' | 'viewport'

export interface FrameAim {
  kind: AimKind
  /** Viewport CSS pixels; absent for `viewport`. */
  rect?: { x: number; y: number; width: number; height: number }
}

export interface FrameHeader {
  seq: number
  /** Viewport in CSS pixels (screencast metadata deviceWidth/deviceHeight). */
  deviceWidth: number
  deviceHeight: number
  pageScaleFactor: number
  scrollX: number
  scrollY: number
  /** Which aim applied to this frame (docs/spec.md section 10 "Aim"). */
  aim: FrameAim
  /** Wall-clock milliseconds (fractional) when the host received the frame from Chromium. */
  receivedAt: number
  /**
   * Present on a still, not a frame (docs/panel.md "Sharp when zoomed"): the JPEG shows only
   * this part of the viewport (CSS px), drawn as the frame `seq` showed it or newer.
   */
  detail?: { x: number; y: number; width: number; height: number; scale: number }
}

export interface DecodedFrame { header: FrameHeader; jpeg: Uint8Array }

export function encodeFrame(header: FrameHeader, jpeg: Uint8Array): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(header))
  if (json.length > MAX_HEADER) throw new RangeError(`frame header of ${json.length} bytes is over ${MAX_HEADER}`)
  const out = new Uint8Array(PREFIX + json.length + jpeg.length)
  out[0] = FRAME_VERSION
  out[1] = 0
  out[2] = json.length >> 8
  out[3] = json.length & 0xff
  out.set(json, PREFIX)
  out.set(jpeg, PREFIX + json.length)
  return out
}

/** Throws on anything that is not a frame of this version; the JPEG is a view, not a copy. */
export function decodeFrame(data: ArrayBuffer | Uint8Array): DecodedFrame {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data)
  if (bytes.length < PREFIX) throw new RangeError('frame shorter than its prefix')
  if (bytes[0] !== FRAME_VERSION) throw new RangeError(`frame version ${bytes[0]} is not ${FRAME_VERSION}`)
  const length = (bytes[2] << 8) | bytes[3]
  if (PREFIX + length > bytes.length) throw new RangeError('frame header runs past the message')
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(PREFIX, PREFIX + length))) as FrameHeader
  return { header, jpeg: bytes.subarray(PREFIX + length) }
}
