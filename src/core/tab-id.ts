import { randomBytes } from 'node:crypto'

/** Opaque, unguessable tab ids (their shape is TAB_ID_RE in src/schemas/common.ts): they are handles, not secrets, but must not be enumerable. */
export function newTabId (): string {
  return `tab_${randomBytes(12).toString('base64url')}`
}

