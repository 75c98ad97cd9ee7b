// Shapes every route shares: warnings, the error envelope, nullable fields and the tab id.
// TypeBox schemas are JSON Schema objects: Fastify's ajv validates requests with them,
// fast-json-stringify serializes responses with them, @fastify/swagger documents them, and
// `Static<>` gives the server and the client their types. Nothing here is written twice.
import { Type, type Static, type TSchema } from 'typebox'

/**
 * Objects the host may extend later (SPEC: additions are fine). `additionalProperties: true`
 * also keeps the serializer from dropping a field the schema does not list yet.
 */
export const OPEN = { additionalProperties: true } as const
/** Request bodies: unknown fields are refused (docs/spec.md section 5). */
export const CLOSED = { additionalProperties: false } as const

/** A field the host always sends that may be null (`status: null` when no response was seen). */
export const Nullable = <T extends TSchema>(schema: T, options: { description?: string, default?: unknown } = {}) => Type.Union([schema, Type.Null()], options)

/** A shared schema with a description for one use of it (the copy keeps every JSON Schema keyword). */
export function described<T extends TSchema> (schema: T, description: string): T {
  return { ...schema, description }
}

/** A non-fatal condition reported beside a result, e.g. `takeover_content_unverified`; some carry details (`dialog`). */
export const Warning = Type.Object({ code: Type.String(), message: Type.String() }, OPEN)
export type Warning = Static<typeof Warning>
export const Warnings = Type.Array(Warning)

/** What newTabId() mints (src/core/tab-id.ts). */
export const TAB_ID_RE = /^tab_[A-Za-z0-9_-]{16}$/
export const TabId = Type.String({ minLength: 1, maxLength: 64 })
export const TabParams = Type.Object({ tab_id: TabId })
export type TabParams = Static<typeof TabParams>

export const CAPTURE_NAMES = ['html', 'text', 'screenshot'] as const
export const Capture = Type.Enum(CAPTURE_NAMES)
export type Capture = Static<typeof Capture>
export const CaptureList = Type.Array(Capture, { maxItems: 3, uniqueItems: true })

/** One envelope for every failure (docs/spec.md section 5); codes are the table in src/errors.ts. */
export const ErrorEnvelope = Type.Object({
  error: Type.Object({
    code: Type.String(),
    message: Type.String(),
    retryable: Type.Boolean(),
    details: Type.Record(Type.String(), Type.Unknown())
  }, OPEN),
  /** A failed fetch that left a tab open (docs/spec.md section 6). */
  trace: Type.Optional(Type.Object({ retained_tab_id: Type.String() }, OPEN))
}, OPEN)
export type ErrorEnvelopeBody = Static<typeof ErrorEnvelope>

/** Route responses: the success body plus the envelope for every refusal and failure. */
export function answers<T extends Record<number, TSchema>> (ok: T): T & { '4xx': typeof ErrorEnvelope, '5xx': typeof ErrorEnvelope } {
  return { ...ok, '4xx': ErrorEnvelope, '5xx': ErrorEnvelope }
}
