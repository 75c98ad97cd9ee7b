import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { CDPSession } from 'puppeteer-core'
import { AfhttpError } from '../errors.js'
import { browserSession } from '../browser/window-anchor.js'
import { nestedCommand, pageEffectOf } from '../core/cdp-hold.js'
import { holdOnTarget, targetIdOf } from './cdp-holds.js'
import cdpPassthroughRoutes, { REFUSED_METHODS } from './cdp-passthrough.js'
import { answers, CdpBody, CdpResult } from '../schemas/index.js'
import { openPageSession } from '../browser/page-session.js'

export { CDP_PASSTHROUGH_MAX_MESSAGE_BYTES } from './cdp-passthrough.js'

/**
 * Raw CDP, explicit and low level (docs/spec.md section 5): no anchor protection here. Holds apply
 * (section 12): page effects on a held tab are refused, observations still work.
 */
export default async function cdpRoutes (app: FastifyInstance): Promise<void> {
  app.withTypeProvider<TypeBoxTypeProvider>().post('/v1/cdp', { schema: { summary: 'One raw CDP command (no anchor protection)', body: CdpBody, response: answers({ 200: CdpResult }) } }, async (req) => {
    const { method, params = {}, tab_id: tabId } = req.body
    if (REFUSED_METHODS.has(method)) throw new AfhttpError('invalid_request', `method: ${method} is not allowed; the host owns the browser's lifetime`, { field: 'method' })
    const effect = pageEffectOf(method, params)
    let session: CDPSession
    let shared = false
    if (tabId) {
      const tab = app.tabs.get(tabId)
      if (req.body.profile && req.body.profile !== tab.profile) throw new AfhttpError('invalid_request', `tab_id: the tab belongs to profile ${tab.profile}`, { field: 'tab_id' })
      if (effect) {
        const held = holdOnTarget(app, effect.scope === 'target' ? effect.targetId : targetIdOf(tab.page))
        if (held) throw held
        app.tabs.assertAgentMayAct(tab)
      }
      app.tabs.touch(tab.id)
      session = await openPageSession(tab.page)
    } else {
      const nested = nestedCommand(method, params)
      const nestedEffect = nested && pageEffectOf(nested.method, nested.params)
      const held = effect?.scope === 'target'
        ? holdOnTarget(app, effect.targetId)
        : nestedEffect ? holdOnTarget(app, nestedEffect.scope === 'target' ? nestedEffect.targetId : nested.targetId) : undefined
      if (held) throw held
      const browser = await app.browsers.get(req.body.profile ?? app.config.defaultProfile)
      // The shared browser session: a detached browser-target session can make puppeteer drop the browser target.
      session = await browserSession(browser)
      shared = true
    }
    try {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const result = await session.send(method as any, params as any)
      return { result }
    } catch (err) {
      throw new AfhttpError('cdp_command_failed', `${method}: ${(err as Error).message}`, { method })
    } finally {
      if (!shared) await session.detach().catch(() => undefined)
    }
  })

  await app.register(cdpPassthroughRoutes)
}
