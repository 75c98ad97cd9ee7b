import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { EventJournal, type EventInput, type HostEvent, type SealedUrl } from '../core/event-journal.js'
import { wireEventSources } from './sources.js'
import { startWebhook, type WebhookStats } from './webhook.js'

export interface EventService {
  /**
   * Journals an event and hands it to every subscriber (streams, webhook); never blocks. A
   * `sealed` panel URL reaches the subscribers now and journal readers only while it works.
   */
  publish (input: EventInput, sealed?: SealedUrl): HostEvent
  subscribe (fn: (event: HostEvent) => void): () => void
  readonly journal: EventJournal
  /** Live subscribers (open streams, the webhook). */
  subscribers (): number
  /** Delivery counts of the webhook, or undefined when none is configured. */
  webhookStats (): WebhookStats | undefined
}

declare module 'fastify' {
  interface FastifyInstance {
    events: EventService
  }
}

/** The event stream of docs/spec.md section 15: one journal, live subscribers, the optional webhook. */
async function eventsPlugin (app: FastifyInstance, opts: { webhookBackoffMs?: readonly number[] }): Promise<void> {
  const journal = new EventJournal(app.clock)
  const subscribers = new Set<(event: HostEvent) => void>()
  let webhook: { stats: () => WebhookStats } | undefined
  const service: EventService = {
    publish (input, sealed) {
      const event = journal.append({ ...input, data: input.data as Record<string, unknown> }, sealed)
      for (const fn of subscribers) {
        try { fn(event) } catch (err) { app.log.error({ err, event_type: event.type }, 'event subscriber failed') }
      }
      return event
    },
    subscribe (fn) {
      subscribers.add(fn)
      return () => { subscribers.delete(fn) }
    },
    journal,
    subscribers: () => subscribers.size,
    webhookStats: () => webhook?.stats()
  }
  app.decorate('events', service)
  wireEventSources(app)
  if (app.config.webhookUrl && app.config.webhookSecret) {
    webhook = startWebhook(app, { url: app.config.webhookUrl, secret: app.config.webhookSecret, backoffMs: opts.webhookBackoffMs })
  }
}

export default fp(eventsPlugin, { name: 'afhttp-events', dependencies: ['afhttp-tabs', 'afhttp-handoffs', 'afhttp-lifecycle'] })
