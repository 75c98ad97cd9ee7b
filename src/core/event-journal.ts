// The event journal of docs/spec.md section 15. Pure: the clock is passed in. Ids increase by one
// per event and start at the host's start time in ms, so a host restarted later continues
// above every id it handed out before: an id from an earlier run reads as "before the journal".
import type { Clock } from './clock.js'
import { EVENT_TYPES, GAP_EVENT, type EventData, type EventType } from '../schemas/events.js'

// The public vocabulary lives once, in src/schemas/events.ts.
export { EVENT_TYPES, GAP_EVENT, type EventType }
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

/** What the event service publishes: each type with its own `data` (src/schemas/events.ts). */
export type EventInput = { [K in EventType]: { type: K, tab_id?: string, profile?: string, data: EventData<K> } }[EventType]
/** What the journal stores; the service checks the shape, the journal only numbers and keeps. */
export interface JournalInput { type: EventType, tab_id?: string, profile?: string, data?: Record<string, unknown> }

/**
 * A panel URL beside an event (docs/spec.md section 15: the stream and the webhook carry it). The
 * journal never stores it in the event: readers see it while `spent()` is undefined, and the
 * reason instead once it is not, so a late reader never gets a working secret it should not.
 */
export interface SealedUrl {
  readonly url: string
  /** Why the URL can no longer be exchanged (`used`, `revoked`, …), or undefined while it can. */
  spent (): string | undefined
}

export interface Resumption {
  /** Present when `lastId` predates the journal: the client missed events and must re-read state. */
  gap?: HostEvent
  events: HostEvent[]
}

export class EventJournal {
  readonly #events: HostEvent[] = []
  readonly #sealed = new Map<number, SealedUrl>()
  #nextId: number

  constructor (private readonly clock: Clock, private readonly max = EVENT_JOURNAL_MAX, firstId = clock.now()) {
    this.#nextId = firstId
  }

  /** Journals an event; what live subscribers receive (with the panel URL when one is sealed beside it). */
  append (input: JournalInput, sealed?: SealedUrl): HostEvent {
    const event: HostEvent = {
      id: this.#nextId++,
      type: input.type,
      at: new Date(this.clock.now()).toISOString(),
      ...(input.tab_id !== undefined ? { tab_id: input.tab_id } : {}),
      ...(input.profile !== undefined ? { profile: input.profile } : {}),
      data: { ...input.data }
    }
    this.#events.push(event)
    if (sealed) this.#sealed.set(event.id, sealed)
    if (this.#events.length > this.max) {
      for (const gone of this.#events.splice(0, this.#events.length - this.max)) this.#sealed.delete(gone.id)
    }
    return this.#view(event)
  }

  /** An event as a reader sees it now: the sealed URL while it works, its state once spent. */
  #view (event: HostEvent): HostEvent {
    const sealed = this.#sealed.get(event.id)
    if (!sealed) return event
    const spent = sealed.spent()
    return { ...event, data: { ...event.data, ...(spent === undefined ? { takeover_url_secret: sealed.url } : { takeover_url_state: spent }) } }
  }

  /** The id of the newest event handed out (one below the first id when there is none). */
  get lastId (): number { return this.#nextId - 1 }

  get size (): number { return this.#events.length }

  /** The journaled events, oldest first, as a reader sees them now. */
  recent (): readonly HostEvent[] { return this.#events.map((e) => this.#view(e)) }

  /** What a client that last saw `lastId` must receive, in order; undefined: it starts live. */
  resume (lastId: number | undefined): Resumption {
    if (lastId === undefined || lastId === this.lastId) return { events: [] }
    const oldest = this.#events[0]?.id ?? this.#nextId
    // Inside the journal: exactly what came after. Before it, or an id this host never gave
    // (a future one, from another host): a gap, then whatever the journal still holds.
    if (lastId >= oldest - 1 && lastId < this.lastId) return { events: this.recent().filter((e) => e.id > lastId) }
    const gap: HostEvent = {
      id: oldest - 1,
      type: GAP_EVENT,
      at: new Date(this.clock.now()).toISOString(),
      data: { last_event_id: lastId, oldest_event_id: this.#events[0]?.id ?? null, reason: lastId > this.lastId ? 'unknown_event_id' : 'journal_exceeded', action: 're-read state: GET /v1/tabs and each handoff summary' }
    }
    return { gap, events: this.recent() as HostEvent[] }
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
