import { Compile } from 'typebox/compile'
import type { TSchema } from 'typebox'

type Json = unknown

/**
 * The schema with every open object (`additionalProperties: true`) closed, so a field the host
 * sends but the schema does not declare fails validation. The host's own schemas stay open so
 * the serializer never drops a field; this is how tests find the fields they would not list.
 */
export function strict (schema: TSchema): Json {
  const close = (s: Json): Json => {
    if (Array.isArray(s)) return s.map(close)
    if (!s || typeof s !== 'object') return s
    const out: Record<string, Json> = {}
    for (const [k, v] of Object.entries(s)) out[k] = close(v)
    if (out.properties && out.additionalProperties === true) out.additionalProperties = false
    return out
  }
  return close(JSON.parse(JSON.stringify(schema)))
}

/** Problems of `value` against the strict schema, as `path: message` lines (empty when it fits). */
export function strictProblems (schema: TSchema, value: unknown): string[] {
  const check = Compile(strict(schema) as TSchema)
  if (check.Check(value)) return []
  return [...check.Errors(value)].map((e) => `${e.instancePath || '/'}: ${e.message}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`)
}
