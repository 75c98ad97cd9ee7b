// The operator's inbox cookie (docs/spec.md section 20). The operator token is exchanged once at
// /inbox/login for this cookie; the cookie is worth the inbox only, never the API.
//
// Stateless by design: the value is `<expiry>.<nonce>.<mac>`, an HMAC under a key derived from
// AFHTTP_OPERATOR_TOKEN. A restarted host still knows a phone that logged in yesterday (a push
// opens the inbox; it must not meet a login page), and rotating the token logs every browser out.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

export const OPERATOR_COOKIE = 'afhttp_operator'

/** The routes only a signed-in operator reaches (the inbox's JSON API); the page and the login are open. */
export function requiresOperatorSession (url: string): boolean {
  return url.split('?')[0].startsWith('/inbox/api/')
}

function keyOf (operatorToken: string): Buffer {
  // A derived key, so the cookie's MAC is no oracle for the token itself.
  return createHash('sha256').update('afhttp operator session\0').update(operatorToken).digest()
}

function macOf (operatorToken: string, body: string): string {
  return createHmac('sha256', keyOf(operatorToken)).update(body).digest('base64url')
}

/** A fresh cookie value valid until `now + lifetimeMs`. */
export function issueOperatorSession (operatorToken: string, now: number, lifetimeMs: number): { value: string, expiresAt: number } {
  const expiresAt = now + lifetimeMs
  const body = `${expiresAt.toString(36)}.${randomBytes(12).toString('base64url')}`
  return { value: `${body}.${macOf(operatorToken, body)}`, expiresAt }
}

/** Whether a cookie value was issued under `operatorToken` and has not expired at `now`. */
export function operatorSessionValid (operatorToken: string, value: string | undefined, now: number): boolean {
  if (typeof value !== 'string' || value.length > 200) return false
  const parts = value.split('.')
  if (parts.length !== 3) return false
  const [exp, nonce, mac] = parts
  const expiresAt = parseInt(exp, 36)
  if (!Number.isSafeInteger(expiresAt) || now >= expiresAt || !/^[A-Za-z0-9_-]{8,}$/.test(nonce)) return false
  const want = Buffer.from(macOf(operatorToken, `${exp}.${nonce}`))
  const got = Buffer.from(mac)
  return want.length === got.length && timingSafeEqual(want, got)
}
