// Request helpers shared by the panel's routes: origin checks and security headers.
import type { FastifyReply, FastifyRequest } from 'fastify'

/**
 * Same-origin: the request's Origin is the public URL's origin, or the origin the
 * browser used to reach this host (Host header, public URL's scheme). Browsers always
 * send Origin on WebSocket upgrades and cross-origin or POST fetches.
 */
export function sameOrigin (req: FastifyRequest, publicUrl: string): boolean {
  const origin = req.headers.origin
  if (typeof origin !== 'string' || origin === 'null') return false
  const pub = new URL(publicUrl)
  if (origin === pub.origin) return true
  const host = req.headers.host
  return typeof host === 'string' && origin === `${pub.protocol}//${host}`
}

/** Nothing in the panel may be cached, framed by other sites, or leak its URL as a referrer. */
export function noStore (reply: FastifyReply, csp?: string): FastifyReply {
  reply.header('cache-control', 'no-store')
  reply.header('referrer-policy', 'no-referrer')
  reply.header('x-content-type-options', 'nosniff')
  reply.header('x-robots-tag', 'noindex')
  if (csp) reply.header('content-security-policy', csp)
  return reply
}

export function sendHtml (reply: FastifyReply, status: number, html: string, csp: string): FastifyReply {
  return noStore(reply, csp).code(status).type('text/html; charset=utf-8').send(html)
}
