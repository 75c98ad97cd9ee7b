// Reads the pixels of a PNG screenshot (8-bit RGB or RGBA, not interlaced: what Chromium's
// Page.captureScreenshot writes), so a test can check what a person would see on screen.
import { inflateSync } from 'node:zlib'

export interface Picture { width: number, height: number, rgba: Uint8Array }

export function decodePng (png: Uint8Array): Picture {
  const buf = Buffer.from(png)
  if (buf.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG')
  let width = 0; let height = 0; let channels = 0
  const idat: Buffer[] = []
  for (let at = 8; at < buf.length;) {
    const length = buf.readUInt32BE(at)
    const type = buf.toString('latin1', at + 4, at + 8)
    const data = buf.subarray(at + 8, at + 8 + length)
    if (type === 'IHDR') {
      width = data.readUInt32BE(0)
      height = data.readUInt32BE(4)
      const [depth, colour, , , interlace] = [data[8], data[9], data[10], data[11], data[12]]
      if (depth !== 8 || interlace !== 0 || (colour !== 2 && colour !== 6)) throw new Error(`PNG depth ${depth}, colour ${colour}, interlace ${interlace} not read here`)
      channels = colour === 6 ? 4 : 3
    } else if (type === 'IDAT') idat.push(data)
    at += 12 + length
  }
  const raw = inflateSync(Buffer.concat(idat))
  const stride = width * channels
  const out = new Uint8Array(width * height * 4)
  let prev = new Uint8Array(stride)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]
    const line = Uint8Array.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)))
    for (let i = 0; i < stride; i++) {
      const left = i >= channels ? line[i - channels] : 0
      const up = prev[i]
      const upLeft = i >= channels ? prev[i - channels] : 0
      if (filter === 1) line[i] += left
      else if (filter === 2) line[i] += up
      else if (filter === 3) line[i] += (left + up) >> 1
      else if (filter === 4) line[i] += paeth(left, up, upLeft)
    }
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 3; c++) out[(y * width + x) * 4 + c] = line[x * channels + c]
      out[(y * width + x) * 4 + 3] = channels === 4 ? line[x * channels + 3] : 255
    }
    prev = line
  }
  return { width, height, rgba: out }
}

function paeth (a: number, b: number, c: number): number {
  const p = a + b - c
  const pa = Math.abs(p - a); const pb = Math.abs(p - b); const pc = Math.abs(p - c)
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
}

/** Luminance (0 black … 255 white) of the pixel at x, y. */
export function luminance (p: Picture, x: number, y: number): number {
  const i = (y * p.width + x) * 4
  return 0.2126 * p.rgba[i] + 0.7152 * p.rgba[i + 1] + 0.0722 * p.rgba[i + 2]
}
