import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import {
  answers, ProfileCreateBody, ProfileDescription, ProfileList, ProfileParams, ProfilePatchBody, ProfileWriteResult,
  type ProfileRunningState
} from '../schemas/index.js'

/** What the browsers plugin (written elsewhere) answers; read structurally so this file does not depend on it. */
interface BrowserStatusSource { status (name: string): ProfileRunningState | Promise<ProfileRunningState> }

/** Running state for describe; a failing or absent browser backend must not hide the metadata. */
async function runningState (app: FastifyInstance, profile: string): Promise<ProfileRunningState | null> {
  if (!app.hasDecorator('browsers')) return null
  const browsers = (app as unknown as { browsers: BrowserStatusSource }).browsers
  try {
    return await browsers.status(profile)
  } catch (err) {
    return { running: false, connected: false, error: (err as Error).message }
  }
}

export default async function profileRoutes (app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>()
  r.get('/v1/profiles', { schema: { summary: 'List profiles; unusable ones are listed with their error', response: answers({ 200: ProfileList }) } }, async () => ({ profiles: await app.profiles.list() }))

  r.post('/v1/profiles', { schema: { summary: 'Create a profile', body: ProfileCreateBody, response: answers({ 201: ProfileWriteResult }) } }, async (req, reply) => {
    const { metadata, warnings } = await app.profiles.create(req.body)
    return reply.status(201).send({ profile: metadata, warnings })
  })

  r.get('/v1/profiles/:name', { schema: { summary: 'Describe a profile: metadata and running state', params: ProfileParams, response: answers({ 200: ProfileDescription }) } }, async (req) => {
    const metadata = await app.profiles.get(req.params.name)
    return { profile: { ...metadata, running: await runningState(app, metadata.name) } }
  })

  r.patch('/v1/profiles/:name', {
    schema: { summary: 'Update labels (a merge patch) or cdp_url: a durable metadata write', params: ProfileParams, body: ProfilePatchBody, response: answers({ 200: ProfileWriteResult }) }
  }, async (req) => {
    const { metadata, warnings } = await app.profiles.update(req.params.name, req.body)
    return { profile: metadata, warnings }
  })
}
