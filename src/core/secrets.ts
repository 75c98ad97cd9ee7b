import { createHash, randomBytes } from 'node:crypto'

/** 256 random bits, URL-safe: panel secrets and handoff fences. */
export function newSecret (): string {
  return randomBytes(32).toString('base64url')
}

export function newFence (): string {
  return `hf_${randomBytes(16).toString('base64url')}`
}

/** Secrets are stored only as this hash; the plain value lives in the minted URL alone. */
export function hashSecret (secret: string): string {
  return createHash('sha256').update(secret).digest('hex')
}
