// Which panel secrets are live, and why a dead one is dead. Secrets are only ever held
// as their sha256: the plain value exists in the minted URL alone (docs/spec.md sections 7, 12).
import { hashSecret } from './secrets.js'

export type RetiredReason = 'used' | 'revoked'

/** Remembering why a secret died lets the 410 page say "already used" instead of a shrug. */
const RETIRED_KEPT = 4096

export class SecretLedger<T> {
  readonly #live = new Map<string, T>()
  readonly #retired = new Map<string, RetiredReason>()

  add (secret: string, owner: T): string {
    const hash = hashSecret(secret)
    this.#live.set(hash, owner)
    return hash
  }

  get (secret: string): T | undefined {
    return this.#live.get(hashSecret(secret))
  }

  /** Why a secret that is not live stopped working, if it ever existed. */
  retiredReason (secret: string): RetiredReason | undefined {
    return this.#retired.get(hashSecret(secret))
  }

  retire (hash: string | undefined, reason: RetiredReason): void {
    if (!hash || !this.#live.delete(hash)) return
    this.#retired.set(hash, reason)
    if (this.#retired.size > RETIRED_KEPT) {
      const oldest = this.#retired.keys().next().value
      if (oldest !== undefined) this.#retired.delete(oldest)
    }
  }
}
