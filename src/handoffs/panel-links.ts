// The two panel links a handoff can have (control and view), each usable once, held only as
// hashes (docs/spec.md sections 7 and 12). Pure bookkeeping over the secret ledger; no I/O.
import { hashSecret, newSecret } from '../core/secrets.js'
import { SecretLedger } from '../core/secret-ledger.js'
import { handoffState, type Handoff, type HandoffMode } from '../core/handoff.js'
import type { SecretProblem } from './service.js'

export class PanelLinks {
  readonly #ledger = new SecretLedger<Handoff>()

  /** A fresh secret for `mode`; the unused link of that mode dies (one usable link per mode). */
  issue (h: Handoff, mode: HandoffMode): string {
    this.revoke(h, mode)
    const secret = newSecret()
    if (mode === 'view') {
      h.viewSecretHash = this.#ledger.add(secret, h)
    } else {
      h.secretHash = this.#ledger.add(secret, h)
      h.secretUsed = false
    }
    return secret
  }

  /** Kills the handoff's live links: both, or only the one of `mode`. */
  revoke (h: Handoff, mode?: HandoffMode): void {
    if (mode !== 'view') {
      this.#ledger.retire(h.secretHash, 'revoked')
      h.secretHash = undefined
    }
    if (mode !== 'control') {
      this.#ledger.retire(h.viewSecretHash, 'revoked')
      h.viewSecretHash = undefined
    }
  }

  peek (secret: string): Handoff | undefined {
    return this.#ledger.get(secret)
  }

  mode (secret: string): HandoffMode | undefined {
    const h = this.#ledger.get(secret)
    if (!h) return undefined
    return h.viewSecretHash !== undefined && h.viewSecretHash === hashSecret(secret) ? 'view' : 'control'
  }

  /** Why `secret` cannot be exchanged at `now`, or undefined when it can. */
  problem (secret: string, now: number): SecretProblem | undefined {
    const h = this.#ledger.get(secret)
    if (!h) return this.#ledger.retiredReason(secret) ?? 'unknown'
    if (h.secretUsed && this.mode(secret) === 'control') return 'used'
    const state = handoffState(h, now)
    if (state === 'expired') return 'expired'
    if (state === 'finished' || state === 'revoked') return 'finished'
    return undefined
  }

  /** Spends a live secret: afterwards it answers `used`. The caller checked `problem` first. */
  consume (secret: string, h: Handoff): void {
    if (this.mode(secret) === 'view') {
      this.#ledger.retire(h.viewSecretHash, 'used')
      h.viewSecretHash = undefined
      return
    }
    h.secretUsed = true
    this.#ledger.retire(h.secretHash, 'used')
    h.secretHash = undefined
  }
}
