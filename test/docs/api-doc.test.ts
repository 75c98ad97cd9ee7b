import t from 'tap'
import { readFile } from 'node:fs/promises'
import type { TSchema } from 'typebox'
import { openApiDocument } from '../../src/docs/openapi-document.js'
import { renderApiMarkdown } from '../../src/docs/api-markdown.js'
import { withPanelMessageTable } from '../../src/docs/panel-messages-markdown.js'
import { withEventTable, withTransitionTable } from '../../src/docs/events-markdown.js'
import { requiresToken } from '../../src/plugins/auth.js'
import * as S from '../../src/schemas/index.js'
import { startHost } from '../helpers/host.js'

type Json = Record<string, unknown>

// Every driver route and the schemas it is declared with (src/routes/*). A route whose schema
// changes without the document following, or a document that loses a route, fails here.
const ROUTES: Array<{ method: string, path: string, body?: TSchema, params?: TSchema, query?: TSchema, answers?: Record<string, TSchema> }> = [
  { method: 'get', path: '/capabilities', answers: { 200: S.Capabilities } },
  { method: 'get', path: '/health', answers: { 200: S.Health, 503: S.Health } },
  { method: 'get', path: '/v1/profiles', answers: { 200: S.ProfileList } },
  { method: 'post', path: '/v1/profiles', body: S.ProfileCreateBody, answers: { 201: S.ProfileWriteResult } },
  { method: 'get', path: '/v1/profiles/{name}', params: S.ProfileParams, answers: { 200: S.ProfileDescription } },
  { method: 'patch', path: '/v1/profiles/{name}', params: S.ProfileParams, body: S.ProfilePatchBody, answers: { 200: S.ProfileWriteResult } },
  { method: 'post', path: '/v1/fetch', body: S.FetchBody, answers: { 200: S.FetchResult } },
  { method: 'get', path: '/v1/tabs', answers: { 200: S.TabList } },
  { method: 'get', path: '/v1/tabs/{tab_id}', params: S.TabParams, answers: { 200: S.TabDescription } },
  { method: 'delete', path: '/v1/tabs/{tab_id}', params: S.TabParams, answers: { 200: S.TabCloseResult } },
  { method: 'post', path: '/v1/tabs/{tab_id}/snapshot', params: S.TabParams, body: S.SnapshotBody, answers: { 200: S.SnapshotResult } },
  { method: 'post', path: '/v1/tabs/{tab_id}/handoff', params: S.TabParams, body: S.MintBody, answers: { 200: S.HandoffMint } },
  { method: 'get', path: '/v1/tabs/{tab_id}/handoff', params: S.TabParams, answers: { 200: S.HandoffSummary } },
  { method: 'post', path: '/v1/tabs/{tab_id}/handoff/finish', params: S.TabParams, body: S.FinishBody, answers: { 200: S.HandoffSummary } },
  { method: 'post', path: '/v1/cdp', body: S.CdpBody, answers: { 200: S.CdpResult } },
  { method: 'get', path: '/v1/events', query: S.EventsQuery },
  { method: 'get', path: '/v1/tabs/{tab_id}/handoff/audit', params: S.TabAuditParams, answers: { 200: S.AuditTrailAnswer } },
  { method: 'get', path: '/v1/profiles/{name}/audit', params: S.ProfileAuditParams, query: S.AuditQuery, answers: { 200: S.AuditTrailAnswer } },
  { method: 'get', path: '/takeover/{secret}', params: S.TakeoverParams },
  { method: 'post', path: '/mcp', body: S.McpMessage },
  { method: 'get', path: '/mcp' },
  { method: 'delete', path: '/mcp' }
]

/** Spellings @fastify/swagger changes on the way into OpenAPI, brought to one form on both sides. */
function normal (s: unknown): unknown {
  if (Array.isArray(s)) return s.map(normal)
  if (!s || typeof s !== 'object') return s
  const o: Json = {}
  for (const [k, v] of Object.entries(s)) o[k] = normal(v)
  if ('const' in o) { o.enum = [o.const]; delete o.const }
  if (o.enum) delete o.type
  const pattern = o.patternProperties as Json | undefined
  if (pattern && Object.keys(pattern).length === 1 && '^.*$' in pattern) { o.additionalProperties = pattern['^.*$']; delete o.patternProperties }
  return o
}

const plain = (s: TSchema): unknown => normal(JSON.parse(JSON.stringify(s)))

function operation (doc: Json, method: string, path: string): Json | undefined {
  return ((doc.paths as Record<string, Record<string, Json>> | undefined)?.[path])?.[method]
}

t.test('docs/api.md is what the schemas say (regenerate with npm run docs:api)', async (t) => {
  const doc = await readFile(new URL('../../docs/api.md', import.meta.url), 'utf8')
  t.equal(doc, renderApiMarkdown(await openApiDocument()))
})

t.test('docs/panel.md lists the panel messages the schemas accept (regenerate with npm run docs:api)', async (t) => {
  const doc = await readFile(new URL('../../docs/panel.md', import.meta.url), 'utf8')
  t.equal(doc, withPanelMessageTable(doc))
  t.match(doc, /\| `\{t:"mouse", g, type:"down"\\\|"move"\\\|"up", x, y, button\?, clicks\?, mods\?\}` \| pointer/, 'the table is there, one row per message')
})

t.test('GET /docs/openapi.json is public, OpenAPI 3.1, and declares every route with its schemas', async (t) => {
  const host = await startHost(t, { startBrowser: false })
  const res = await fetch(`${host.url}/docs/openapi.json`)
  t.equal(res.status, 200, 'no token needed')
  const served = await res.json() as Json
  t.same(served, await openApiDocument(), 'the same document the docs are generated from')
  t.equal(served.openapi, '3.1.0')

  for (const route of ROUTES) {
    const op = operation(served, route.method, route.path)
    if (!t.ok(op, `${route.method.toUpperCase()} ${route.path} is in the document`) || !op) continue
    const body = (op.requestBody as { content?: Record<string, { schema: unknown }> } | undefined)?.content?.['application/json']?.schema
    if (route.body) t.same(normal(body), plain(route.body), `${route.path}: body`)
    else t.equal(body, undefined, `${route.path}: no body`)
    const params = (op.parameters ?? []) as Array<{ in: string, name: string, schema: unknown }>
    for (const [where, schema] of [['path', route.params], ['query', route.query]] as const) {
      const props = (schema as { properties?: Record<string, TSchema> } | undefined)?.properties ?? {}
      t.same(params.filter((p) => p.in === where).map((p) => p.name).sort(), Object.keys(props).sort(), `${route.path}: ${where} parameters`)
      for (const p of params.filter((p) => p.in === where)) t.same(normal(p.schema), plain(props[p.name]), `${route.path}: ${where} ${p.name}`)
    }
    const responses = (op.responses ?? {}) as Record<string, { content?: Record<string, { schema: unknown }> }>
    for (const [status, schema] of Object.entries(route.answers ?? {})) {
      t.same(normal(responses[status]?.content?.['application/json']?.schema), plain(schema), `${route.path}: answer ${status}`)
    }
    if (route.answers) {
      for (const family of ['4XX', '5XX']) t.same(normal(responses[family]?.content?.['application/json']?.schema), plain(S.ErrorEnvelope), `${route.path}: ${family} is the envelope`)
    }
    t.equal(Boolean((op.security as unknown[] | undefined)?.length), requiresToken(route.path.replace(/\{(\w+)\}/g, ':$1')), `${route.path}: security matches the auth hook`)
  }
})

t.test('the inbox API declares the inbox cookie, and the host refuses it without one', async (t) => {
  const host = await startHost(t, { startBrowser: false, env: { AFHTTP_OPERATOR_TOKEN: 'op-token-for-the-docs-test-0123456789' } })
  const served = await (await fetch(`${host.url}/docs/openapi.json`)).json() as Json
  const paths = served.paths as Record<string, Record<string, Json>>
  const inboxApi = Object.entries(paths).filter(([path]) => path.startsWith('/inbox/api/'))
  t.ok(inboxApi.length >= 5, `the inbox API is documented (${inboxApi.length} paths)`)
  for (const [path, ops] of inboxApi) {
    for (const [method, op] of Object.entries(ops)) {
      t.same(op.security, [{ operatorCookie: [] }], `${method.toUpperCase()} ${path} names the inbox cookie`)
      const res = await fetch(`${host.url}${path.replace(/\{(\w+)\}/g, 'x')}`, { method: method.toUpperCase(), headers: { origin: host.url, 'content-type': 'application/json' }, body: method === 'get' ? undefined : '{}' })
      t.equal(res.status, 401, `${method.toUpperCase()} ${path} refuses a caller without it`)
      t.equal((await res.json() as { error: { code: string } }).error.code, 'operator_unauthorized')
    }
  }
  t.equal((paths['/inbox/login'].get as Json).security, undefined, 'the login exchanges the token itself')
  t.match((served.components as Json).securitySchemes, { operatorCookie: { type: 'apiKey', in: 'cookie', name: 'afhttp_operator' } })
})

t.test('every response object is open, so serialization drops nothing the host sends', async (t) => {
  const closed: string[] = []
  const walk = (s: unknown, at: string): void => {
    if (Array.isArray(s)) { s.forEach((v, i) => walk(v, `${at}[${i}]`)); return }
    if (!s || typeof s !== 'object') return
    const o = s as Json
    if (o.properties && o.additionalProperties !== true) closed.push(at)
    for (const [k, v] of Object.entries(o)) walk(v, `${at}.${k}`)
  }
  for (const route of ROUTES) for (const [status, schema] of Object.entries(route.answers ?? {})) walk(JSON.parse(JSON.stringify(schema)), `${route.path} ${status}`)
  walk(JSON.parse(JSON.stringify(S.ErrorEnvelope)), 'ErrorEnvelope')
  t.same(closed, [])
})

t.test('docs/api-guide.md lists the events and docs/architecture.md the transitions the schemas type (regenerate with npm run docs:api)', async (t) => {
  const guide = await readFile(new URL('../../docs/api-guide.md', import.meta.url), 'utf8')
  t.equal(guide, withEventTable(guide))
  const architecture = await readFile(new URL('../../docs/architecture.md', import.meta.url), 'utf8')
  t.equal(architecture, withTransitionTable(architecture))
})
