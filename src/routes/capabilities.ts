import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { answers, Capabilities } from '../schemas/index.js'
import { API_VERSION, VERSION } from '../version.js'
import { EVENT_JOURNAL_MAX, IDEMPOTENCY_MAX_BYTES, IDEMPOTENCY_MAX_KEYS, IDEMPOTENCY_TTL_MS, PUBLIC_LIMITS, SSE_CLIENTS_MAX } from '../limits.js'
import { EVENT_TYPES } from '../core/event-journal.js'
import { SSE_HEARTBEAT_MS } from './events.js'
import { WEBHOOK_ATTEMPTS, WEBHOOK_QUEUE_MAX, WEBHOOK_TIMEOUT_MS } from '../events/webhook.js'
import { HANDOFF_MODES } from '../schemas/handoff.js'
import { WAIT_STRATEGIES } from '../core/wait-strategy.js'

export const CAPTURES = ['html', 'text', 'screenshot']
/** What the host enforces, read from the one limits module (src/limits.ts). */
export const LIMITS = PUBLIC_LIMITS

async function defaultBackend (app: FastifyInstance): Promise<string> {
  try {
    return (await app.profiles.get(app.config.defaultProfile)).backend
  } catch {
    return 'chromium'
  }
}

/** Public and static: what this host is configured to do, never live state or secrets. */
export default async function capabilitiesRoutes (app: FastifyInstance): Promise<void> {
  app.withTypeProvider<TypeBoxTypeProvider>().get('/capabilities', { schema: { summary: 'What this host is configured to do (public)', response: answers({ 200: Capabilities }) } }, async () => ({
    service: 'afhttp',
    version: VERSION,
    api_version: API_VERSION,
    // The default profile's configured backend (its metadata), not whether it is running.
    takeover: { configured: true, backend: await defaultBackend(app), provider: 'afhttp-panel' },
    // docs/spec.md section 13: what kind of Chromium a person is handed (resolved at start; auto may fall back).
    browser_mode: app.config.browser.mode,
    browser_mode_configured: app.config.browserModeConfigured,
    wait_strategies: [...WAIT_STRATEGIES],
    captures: CAPTURES,
    handoff_modes: HANDOFF_MODES,
    // Keys live in memory only: a restarted host has forgotten them (docs/spec.md section 5).
    idempotency: { header: 'Idempotency-Key', routes: ['POST /v1/fetch', 'POST /v1/tabs/:tab_id/handoff'], ttl_ms: IDEMPOTENCY_TTL_MS, keys_max: IDEMPOTENCY_MAX_KEYS, answers_bytes_max: IDEMPOTENCY_MAX_BYTES, survives_restart: false },
    events: {
      route: 'GET /v1/events',
      types: EVENT_TYPES,
      journal_max: EVENT_JOURNAL_MAX,
      streams_max: SSE_CLIENTS_MAX,
      heartbeat_ms: SSE_HEARTBEAT_MS,
      // Whether a webhook is configured, never where it points.
      webhook: { configured: app.config.webhookUrl !== undefined, attempts: WEBHOOK_ATTEMPTS, timeout_ms: WEBHOOK_TIMEOUT_MS, queue_max: WEBHOOK_QUEUE_MAX }
    },
    limits: { ...LIMITS, handoff_hold_ms_max: app.config.handoffHoldMs, tab_idle_ms: app.config.tabIdleMs }
  }))
}
