import { createHmac } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { request } from 'undici'
import type { HostEvent } from '../core/event-journal.js'

// Events POSTed to AFHTTP_WEBHOOK_URL (docs/spec.md section 15): signed, in order, retried with
// backoff a bounded number of times, in the background. A receiver that hangs or fails
// costs the host a bounded queue and one connection, never a delayed fetch or panel.

export const WEBHOOK_QUEUE_MAX = 1_000
export const WEBHOOK_ATTEMPTS = 5
export const WEBHOOK_TIMEOUT_MS = 5_000
/** Waits before attempts 2..5: about two and a half minutes in all, then the event is given up. */
export const WEBHOOK_BACKOFF_MS: readonly number[] = [1_000, 5_000, 30_000, 120_000]

export interface WebhookStats { delivered: number, failed: number, dropped: number, retried: number, queued: number }

/** `sha256=<hex HMAC-SHA256 of the body>`, the afhttp-signature header. */
export function signWebhookBody (body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`
}

export function startWebhook (app: FastifyInstance, opts: { url: string, secret: string, backoffMs?: readonly number[] }): { stats: () => WebhookStats } {
  const backoff = opts.backoffMs ?? WEBHOOK_BACKOFF_MS
  const queue: HostEvent[] = []
  const stats = { delivered: 0, failed: 0, dropped: 0, retried: 0 }
  let running = false
  let closed = false
  const aborter = new AbortController()

  const wait = (ms: number): Promise<void> => new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    timer.unref()
    aborter.signal.addEventListener('abort', () => { clearTimeout(timer); resolve() }, { once: true })
  })

  /** One attempt; the reason it failed, or undefined. The URL and body are never logged (the body holds panel URLs). */
  async function attempt (event: HostEvent, body: string): Promise<string | undefined> {
    try {
      const res = await request(opts.url, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'afhttp-signature': signWebhookBody(body, opts.secret), 'afhttp-event-id': String(event.id), 'afhttp-event-type': event.type },
        headersTimeout: WEBHOOK_TIMEOUT_MS,
        bodyTimeout: WEBHOOK_TIMEOUT_MS,
        signal: AbortSignal.any([aborter.signal, AbortSignal.timeout(WEBHOOK_TIMEOUT_MS)])
      })
      await res.body.dump()
      return res.statusCode >= 200 && res.statusCode < 300 ? undefined : `HTTP ${res.statusCode}`
    } catch (err) {
      return (err as Error).name === 'TimeoutError' ? 'timed out' : (err as { code?: string }).code ?? (err as Error).name
    }
  }

  async function deliver (event: HostEvent): Promise<void> {
    const body = JSON.stringify(event)
    for (let i = 0; i < WEBHOOK_ATTEMPTS && !closed; i++) {
      if (i > 0) {
        stats.retried += 1
        await wait(backoff[Math.min(i - 1, backoff.length - 1)])
        if (closed) break
      }
      const problem = await attempt(event, body)
      if (!problem) { stats.delivered += 1; return }
      app.log.debug({ event_id: event.id, event_type: event.type, attempt: i + 1, problem }, 'webhook delivery attempt failed')
    }
    stats.failed += 1
    app.log.warn({ event_id: event.id, event_type: event.type, attempts: WEBHOOK_ATTEMPTS }, 'webhook delivery failed; the event stays in GET /v1/events')
  }

  async function drain (): Promise<void> {
    running = true
    try {
      while (queue.length && !closed) await deliver(queue.shift()!)
    } finally { running = false }
  }

  app.events.subscribe((event) => {
    if (closed) return
    if (queue.length >= WEBHOOK_QUEUE_MAX) { queue.shift(); stats.dropped += 1 }
    queue.push(event)
    if (!running) drain().catch((err: unknown) => app.log.error({ err }, 'webhook queue failed'))
  })
  app.addHook('onClose', async () => { closed = true; aborter.abort() })
  return { stats: () => ({ ...stats, queued: queue.length }) }
}
