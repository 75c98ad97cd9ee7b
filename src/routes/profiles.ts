import type { FastifyInstance } from 'fastify'
import { PROFILE_NAME_RE } from '../config.js'
import { BACKENDS, LABEL_KEY_RE, LIMITS, type Backend } from '../core/profile-metadata.js'
import type { ProfilePatch } from '../plugins/profiles.js'

/** What the browsers plugin (written elsewhere) answers; read structurally so this file does not depend on it. */
interface BrowserStatus { running: boolean, connected: boolean, error?: string }
interface BrowserStatusSource { status (name: string): BrowserStatus | Promise<BrowserStatus> }

const name = { type: 'string', minLength: 1, maxLength: 63, pattern: PROFILE_NAME_RE.source } as const
const cdpUrl = { type: 'string', minLength: 1, maxLength: LIMITS.cdpUrl, pattern: '^(wss?|https?)://' } as const
const labelKeys = { type: 'string', maxLength: LIMITS.labelKey, pattern: LABEL_KEY_RE.source } as const
const params = { type: 'object', required: ['name'], properties: { name } } as const

const createBody = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name,
    backend: { type: 'string', enum: [...BACKENDS] },
    cdp_url: cdpUrl,
    labels: {
      type: 'object',
      maxProperties: LIMITS.labels,
      propertyNames: labelKeys,
      additionalProperties: { type: 'string', maxLength: LIMITS.labelValue }
    }
  }
} as const

const patchBody = {
  type: 'object',
  minProperties: 1,
  additionalProperties: false,
  properties: {
    cdp_url: cdpUrl,
    labels: {
      type: 'object',
      maxProperties: LIMITS.labels,
      propertyNames: labelKeys,
      // null removes a label (JSON merge patch).
      additionalProperties: { type: ['string', 'null'], maxLength: LIMITS.labelValue }
    }
  }
} as const

interface CreateBody { name: string, backend?: Backend, cdp_url?: string, labels?: Record<string, string> }

/** Running state for describe; a failing or absent browser backend must not hide the metadata. */
async function runningState (app: FastifyInstance, profile: string): Promise<BrowserStatus | null> {
  if (!app.hasDecorator('browsers')) return null
  const browsers = (app as unknown as { browsers: BrowserStatusSource }).browsers
  try {
    return await browsers.status(profile)
  } catch (err) {
    return { running: false, connected: false, error: (err as Error).message }
  }
}

export default async function profileRoutes (app: FastifyInstance): Promise<void> {
  app.get('/v1/profiles', async () => ({ profiles: await app.profiles.list() }))

  app.post<{ Body: CreateBody }>('/v1/profiles', { schema: { body: createBody } }, async (req, reply) => {
    const { metadata, warnings } = await app.profiles.create(req.body)
    return reply.status(201).send({ profile: metadata, warnings })
  })

  app.get<{ Params: { name: string } }>('/v1/profiles/:name', { schema: { params } }, async (req) => {
    const metadata = await app.profiles.get(req.params.name)
    return { profile: { ...metadata, running: await runningState(app, metadata.name) } }
  })

  app.patch<{ Params: { name: string }, Body: ProfilePatch }>('/v1/profiles/:name', { schema: { params, body: patchBody } }, async (req) => {
    const { metadata, warnings } = await app.profiles.update(req.params.name, req.body)
    return { profile: metadata, warnings }
  })
}
