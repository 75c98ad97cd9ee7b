// Sends one notification to every subscribed browser (docs/spec.md section 20) with the web-push
// library: VAPID-signed, aes128gcm-encrypted. A push service answering 404 or 410 says the
// subscription is gone for good: it is removed. Other failures are logged and counted, never
// retried here (the inbox itself is the reliable channel; a push is a nudge).
import webPush from 'web-push'
import type { FastifyBaseLogger } from 'fastify'
import type { PushSubscriptions, StoredSubscription } from './push-store.js'
import type { VapidKeys } from './vapid.js'
import { PUSH_TIMEOUT_MS, PUSH_TTL_S } from '../limits.js'
import type { UrlDeny } from '../core/url-deny.js'
import { guardedAgent, literalDenied } from './guarded-agent.js'
import type { Agent } from 'node:https'

/** What a notification carries: enough to decide whether to look, never a panel secret. */
export interface PushPayload {
  type: 'handoff.opened'
  title: string
  body: string
  profile: string
  reason: string
  instructions: string | null
  /** Where a tap leads: the inbox (which needs its cookie), never the panel. */
  url: string
}

/** `denied`: not sent, because the push service's address is one AFHTTP_URL_DENY refuses. */
export interface PushStats { sent: number, failed: number, removed: number, denied: number }

/** Gone for good (RFC 8030 section 7.3; 404 is what FCM answers for an unknown one). */
export const isGone = (status: number | undefined): boolean => status === 404 || status === 410

/** The notification of a new handoff: text only, built from the handoff's public fields. */
export function handoffPayload (h: { profile: string, reason: string, instructions: string | null }, inboxUrl: string): PushPayload {
  const body = h.instructions ?? `A page needs a person (${h.reason}).`
  return { type: 'handoff.opened', title: `afhttp: a person is needed on ${h.profile}`, body, profile: h.profile, reason: h.reason, instructions: h.instructions, url: inboxUrl }
}

export class PushSender {
  readonly stats: PushStats = { sent: 0, failed: 0, removed: 0, denied: 0 }
  readonly #agent: Agent | undefined

  constructor (
    private readonly store: PushSubscriptions,
    private readonly keys: VapidKeys,
    private readonly subject: string,
    private readonly log: FastifyBaseLogger,
    private readonly deny?: UrlDeny
  ) {
    this.#agent = deny ? guardedAgent(deny) : undefined
  }

  /** Pushes `payload` to every subscription at once; resolves when each has answered. */
  async sendAll (payload: PushPayload): Promise<void> {
    await Promise.all(this.store.list().map((sub) => this.#send(sub, payload)))
  }

  async #send (sub: StoredSubscription, payload: PushPayload): Promise<void> {
    // The endpoint names the browser's push-service channel: log its origin only.
    const { origin: service, hostname } = new URL(sub.endpoint)
    if (literalDenied(hostname, this.deny)) {
      this.stats.denied += 1
      this.log.warn({ push_service: service }, 'push notification not sent: AFHTTP_URL_DENY refuses the push service\'s address')
      return
    }
    try {
      await webPush.sendNotification({ endpoint: sub.endpoint, keys: sub.keys }, JSON.stringify(payload), {
        vapidDetails: { subject: this.subject, publicKey: this.keys.publicKey, privateKey: this.keys.privateKey },
        TTL: PUSH_TTL_S,
        urgency: 'high',
        contentEncoding: 'aes128gcm',
        timeout: PUSH_TIMEOUT_MS,
        ...(this.#agent ? { agent: this.#agent } : {})
      })
      this.stats.sent += 1
    } catch (err) {
      if ((err as { code?: string }).code === 'EAFHTTPDENIED') {
        this.stats.denied += 1
        this.log.warn({ push_service: service }, 'push notification not sent: AFHTTP_URL_DENY refuses the push service\'s address')
        return
      }
      const status = (err as { statusCode?: number }).statusCode
      if (isGone(status)) {
        this.stats.removed += 1
        await this.store.remove(sub.endpoint).catch((e: unknown) => this.log.error({ err: e }, 'a gone push subscription could not be removed from disk'))
        this.log.info({ push_service: service, status }, 'push subscription is gone; removed')
        return
      }
      this.stats.failed += 1
      this.log.warn({ push_service: service, status, error: (err as Error).message }, 'push notification failed')
    }
  }
}
