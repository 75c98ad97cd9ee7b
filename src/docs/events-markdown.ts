// The event tables of the documentation, rendered from the schemas that type the payloads
// (src/schemas/events.ts for GET /v1/events and the webhook, src/schemas/lifecycle.ts for the
// host's own transitions), so a document cannot drift from what the host sends.
import type { TSchema } from 'typebox'
import { EVENT_DATA, GapData, GAP_EVENT } from '../schemas/events.js'
import { TRANSITIONS } from '../schemas/lifecycle.js'

interface Shape { properties?: Record<string, Shape>, required?: string[], const?: unknown, enum?: unknown[], anyOf?: Shape[], description?: string }

function field (name: string, s: Shape, required: boolean): string {
  const choices = s.enum ?? (s.anyOf?.every((a) => a.const !== undefined) ? s.anyOf.map((a) => a.const) : undefined)
  const shown = choices && choices.length <= 4 ? `${name}: ${choices.map((v) => JSON.stringify(v)).join('\\|')}` : name
  return required ? shown : `${shown}?`
}

/** `{a, b?, c: "x"|"y"}`: the fields of an object schema, `?` marking the optional ones. */
export function shapeOf (schema: TSchema): string {
  const s = schema as Shape
  const required = new Set(s.required ?? [])
  return `\`{${Object.entries(s.properties ?? {}).map(([name, f]) => field(name, f, required.has(name))).join(', ')}}\``
}

function table (entries: Array<[string, TSchema]>): string {
  const rows = entries.map(([type, schema]) => `| \`${type}\` | ${shapeOf(schema)} | ${(schema as Shape).description ?? ''} |`)
  return ['| type | `data` | meaning |', '|---|---|---|', ...rows].join('\n')
}

export const EVENTS_START = '<!-- events: rendered from src/schemas/events.ts by npm run docs:api -->'
export const EVENTS_END = '<!-- /events -->'
export const TRANSITIONS_START = '<!-- transitions: rendered from src/schemas/lifecycle.ts by npm run docs:api -->'
export const TRANSITIONS_END = '<!-- /transitions -->'

export function renderEventTable (): string {
  return table([...Object.entries(EVENT_DATA), [GAP_EVENT, GapData]])
}

export function renderTransitionTable (): string {
  return table(Object.entries(TRANSITIONS))
}

function between (doc: string, start: string, end: string, body: string, what: string): string {
  const a = doc.indexOf(start)
  const b = doc.indexOf(end)
  if (a < 0 || b < a) throw new Error(`${what} has lost its markers ${start}`)
  return `${doc.slice(0, a + start.length)}\n${body}\n${doc.slice(b)}`
}

/** docs/api-guide.md with its event table replaced by the one the schemas give. */
export function withEventTable (doc: string): string {
  return between(doc, EVENTS_START, EVENTS_END, renderEventTable(), 'docs/api-guide.md')
}

/** docs/architecture.md with its transition table replaced by the one the schemas give. */
export function withTransitionTable (doc: string): string {
  return between(doc, TRANSITIONS_START, TRANSITIONS_END, renderTransitionTable(), 'docs/architecture.md')
}
