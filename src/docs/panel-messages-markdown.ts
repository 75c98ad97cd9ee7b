// The "Panel → host" table of docs/panel.md, rendered from the messages' schemas
// (src/schemas/panel-messages.ts) so the document cannot drift from what the host accepts.
import type { TSchema } from 'typebox'
import { PANEL_MESSAGES } from '../schemas/panel-messages.js'

export const PANEL_MESSAGES_START = '<!-- panel-messages: rendered from src/schemas/panel-messages.ts by npm run docs:api -->'
export const PANEL_MESSAGES_END = '<!-- /panel-messages -->'

interface Shape { properties?: Record<string, Shape>, required?: string[], const?: unknown, enum?: unknown[], description?: string, maxLength?: number }

// A field's few allowed values are shown as the message takes them; anything else by its name.
function field (name: string, schema: Shape, required: boolean): string {
  const choices = schema.const !== undefined ? [schema.const] : schema.enum
  const shown = name === 't' || (choices && choices.length <= 3) ? `${name}:${(choices ?? []).map((v) => JSON.stringify(v)).join('\\|')}` : name
  return required ? shown : `${shown}?`
}

function shape (schema: TSchema): string {
  const s = schema as Shape
  const required = new Set(s.required ?? [])
  return `\`{${Object.entries(s.properties ?? {}).map(([name, f]) => field(name, f, required.has(name))).join(', ')}}\``
}

// The message's description, then each field's own (g is described once, under the table).
function meaning (s: Shape): string {
  const note = (f: Shape): string => [f.description, f.maxLength !== undefined ? `at most ${f.maxLength} characters` : undefined].filter(Boolean).join(', ')
  const fields = Object.entries(s.properties ?? {}).filter(([name, f]) => name !== 'g' && note(f)).map(([name, f]) => `\`${name}\`: ${note(f)}`)
  return [s.description ?? '', ...fields].join('; ')
}

/** The table, one row per message; `?` marks a field the panel may leave out. */
export function renderPanelMessageTable (): string {
  const rows = Object.values(PANEL_MESSAGES).map((schema) => `| ${shape(schema)} | ${meaning(schema as Shape)} |`)
  return ['| message | meaning |', '|---|---|', ...rows].join('\n')
}

/** docs/panel.md with its table replaced by the one the schemas give. */
export function withPanelMessageTable (doc: string): string {
  const start = doc.indexOf(PANEL_MESSAGES_START)
  const end = doc.indexOf(PANEL_MESSAGES_END)
  if (start < 0 || end < start) throw new Error('docs/panel.md has lost its panel-messages markers')
  return `${doc.slice(0, start + PANEL_MESSAGES_START.length)}\n${renderPanelMessageTable()}\n${doc.slice(end)}`
}
