// Wiring only: every profile's browser (BrowserFleet, src/browser/browser-fleet.ts) gets the app's
// log, lifecycle, profiles and settings, a launch (src/browser/browser-launch.ts) and the processes
// the host runs beside Chromium (src/browser/host-processes.ts); it decorates the app and closes
// every browser, then Xvfb and the watchdog, when the host closes.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { BrowserFleet } from '../browser/browser-fleet.js'
import { launchBrowser } from '../browser/browser-launch.js'
import { HostProcesses } from '../browser/host-processes.js'
import { endOrphans } from '../browser/orphans.js'
import { startWatchdog } from '../browser/watchdog.js'
import { startXvfb } from '../browser/xvfb.js'
import type { BrowserPool } from '../browser/browser-pool.js'

export type { BrowserListener, BrowserPool, BrowserStatus } from '../browser/browser-pool.js'

declare module 'fastify' {
  interface FastifyInstance {
    browsers: BrowserPool
  }
}

async function browsersPlugin (app: FastifyInstance): Promise<void> {
  const plan = app.config.browser
  // Shutdown aborts what is still starting (Xvfb, Chromium): see BrowserFleetDeps.shutdown.
  const shutdown = new AbortController()
  const processes = new HostProcesses({ root: app.profiles.root, plan, log: app.log, signal: shutdown.signal, startXvfb, startWatchdog, endOrphans })
  if (plan.fallback) app.log.warn({ browser_mode: app.config.browserModeConfigured }, plan.fallback)
  const fleet = new BrowserFleet({
    mode: plan.mode,
    log: app.log,
    lifecycle: app.lifecycle,
    shutdown,
    // app.config is replaced once the server listens on port 0 (withBoundPort): read it each launch.
    launch: (profile, entry) => launchBrowser(profile, entry, { profiles: app.profiles, log: app.log, mode: plan.mode, settings: () => app.config, processes, signal: shutdown.signal }),
    stopHostProcesses: () => processes.stop()
  })
  app.decorate('browsers', fleet)
  app.addHook('onClose', async () => { await fleet.closeAll() })
}

export default fp(browsersPlugin, { name: 'afhttp-browsers', dependencies: ['afhttp-profiles', 'afhttp-lifecycle'] })
