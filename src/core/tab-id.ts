import { randomBytes } from 'node:crypto'

/** Opaque, unguessable tab ids: they are handles, not secrets, but must not be enumerable. */
export function newTabId (): string {
  return `tab_${randomBytes(12).toString('base64url')}`
}

export const TAB_ID_RE = /^tab_[A-Za-z0-9_-]{16}$/
