// Wiring only: the handoff service (src/handoffs/registry.ts) gets the app's clock, tabs,
// lifecycle, log, settings and metrics, decorates the app, hooks into the tab inventory, and
// revokes every open handoff when the host closes.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { runLiveChecks } from '../browser/live-checks.js'
import { HandoffRegistry } from '../handoffs/registry.js'
import { wireHandoffsToTabs } from '../handoffs/tab-hooks.js'
import type { HandoffService } from '../handoffs/service.js'

export type { FrameProver, HandoffService, LiveCheckOptions, MintOptions, MintResult, SecretProblem } from '../handoffs/service.js'

declare module 'fastify' {
  interface FastifyInstance {
    handoffs: HandoffService
  }
}

async function handoffsPlugin (app: FastifyInstance): Promise<void> {
  const registry = new HandoffRegistry({
    clock: app.clock,
    tabs: app.tabs,
    lifecycle: app.lifecycle,
    log: app.log,
    // app.config is replaced once the server listens on port 0 (withBoundPort): read it each mint.
    settings: () => app.config,
    runLiveChecks: (target) => runLiveChecks(target),
    // The metrics plugin registers after this one: looked up at each run.
    onLiveChecks: (checks) => { app.metrics?.liveChecks(checks) }
  })
  app.decorate('handoffs', registry)
  wireHandoffsToTabs(registry, app.tabs, app.lifecycle)
  app.addHook('preClose', () => registry.shutdown())
}

export default fp(handoffsPlugin, { name: 'afhttp-handoffs', dependencies: ['afhttp-tabs', 'afhttp-lifecycle'] })
