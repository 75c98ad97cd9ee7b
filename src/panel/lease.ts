// UI leases (docs/spec.md section 7): what a panel's cookie stands for after the one-time
// secret was exchanged. Short, renewed by the open panel, never past the handoff's
// expiry. The cookie value is a fresh random token; only its hash is kept here.
import { hashSecret, newSecret } from '../core/secrets.js'
import type { HandoffMode } from '../core/handoff.js'

export const LEASE_MS = 60_000

export interface Lease {
  readonly tabId: string
  /** The handoff the lease was issued under; a later handoff of the tab needs a new link. */
  readonly fence: string
  /** `view`: the host refuses this lease control, Done, decline and input (docs/spec.md section 7). */
  readonly mode: HandoffMode
  readonly issuedAt: number
  expiresAt: number
  /** WebSocket connections opened under this lease so far (the first may take control). */
  connections: number
}

/** The lease cookie of a tab. One per tab, so one browser can hold panels for several tabs. */
export function leaseCookieName (tabId: string): string {
  return `afhttp_lease_${tabId}`
}

export class LeaseBook {
  readonly #byHash = new Map<string, Lease>()

  issue (tabId: string, fence: string, now: number, holdUntil: number, mode: HandoffMode = 'control'): { token: string, lease: Lease } {
    this.#prune(now)
    const token = newSecret()
    const lease: Lease = { tabId, fence, mode, issuedAt: now, expiresAt: Math.min(now + LEASE_MS, holdUntil), connections: 0 }
    this.#byHash.set(hashSecret(token), lease)
    return { token, lease }
  }

  /** The unexpired lease behind a cookie value, if it was issued for this tab. */
  find (token: string | undefined, tabId: string, now: number): Lease | undefined {
    if (!token) return undefined
    const lease = this.#byHash.get(hashSecret(token))
    if (!lease || lease.tabId !== tabId || now >= lease.expiresAt) return undefined
    return lease
  }

  renew (lease: Lease, now: number, holdUntil: number): void {
    lease.expiresAt = Math.max(lease.expiresAt, Math.min(now + LEASE_MS, holdUntil))
  }

  /** Every lease of a tab dies with its handoff. */
  revokeTab (tabId: string): void {
    for (const [hash, lease] of this.#byHash) if (lease.tabId === tabId) this.#byHash.delete(hash)
  }

  get size (): number { return this.#byHash.size }

  #prune (now: number): void {
    for (const [hash, lease] of this.#byHash) if (now >= lease.expiresAt) this.#byHash.delete(hash)
  }
}
