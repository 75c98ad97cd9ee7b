import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { mkdir } from 'node:fs/promises'
import { isAfhttpError } from '../errors.js'
import type { DurableFs } from '../store/durable-write.js'
import { Profiles, type ProfileService } from '../store/profile-store.js'

export { Profiles } from '../store/profile-store.js'
export type { InvalidProfileListing, MetadataWrite, ProfileListing, ProfilePatch, ProfileService, Warning } from '../store/profile-store.js'

declare module 'fastify' {
  interface FastifyInstance { profiles: ProfileService }
}

export interface ProfilesPluginOptions {
  /** Filesystem boundary for metadata writes; tests inject an errno here. */
  fs?: DurableFs
}

async function profiles (app: FastifyInstance, opts: ProfilesPluginOptions): Promise<void> {
  const service = new Profiles(app.config.profilesDir, app.config.defaultProfile, app.log, opts.fs)
  app.decorate('profiles', service)

  app.addHook('onReady', async () => {
    await mkdir(service.root, { recursive: true })
    await service.cleanAllStaleTemps()
    try {
      await service.ensureDefault()
    } catch (err) {
      // The host still starts: /health and GET /v1/profiles report the problem, and nothing is "repaired".
      if (!isAfhttpError(err)) throw err
      app.log.error({ code: err.code, profile: app.config.defaultProfile, details: err.details }, `default profile is not usable: ${err.message}`)
    }
  })
  app.addHook('onClose', async () => { await service.releaseAll() })
}

export default fp(profiles, { name: 'afhttp-profiles', fastify: '5.x', decorators: { fastify: ['config'] } })
