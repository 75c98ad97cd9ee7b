// Wiring only: the panel host (PanelHost, src/panel/panel-host.ts) gets the app's clock, log,
// handoffs, lifecycle, tabs, metrics and profiles, subscribes, and is closed with the app.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { PanelHost, type PanelService } from '../panel/panel-host.js'

export { FRAME_QUALITY, type PanelService } from '../panel/panel-host.js'

declare module 'fastify' {
  interface FastifyInstance {
    panel: PanelService
  }
}

async function panelPlugin (app: FastifyInstance): Promise<void> {
  const host = new PanelHost({
    clock: app.clock,
    log: app.log,
    handoffs: app.handoffs,
    lifecycle: app.lifecycle,
    tabs: app.tabs,
    // The metrics plugin registers after this one: looked up at each delivery.
    inputDelivered: (seconds, kind) => { app.metrics.inputDelivered(seconds, kind) },
    keepPermission: async (profile, origin, permission) => { await app.profiles.grantPermission(profile, origin, permission) }
  })
  host.start()
  app.decorate('panel', host)
  app.addHook('preClose', () => host.close())
}

export default fp(panelPlugin, { name: 'afhttp-panel', dependencies: ['afhttp-tabs', 'afhttp-handoffs', 'afhttp-lifecycle'] })
