// GET /v1/events (docs/spec.md section 15): the query of the server-sent event stream, and the `data` of
// each public event type. docs/api-guide.md renders its event table from EVENT_DATA
// (src/docs/events-markdown.ts), so the document cannot drift from what the host publishes.
import { Type, type Static, type TSchema } from 'typebox'
import { CLOSED, described, OPEN } from './common.js'
import { HandoffSummary } from './handoff.js'
import { TRANSITIONS } from './lifecycle.js'

export const EventsQuery = Type.Object({
  /** For clients that cannot set headers (a browser's EventSource on first connect). */
  last_event_id: Type.Optional(Type.String({ maxLength: 32 })),
  /** A query string is text (no type coercion here): digits, checked for range by the route. */
  heartbeat_ms: Type.Optional(Type.String({ pattern: '^\\d{4,5}$' }))
}, CLOSED)
export type EventsQuery = Static<typeof EventsQuery>

const { reason: _reason, ...mintedFields } = TRANSITIONS['handoff.opened'].properties
const Minted = Type.Object({
  ...mintedFields,
  takeover_url_secret: Type.Optional(Type.String({ description: 'the panel URL, while it can still be exchanged; never logged' })),
  takeover_url_state: Type.Optional(Type.Enum(['used', 'revoked', 'finished', 'expired', 'unknown'], { description: 'replaces the URL in the journal once it cannot be exchanged' }))
}, OPEN)
const Ending = Type.Omit(HandoffSummary, ['tab_id'])

/** The `data` of each event type a driver or webhook receives (docs/spec.md section 15). */
export const EVENT_DATA = {
  'handoff.opened': described(Minted, 'a handoff began; the panel URL is for the person'),
  'handoff.url_reissued': described(Minted, 'a second mint of an open handoff: a fresh URL (the earlier unused one is revoked)'),
  'handoff.viewer_joined': described(Type.Object({ handoff_fence: Type.String(), viewers: Type.Number() }, OPEN), 'a panel connected'),
  'handoff.control': described(Type.Object({ handoff_fence: Type.String(), controller: TRANSITIONS['handoff.control'].properties.controller, generation: Type.Number(), state: TRANSITIONS['handoff.control'].properties.state }, OPEN), 'controller and generation changed'),
  'handoff.finished': described(Ending, 'the handoff summary: finish_reason, human_note, outcome'),
  'handoff.expired': described(Ending, 'the summary, state expired (announced by the host\'s timer at the expiry)'),
  'handoff.revoked': described(Ending, 'the summary, state revoked, finish_reason tab_closed, browser_lost or shutdown'),
  'tab.opened': described(TRANSITIONS['tab.opened'], 'a tab the host tracks, popups with their opener'),
  'tab.closed': described(TRANSITIONS['tab.closed'], 'a tab left the inventory'),
  'browser.lost': described(TRANSITIONS['browser.lost'], 'the profile\'s browser went away without the host asking'),
  'browser.started': described(TRANSITIONS['browser.started'], 'the profile\'s browser started')
} satisfies Record<string, TSchema>

export const EVENT_TYPES = Object.keys(EVENT_DATA) as Array<keyof typeof EVENT_DATA>
export type EventType = keyof typeof EVENT_DATA
export type EventData<K extends EventType> = Static<typeof EVENT_DATA[K]>

export const GAP_EVENT = 'events.gap'
export const GapData = Type.Object({
  last_event_id: Type.Number(),
  oldest_event_id: Type.Union([Type.Number(), Type.Null()]),
  reason: Type.Enum(['journal_exceeded', 'unknown_event_id']),
  action: Type.String()
}, { description: 'the client missed events: re-read state' })
