import { AfhttpClientError } from '../client/index.js'
import { UsageError } from './args.js'
import { formatDuration } from '../client/progress.js'

// Durations read the same in the CLI and the MCP server: src/client/progress.ts.
export { formatDuration }

/** Exit codes of the CLI (docs/spec.md section 11). */
export const EXIT = { ok: 0, other: 1, usage: 2, human: 3, unavailable: 4 } as const

/** Where the CLI writes; injectable so commands can be run in-process. */
export interface Io {
  out: (text: string) => void
  err: (text: string) => void
  /** Whether stderr is a terminal: decides between a redrawn progress line and plain lines. */
  errIsTTY: boolean
}

export const processIo: Io = {
  out: (text) => { process.stdout.write(text) },
  err: (text) => { process.stderr.write(text) },
  errIsTTY: process.stderr.isTTY === true
}

export function printJson (io: Io, value: unknown): void {
  io.out(`${JSON.stringify(value, null, 2)}\n`)
}

export function printLines (io: Io, lines: string[]): void {
  if (lines.length) io.out(`${lines.join('\n')}\n`)
}

/** Codes meaning the host, its browser or takeover cannot serve right now (exit 4). */
const UNAVAILABLE = new Set(['host_unreachable', 'connection_lost', 'request_timeout', 'takeover_unavailable', 'backend_unavailable'])

export function exitCodeFor (err: unknown): number {
  if (err instanceof UsageError) return EXIT.usage
  if (err instanceof AfhttpClientError && (UNAVAILABLE.has(err.code) || err.status === 503)) return EXIT.unavailable
  return EXIT.other
}

/**
 * Explains a failure on stderr (and, with --json, prints the envelope on stdout) and returns the
 * exit code. `tokenGiven` tells a missing token apart from a rejected one; the token itself is never shown.
 */
export function reportError (io: Io, err: unknown, opts: { json: boolean, tokenGiven: boolean, command?: string }): number {
  const code = exitCodeFor(err)
  if (err instanceof UsageError) {
    const cmd = err.command ?? opts.command
    io.err(`afhttp: ${err.message}\nrun "afhttp ${cmd ? `${cmd} ` : ''}--help" for usage\n`)
    return code
  }
  if (!(err instanceof AfhttpClientError)) {
    io.err(`afhttp: unexpected error: ${(err as Error)?.message ?? String(err)}\n`)
    return code
  }
  if (opts.json) printJson(io, err.toEnvelope())
  io.err(`afhttp: ${explain(err, opts.tokenGiven, opts.command)}\n`)
  return code
}

function explain (err: AfhttpClientError, tokenGiven: boolean, command?: string): string {
  if (err.code === 'unauthorized') {
    return tokenGiven
      ? 'token rejected: the host answered 401 unauthorized. Check AFHTTP_TOKEN (or --token); a host started without AFHTTP_TOKEN keeps its generated token in <profiles dir>/.afhttp-token.'
      : 'no token: this command needs the API token. Set AFHTTP_TOKEN (or pass --token); a host started without one keeps it in <profiles dir>/.afhttp-token.'
  }
  if (err.code === 'host_unreachable') return `${err.message}. Is the host running ("afhttp serve")? Point AFHTTP_URL or --url at it.`
  const parts = [`${err.code}: ${err.message}`]
  if (err.status !== undefined) parts.push(`(HTTP ${err.status}${err.retryable ? ', retryable' : ''})`)
  const retained = err.details.retained_tab_id ?? (err.details.trace as { retained_tab_id?: unknown } | undefined)?.retained_tab_id
  if (typeof retained === 'string') parts.push(`\nthe tab was kept: ${retained}`)
  if (err.code === 'tab_under_human_control' && command === 'fetch') parts.push('\nto wait for the person instead, add --wait-for-human to the same fetch')
  return parts.join(' ')
}

export function formatBytes (n: number): string {
  if (n < 1024) return `${n} B`
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} kB`
  return `${(n / 1024 / 1024).toFixed(1)} MB`
}

/** Left-aligned columns; the last column is not padded. */
export function table (rows: string[][]): string[] {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? []
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ').trimEnd())
}

/**
 * One progress line on stderr. On a terminal it is redrawn in place; elsewhere (logs, pipes)
 * a line is written when `key` changes or every `everyMs`, so logs stay readable.
 */
export class ProgressLine {
  #drawn = false
  #lastKey: string | undefined
  #lastAt = -Infinity

  constructor (private readonly io: Io, private readonly now: () => number, private readonly everyMs = 15_000) {}

  show (text: string, key: string): void {
    if (this.io.errIsTTY) {
      this.io.err(`\r\x1b[2K${text}`)
      this.#drawn = true
      return
    }
    const t = this.now()
    if (key === this.#lastKey && t - this.#lastAt < this.everyMs) return
    this.#lastKey = key
    this.#lastAt = t
    this.io.err(`${text}\n`)
  }

  /** Ends the redrawn line so later output starts on a fresh line. */
  end (): void {
    if (this.#drawn) this.io.err('\n')
    this.#drawn = false
  }
}
