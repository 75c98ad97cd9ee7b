// The operator inbox's own API (docs/spec.md section 20): called by an operator's browser with the
// inbox cookie (`afhttp_operator`, scoped to /inbox), never with the API token. The shapes live
// here once: the routes validate and serialize with them and the OpenAPI document lists them.
import { Type, type Static } from 'typebox'
import { PUSH_ENDPOINT_MAX_CHARS } from '../limits.js'
import { CLOSED, Nullable, OPEN } from './common.js'
import { Controller, FinishReason, HandoffMode, HandoffState } from './handoff.js'

/** GET /inbox/login: the operator token, once; it leaves the address bar by a redirect. */
export const InboxLoginQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 512 })) })

/** One open handoff as an operator sees it: enough to decide, no secret. */
export const InboxHandoff = Type.Object({
  tab_id: Type.String(),
  profile: Type.String(),
  reason: Type.String({ description: 'why a person is needed: the fetch\'s takeover reason (`challenge`, `denied`, …), or `requested` when a driver minted the link itself' }),
  instructions: Nullable(Type.String(), { description: 'the driver\'s words for the person, plain text (the page shows them as text)' }),
  title: Nullable(Type.String()),
  origin: Nullable(Type.String({ description: 'scheme://host[:port] of the page, never its full URL' })),
  opened_at: Type.String(),
  expires_at: Type.String(),
  viewers: Type.Number({ description: 'panels open on it right now' }),
  state: HandoffState,
  controller: Controller
}, OPEN)
export type InboxHandoff = Static<typeof InboxHandoff>

/** A handoff that ended a moment ago, so the operator sees how it went. */
export const InboxEnded = Type.Object({
  tab_id: Type.String(),
  profile: Type.String(),
  reason: Type.String(),
  title: Nullable(Type.String()),
  origin: Nullable(Type.String()),
  opened_at: Type.String(),
  ended_at: Type.String(),
  state: HandoffState,
  finish_reason: Type.Optional(FinishReason)
}, OPEN)
export type InboxEnded = Static<typeof InboxEnded>

/** GET /inbox/api/handoffs (and each `inbox` event of /inbox/api/stream). */
export const InboxList = Type.Object({
  now: Type.String({ description: 'the host\'s clock, for ages and countdowns' }),
  handoffs: Type.Array(InboxHandoff, { description: 'open handoffs, oldest first' }),
  ended: Type.Array(InboxEnded, { description: 'handoffs that ended in the last few minutes, newest first' })
}, OPEN)
export type InboxList = Static<typeof InboxList>

const TakeOptions = Type.Object({ mode: Type.Optional(HandoffMode) }, CLOSED)
/** POST /inbox/api/handoffs/:tab_id/take: `control` (default) or a `view` link; no body takes control. */
export const InboxTakeBody = Type.Unsafe<Static<typeof TakeOptions> | null>({ ...TakeOptions, type: ['object', 'null'] })
export const InboxTake = Type.Object({
  takeover_url_secret: Type.String({ description: 'a fresh panel link: open it at once (it works once)' }),
  mode: HandoffMode,
  expires_at: Type.String()
}, OPEN)
export type InboxTake = Static<typeof InboxTake>

/** GET /inbox/api/push-key: the VAPID public key a browser subscribes with. */
export const InboxPushKey = Type.Object({ public_key: Type.String({ description: 'uncompressed P-256 point, base64url' }) }, OPEN)

const Base64Url = (min: number, max: number) => Type.String({ pattern: '^[A-Za-z0-9_-]+={0,2}$', minLength: min, maxLength: max })
/** POST /inbox/api/push-subscriptions: a browser's PushSubscription.toJSON(). */
export const PushSubscriptionBody = Type.Object({
  endpoint: Type.String({ pattern: '^https://[^\\s]+$', maxLength: PUSH_ENDPOINT_MAX_CHARS, description: 'the push service URL (push services speak only HTTPS)' }),
  expirationTime: Type.Optional(Nullable(Type.Number())),
  keys: Type.Object({
    p256dh: Base64Url(80, 100),
    auth: Base64Url(16, 32)
  }, CLOSED)
}, CLOSED)
export type PushSubscriptionBody = Static<typeof PushSubscriptionBody>
export const PushSubscribed = Type.Object({ subscribed: Type.Boolean() }, OPEN)

/** DELETE /inbox/api/push-subscriptions: this browser no longer wants notifications. */
export const PushUnsubscribeBody = Type.Object({ endpoint: Type.String({ maxLength: PUSH_ENDPOINT_MAX_CHARS }) }, CLOSED)
export const PushUnsubscribed = Type.Object({ removed: Type.Boolean() }, OPEN)
