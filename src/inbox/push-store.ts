// Web Push subscriptions of operators' browsers (docs/spec.md section 20), kept durably in the profiles
// directory so a restarted host still reaches every phone. Each change rewrites the small file
// with the four-step durable write; writes are serialized so a later state never loses to an
// earlier one.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { durableWrite } from '../store/durable-write.js'
import { PUSH_SUBSCRIPTIONS_MAX } from '../limits.js'

export const PUSH_SUBSCRIPTIONS_FILE = '.afhttp-push-subscriptions.json'

export interface StoredSubscription {
  endpoint: string
  keys: { p256dh: string, auth: string }
  added_at: string
}

export class PushSubscriptions {
  readonly file: string
  readonly #byEndpoint = new Map<string, StoredSubscription>()
  #writing: Promise<unknown> = Promise.resolve()

  constructor (profilesDir: string) {
    this.file = join(profilesDir, PUSH_SUBSCRIPTIONS_FILE)
  }

  /** Reads the file; a missing one is an empty list, an unreadable one is an error the caller logs. */
  async load (): Promise<void> {
    let text: string
    try { text = await readFile(this.file, 'utf8') } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return
      throw err
    }
    const doc = JSON.parse(text) as { subscriptions?: unknown }
    if (!Array.isArray(doc.subscriptions)) throw new Error(`${this.file} has no subscriptions list`)
    for (const s of doc.subscriptions as StoredSubscription[]) {
      if (typeof s?.endpoint === 'string' && typeof s.keys?.p256dh === 'string' && typeof s.keys?.auth === 'string') this.#byEndpoint.set(s.endpoint, s)
    }
  }

  list (): StoredSubscription[] { return [...this.#byEndpoint.values()] }

  get size (): number { return this.#byEndpoint.size }

  /** Adds (or refreshes) a browser's subscription; past the bound the oldest is dropped. */
  async add (sub: { endpoint: string, keys: { p256dh: string, auth: string } }, now: Date): Promise<void> {
    this.#byEndpoint.delete(sub.endpoint)
    this.#byEndpoint.set(sub.endpoint, { endpoint: sub.endpoint, keys: { p256dh: sub.keys.p256dh, auth: sub.keys.auth }, added_at: now.toISOString() })
    while (this.#byEndpoint.size > PUSH_SUBSCRIPTIONS_MAX) this.#byEndpoint.delete(this.#byEndpoint.keys().next().value as string)
    await this.#persist()
  }

  /** Removes a subscription (the browser unsubscribed, or its push service said it is gone). */
  async remove (endpoint: string): Promise<boolean> {
    if (!this.#byEndpoint.delete(endpoint)) return false
    await this.#persist()
    return true
  }

  /** Resolves once every change so far is on disk. */
  flushed (): Promise<unknown> { return this.#writing }

  #persist (): Promise<void> {
    const write = this.#writing.catch(() => undefined).then(async () => {
      // The state at write time, not at call time: a burst of changes ends with the last one on disk.
      const doc = { schema_version: 1, subscriptions: this.list() }
      await durableWrite(this.file, `${JSON.stringify(doc, null, 2)}\n`, { mode: 0o600 })
    })
    this.#writing = write
    return write
  }
}
