// The event journal of SPEC section 15. Pure: the clock is passed in. Ids increase by one
// per event and start at the host's start time in ms, so a host restarted later continues
// above every id it handed out before: an id from an earlier run reads as "before the journal".
import type { Clock } from './clock.js'

export const EVENT_TYPES = [
  'handoff.opened', 'handoff.url_reissued', 'handoff.viewer_joined', 'handoff.control', 'handoff.finished',
  'handoff.expired', 'handoff.revoked', 'tab.opened', 'tab.closed', 'browser.lost', 'browser.started'
] as const
export type EventType = typeof EVENT_TYPES[number]
export const GAP_EVENT = 'events.gap'
import { EVENT_JOURNAL_MAX } from '../limits.js'
export { EVENT_JOURNAL_MAX }

export interface HostEvent {
  id: number
  type: EventType | typeof GAP_EVENT
  at: string
  tab_id?: string
  profile?: string
  data: Record<string, unknown>
}

export interface EventInput { type: EventType, tab_id?: string, profile?: string, data?: Record<string, unknown> }

export interface Resumption {
  /** Present when `lastId` predates the journal: the client missed events and must re-read state. */
  gap?: HostEvent
  events: HostEvent[]
}

export class EventJournal {
  readonly #events: HostEvent[] = []
  #nextId: number

  constructor (private readonly clock: Clock, private readonly max = EVENT_JOURNAL_MAX, firstId = clock.now()) {
    this.#nextId = firstId
  }

  append (input: EventInput): HostEvent {
    const event: HostEvent = {
      id: this.#nextId++,
      type: input.type,
      at: new Date(this.clock.now()).toISOString(),
      ...(input.tab_id !== undefined ? { tab_id: input.tab_id } : {}),
      ...(input.profile !== undefined ? { profile: input.profile } : {}),
      data: input.data ?? {}
    }
    this.#events.push(event)
    if (this.#events.length > this.max) this.#events.splice(0, this.#events.length - this.max)
    return event
  }

  /** The id of the newest event handed out (one below the first id when there is none). */
  get lastId (): number { return this.#nextId - 1 }

  get size (): number { return this.#events.length }

  /** The journaled events, oldest first (sources redact spent panel URLs in place). */
  recent (): readonly HostEvent[] { return this.#events }

  /** What a client that last saw `lastId` must receive, in order; undefined: it starts live. */
  resume (lastId: number | undefined): Resumption {
    if (lastId === undefined || lastId === this.lastId) return { events: [] }
    const oldest = this.#events[0]?.id ?? this.#nextId
    // Inside the journal: exactly what came after. Before it, or an id this host never gave
    // (a future one, from another host): a gap, then whatever the journal still holds.
    if (lastId >= oldest - 1 && lastId < this.lastId) return { events: this.#events.filter((e) => e.id > lastId) }
    const gap: HostEvent = {
      id: oldest - 1,
      type: GAP_EVENT,
      at: new Date(this.clock.now()).toISOString(),
      data: { last_event_id: lastId, oldest_event_id: this.#events[0]?.id ?? null, reason: lastId > this.lastId ? 'unknown_event_id' : 'journal_exceeded', action: 're-read state: GET /v1/tabs and each handoff summary' }
    }
    return { gap, events: [...this.#events] }
  }
}

/** The Last-Event-ID header (or `last_event_id` query) as a number; `invalid` for anything else. */
export function parseLastEventId (value: unknown): number | undefined | 'invalid' {
  if (value === undefined || value === '') return undefined
  if (typeof value !== 'string' || !/^\d{1,16}$/.test(value)) return 'invalid'
  return Number(value)
}

/** One event in server-sent-event framing; the data line is the whole event as JSON. */
export function formatSse (event: HostEvent): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`
}
