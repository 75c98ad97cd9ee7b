import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import {
  answers, ProfileCreateBody, ProfileDescription, ProfileList, ProfileParams, ProfilePatchBody, ProfileWriteResult,
  type ProfileRunningState, type ProfileWriteAnswer
} from '../schemas/index.js'
import { redactedMetadata } from '../core/network-identity.js'
import type { MetadataWrite } from '../store/profile-store.js'

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

/**
 * A write's answer. Proxy, timezone and locale are launch settings (docs/spec.md section 21): the answer
 * names the ones that wait for the next browser start, and warns when a browser running now keeps the old ones.
 */
async function writeAnswer (app: FastifyInstance, { metadata, warnings, nextStart }: MetadataWrite): Promise<ProfileWriteAnswer> {
  const answer: ProfileWriteAnswer = { profile: redactedMetadata(metadata), warnings: [...warnings] }
  if (!nextStart?.length) return answer
  answer.applies_at_next_start = nextStart
  if ((await runningState(app, metadata.name))?.running) {
    answer.warnings.push({
      code: 'browser_restart_needed',
      message: `The browser of profile "${metadata.name}" is running and keeps its previous ${nextStart.join(', ')} until it next starts.`
    })
  }
  return answer
}

export default async function profileRoutes (app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>()
  r.get('/v1/profiles', { schema: { summary: 'List profiles; unusable ones are listed with their error', response: answers({ 200: ProfileList }) } }, async () => ({ profiles: (await app.profiles.list()).map((p) => 'error' in p ? p : redactedMetadata(p)) }))

  r.post('/v1/profiles', { schema: { summary: 'Create a profile', body: ProfileCreateBody, response: answers({ 201: ProfileWriteResult }) } }, async (req, reply) => {
    return reply.status(201).send(await writeAnswer(app, await app.profiles.create(req.body)))
  })

  r.get('/v1/profiles/:name', { schema: { summary: 'Describe a profile: metadata and running state', params: ProfileParams, response: answers({ 200: ProfileDescription }) } }, async (req) => {
    const metadata = await app.profiles.get(req.params.name)
    return { profile: { ...redactedMetadata(metadata), running: await runningState(app, metadata.name) } }
  })

  r.patch('/v1/profiles/:name', {
    schema: { summary: 'Update labels (a merge patch), cdp_url, proxy, timezone or locale: a durable metadata write', params: ProfileParams, body: ProfilePatchBody, response: answers({ 200: ProfileWriteResult }) }
  }, async (req) => {
    return await writeAnswer(app, await app.profiles.update(req.params.name, req.body))
  })
}
