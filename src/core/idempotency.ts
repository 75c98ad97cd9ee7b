// Idempotency keys (docs/spec.md section 5). Pure: the clock is passed in, answers are plain values.
// A repeat with the same key and request within the TTL gets the first answer, waiting for it
// while it runs; the same key with another request is a mismatch. Bounded in keys and bytes.
import { createHash } from 'node:crypto'
import type { Clock } from './clock.js'

export const IDEMPOTENCY_HEADER = 'idempotency-key'
import { IDEMPOTENCY_MAX_BYTES, IDEMPOTENCY_MAX_KEYS, IDEMPOTENCY_TTL_MS } from '../limits.js'
export { IDEMPOTENCY_MAX_BYTES, IDEMPOTENCY_MAX_KEYS, IDEMPOTENCY_TTL_MS }
/** 1–128 printable ASCII characters. */
export const IDEMPOTENCY_KEY_RE = /^[\x20-\x7e]{1,128}$/

export interface StoredAnswer { status: number, body: unknown }

/** What to do with a request that carries a key. */
export type Admission =
  /** `settle(live, kept)`: requests waiting now get `live`; later repeats get `kept` (e.g. without secrets). */
  | { kind: 'run', settle: (live: StoredAnswer, kept?: StoredAnswer) => void, forget: (err: unknown) => void }
  /** `live`: the first request was still running, so `answer` is its own (not the kept copy). */
  | { kind: 'replay', answer: Promise<StoredAnswer>, live: boolean }
  | { kind: 'mismatch' }

interface Entry {
  fingerprint: string
  createdAt: number
  answer: Promise<StoredAnswer>
  settled: boolean
  bytes: number
}

/** A stable digest of what a request asks for: method, route, params and body (keys sorted). */
export function requestFingerprint (parts: unknown): string {
  return createHash('sha256').update(canonicalJson(parts)).digest('hex')
}

function canonicalJson (value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value ?? null)
}

export class IdempotencyStore {
  readonly #entries = new Map<string, Entry>()
  #bytes = 0

  constructor (private readonly clock: Clock, private readonly limits = { ttlMs: IDEMPOTENCY_TTL_MS, maxKeys: IDEMPOTENCY_MAX_KEYS, maxBytes: IDEMPOTENCY_MAX_BYTES }) {}

  get size (): number { return this.#entries.size }

  admit (key: string, fingerprint: string): Admission {
    this.#expire()
    const existing = this.#entries.get(key)
    if (existing) return existing.fingerprint === fingerprint ? { kind: 'replay', answer: existing.answer, live: !existing.settled } : { kind: 'mismatch' }
    let settle!: (answer: StoredAnswer) => void
    let fail!: (err: unknown) => void
    const answer = new Promise<StoredAnswer>((resolve, reject) => { settle = resolve; fail = reject })
    answer.catch(() => undefined) // a forgotten run with no waiter is not an unhandled rejection
    const entry: Entry = { fingerprint, createdAt: this.clock.now(), answer, settled: false, bytes: 0 }
    this.#entries.set(key, entry)
    this.#evict(key)
    return {
      kind: 'run',
      settle: (live, kept = live) => {
        settle(live)
        if (this.#entries.get(key) !== entry) return
        entry.settled = true
        entry.answer = Promise.resolve(kept)
        entry.bytes = Buffer.byteLength(JSON.stringify(kept.body) ?? '')
        this.#bytes += entry.bytes
        this.#evict(key)
      },
      // Nothing worth replaying: waiters get the same failure, a later retry runs again.
      forget: (err) => {
        if (this.#entries.get(key) === entry) this.#entries.delete(key)
        fail(err)
      }
    }
  }

  #drop (key: string, entry: Entry): void {
    this.#entries.delete(key)
    this.#bytes -= entry.bytes
  }

  #expire (): void {
    const now = this.clock.now()
    // Insertion order is age order: stop at the first entry still young.
    for (const [key, entry] of this.#entries) {
      if (now - entry.createdAt < this.limits.ttlMs) break
      this.#drop(key, entry)
    }
  }

  /** Oldest first, never the entry just made or answered. */
  #evict (keep: string): void {
    for (const [key, entry] of this.#entries) {
      if (this.#entries.size <= this.limits.maxKeys && this.#bytes <= this.limits.maxBytes) return
      if (key !== keep) this.#drop(key, entry)
    }
  }
}
