// GET /v1/events (SPEC section 15): the query of the server-sent event stream.
import { Type, type Static } from 'typebox'
import { CLOSED } from './common.js'

export const EventsQuery = Type.Object({
  /** For clients that cannot set headers (a browser's EventSource on first connect). */
  last_event_id: Type.Optional(Type.String({ maxLength: 32 })),
  /** A query string is text (no type coercion here): digits, checked for range by the route. */
  heartbeat_ms: Type.Optional(Type.String({ pattern: '^\\d{4,5}$' }))
}, CLOSED)
export type EventsQuery = Static<typeof EventsQuery>
