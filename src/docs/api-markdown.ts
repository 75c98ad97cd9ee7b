// Renders docs/api.md from the OpenAPI document the host serves (pure: document in, text out).
// `npm run docs:api` writes it; test/docs/api-doc.test.ts fails when the file drifts.

type Schema = Record<string, unknown>
interface Operation {
  summary?: string
  parameters?: Array<{ in: string, name: string, required?: boolean, schema: Schema }>
  requestBody?: { required?: boolean, content?: Record<string, { schema: Schema }> }
  responses?: Record<string, { content?: Record<string, { schema: Schema }> }>
  security?: unknown[]
}

const METHODS = ['get', 'post', 'patch', 'put', 'delete']
const MAX_DEPTH = 4

function esc (text: string): string {
  return text.replace(/\|/g, '\\|')
}

function isNull (s: Schema): boolean {
  return s.type === 'null'
}

function typeOf (s: Schema): string {
  if (Array.isArray(s.enum)) return s.enum.map((v) => `\`${String(v)}\``).join(' | ')
  if ('const' in s) return `\`${String(s.const)}\``
  const any = (s.anyOf ?? s.oneOf) as Schema[] | undefined
  if (any) return any.map((a) => isNull(a) ? 'null' : typeOf(a)).join(' or ')
  if (Array.isArray(s.type)) return s.type.join(' or ')
  if (s.type === 'array') {
    const item = typeOf((s.items ?? {}) as Schema)
    return / \| | or /.test(item) ? `(${item})[]` : `${item}[]`
  }
  if (s.type === 'object' && !s.properties) {
    const values = (s.patternProperties ? Object.values(s.patternProperties as Record<string, Schema>)[0] : s.additionalProperties) as Schema | boolean | undefined
    return values && typeof values === 'object' && Object.keys(values).length ? `map of ${typeOf(values)}` : 'object'
  }
  if (typeof s.type === 'string') return s.type
  return 'any'
}

function constraints (s: Schema): string {
  const out: string[] = typeof s.description === 'string' ? [s.description] : []
  if (s.minLength !== undefined || s.maxLength !== undefined) out.push(`${s.minLength ?? 0}–${s.maxLength ?? '∞'} characters`)
  if (s.minimum !== undefined || s.maximum !== undefined) out.push(`${s.minimum ?? '−∞'}–${s.maximum ?? '∞'}`)
  if (s.maxItems !== undefined) out.push(`at most ${String(s.maxItems)} items`)
  if (s.uniqueItems) out.push('unique')
  if (s.maxProperties !== undefined) out.push(`at most ${String(s.maxProperties)} entries`)
  if (s.minProperties !== undefined) out.push(`at least ${String(s.minProperties)} field`)
  if (typeof s.pattern === 'string') out.push(`matches \`${s.pattern}\``)
  if (s.additionalProperties === false && s.properties) out.push('no other fields')
  return out.join('; ')
}

/** The object schema a value holds (itself, its array items, or the non-null branch). */
function objectIn (s: Schema): { schema: Schema, suffix: string } | undefined {
  if (s.properties) return { schema: s, suffix: '' }
  if (s.type === 'array' && s.items) {
    const inner = objectIn(s.items as Schema)
    return inner && { schema: inner.schema, suffix: `[]${inner.suffix}` }
  }
  const any = (s.anyOf ?? s.oneOf) as Schema[] | undefined
  const objects = any?.filter((a) => !isNull(a))
  if (objects?.length === 1) return objectIn(objects[0])
  return undefined
}

function rows (s: Schema, prefix: string, depth: number): string[] {
  const props = (s.properties ?? {}) as Record<string, Schema>
  const required = new Set((s.required ?? []) as string[])
  const out: string[] = []
  for (const [name, p] of Object.entries(props)) {
    const path = `${prefix}${name}`
    out.push(`| \`${path}\` | ${esc(typeOf(p))} | ${required.has(name) ? 'yes' : ''} | ${esc(constraints(p))} |`)
    const inner = objectIn(p)
    if (inner && depth < MAX_DEPTH) out.push(...rows(inner.schema, `${path}${inner.suffix}.`, depth + 1))
  }
  return out
}

function table (s: Schema): string[] {
  const top = objectIn(s)
  if (!top) return [`${typeOf(s)}${constraints(s) ? ` (${constraints(s)})` : ''}`, '']
  const body = rows(top.schema, top.suffix ? `${top.suffix}.` : '', 1)
  const extra = constraints(top.schema)
  return [
    ...(Array.isArray(s.type) && s.type.includes('null') ? ['Optional: no body (or `null`) is the same as `{}`.', ''] : []),
    ...(body.length ? ['| field | type | required | notes |', '|---|---|---|---|', ...body, ''] : ['`{}`', '']),
    ...(extra ? [`(${extra})`, ''] : [])
  ]
}

function jsonSchemaOf (content: Record<string, { schema: Schema }> | undefined): Schema | undefined {
  return content?.['application/json']?.schema
}

function isEnvelope (s: Schema | undefined): boolean {
  const props = s?.properties as Record<string, Schema> | undefined
  return Boolean(props?.error && Object.keys(props).every((k) => k === 'error' || k === 'trace'))
}

type Auth = 'bearer' | 'operatorCookie' | 'none'

/** What a route asks of its caller, from the security scheme its OpenAPI operation names. */
function authOf (op: Operation): Auth {
  const scheme = Object.keys(op.security?.[0] ?? {})[0]
  return scheme === 'bearer' || scheme === 'operatorCookie' ? scheme : 'none'
}

const AUTH_CELL: Record<Auth, string> = { bearer: 'token', operatorCookie: 'inbox cookie', none: '—' }
const AUTH_SENTENCE: Record<Auth, string> = {
  bearer: 'Needs `Authorization: Bearer <token>`.',
  operatorCookie: 'Needs the inbox cookie (the operator token exchanged at `GET /inbox/login`).',
  none: 'Public: no token.'
}

function operationSection (method: string, path: string, op: Operation): string[] {
  const out = [`## \`${method.toUpperCase()} ${path}\``, '']
  if (op.summary) out.push(`${op.summary}.`, '')
  out.push(AUTH_SENTENCE[authOf(op)], '')
  for (const where of ['path', 'query']) {
    const params = (op.parameters ?? []).filter((p) => p.in === where)
    if (!params.length) continue
    out.push(`**${where === 'path' ? 'Path parameters' : 'Query string'}**`, '', '| name | type | required | notes |', '|---|---|---|---|')
    for (const p of params) out.push(`| \`${p.name}\` | ${esc(typeOf(p.schema))} | ${p.required ? 'yes' : ''} | ${esc(constraints(p.schema))} |`)
    out.push('')
  }
  const body = jsonSchemaOf(op.requestBody?.content)
  if (body) out.push('**Body** (JSON)', '', ...table(body))
  const failures: string[] = []
  for (const [status, answer] of Object.entries(op.responses ?? {})) {
    const schema = jsonSchemaOf(answer.content)
    if (!schema) continue
    if (isEnvelope(schema)) { failures.push(status); continue }
    out.push(`**Answer ${status}**`, '', ...table(schema))
  }
  if (failures.length) out.push(`**${failures.join(', ')}**: the error envelope of [errors.md](errors.md).`, '')
  return out
}

/** The whole of docs/api.md. */
export function renderApiMarkdown (doc: { paths?: Record<string, Record<string, Operation>>, info?: { version?: string } }): string {
  const operations: Array<{ method: string, path: string, op: Operation }> = []
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) if (item[method]) operations.push({ method, path, op: item[method] })
  }
  // The driver's API only: the panel's own routes serve the panel page, not programs.
  const listed = operations.filter(({ path }) => !path.startsWith('/panel'))
  const out = [
    '# HTTP API reference',
    '',
    'Generated from the route schemas in `src/schemas/` (the same ones that validate requests and',
    'serialize answers) through the OpenAPI 3.1 document every host serves at `GET /docs/openapi.json`,',
    'by `npm run docs:api`; do not edit by hand. How to use the API (fetch semantics, tokens,',
    'Idempotency-Key, holds on raw CDP, events) is in [api-guide.md](api-guide.md).',
    '',
    'Answers may carry fields beyond the ones listed (the API adds fields, never renames them): ignore',
    'what you do not know. Request bodies refuse unknown fields (`invalid_request` naming the field).',
    '',
    '| route | needs | does |',
    '|---|---|---|',
    ...listed.map(({ method, path, op }) => `| \`${method.toUpperCase()} ${path}\` | ${AUTH_CELL[authOf(op)]} | ${esc(op.summary ?? '')} |`),
    ''
  ]
  for (const { method, path, op } of listed) out.push(...operationSection(method, path, op))
  return `${out.join('\n').trimEnd()}\n`
}
