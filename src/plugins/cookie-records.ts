import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { HANDOFF_ENDINGS } from '../schemas/lifecycle.js'

/**
 * docs/spec.md section 13: the moments the cookie record is taken — after a handoff ends (a person
 * just signed in) and after each fetch (a site may have set cookies). Shutdown is recorded by
 * the browsers plugin itself. Recording runs after the answer, never delaying it.
 */
async function cookieRecordsPlugin (app: FastifyInstance): Promise<void> {
  // Every ending, told once by the handoff service (docs/architecture.md): subscribed, not rebuilt.
  for (const ending of HANDOFF_ENDINGS) {
    app.lifecycle.on(ending, (t) => {
      if (t.profile) void app.browsers.recordCookies(t.profile, `handoff ${ending.slice('handoff.'.length)}`)
    })
  }
  app.addHook('onResponse', async (req) => {
    if (req.routeOptions.url !== '/v1/fetch' || req.method !== 'POST') return
    const body = req.body as { profile?: string, tab_id?: string } | undefined
    const profile = body?.profile ?? (body?.tab_id ? app.tabs.find(body.tab_id)?.profile : undefined) ?? app.config.defaultProfile
    void app.browsers.recordCookies(profile, 'fetch')
  })
}

export default fp(cookieRecordsPlugin, { name: 'afhttp-cookie-records', dependencies: ['afhttp-browsers', 'afhttp-tabs', 'afhttp-handoffs', 'afhttp-lifecycle'] })
