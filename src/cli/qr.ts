// The panel link as a terminal QR code (docs/spec.md sections 11 and 20), so the person at the terminal
// can open it on a phone. It goes to stderr, before the summary: stdout keeps its contract (the
// panel URL alone on the last line) for scripts, and a terminal shows both.
import QRCode from 'qrcode'
import { UsageError, bool, type Values } from './args.js'
import type { Io } from './output.js'

/** --qr forces it, --no-qr silences it; by default it is drawn when stderr is a terminal. */
export function wantsQr (command: string, values: Values, io: Pick<Io, 'errIsTTY'>): boolean {
  const on = bool(values, 'qr')
  const off = bool(values, 'no-qr')
  if (on && off) throw new UsageError('give --qr or --no-qr, not both', command)
  return off ? false : on || io.errIsTTY
}

/** Half-height blocks: two QR rows per terminal line, so a panel link fits a laptop screen. */
export async function terminalQr (url: string): Promise<string> {
  return QRCode.toString(url, { type: 'terminal', small: true, errorCorrectionLevel: 'L' })
}

/** Prints the QR of `url` to stderr with a line saying what it is. */
export async function printQr (io: Io, url: string): Promise<void> {
  io.err(`Scan to open the panel on a phone:\n${await terminalQr(url)}\n`)
}
