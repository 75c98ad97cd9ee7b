// Wiring only: the tab inventory (TabInventory, src/tabs/tab-inventory.ts) gets the app's clock,
// log, lifecycle, browsers and settings and the page calls that reach Chromium; it decorates the
// app, runs its idle reaper, and stops its reaper and window pools when the host closes. The end
// of a handoff hands the tab back to its driver: it counts as the tab's last use (docs/spec.md
// section 8), so the driver's re-fetch never races the reaper over a hold that outlasted the idle limit.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { ensureAnchor, findAnchorPage } from '../browser/window-anchor.js'
import { boundedTitle } from '../browser/bounded-title.js'
import { closePage } from '../browser/close-page.js'
import { WindowPool } from '../browser/window-pool.js'
import { PageWatch } from '../page-ui/page-watch.js'
import { systemClock, type Clock } from '../core/clock.js'
import { TabInventory } from '../tabs/tab-inventory.js'
import type { TabRegistry } from '../tabs/types.js'
import { HANDOFF_ENDINGS } from '../schemas/lifecycle.js'

export type { ReapReport, TabCloseReason, TabRecord, TabRegistry, TabView } from '../tabs/types.js'

declare module 'fastify' {
  interface FastifyInstance {
    tabs: TabRegistry
    clock: Clock
  }
}

async function tabsPlugin (app: FastifyInstance): Promise<void> {
  if (!app.hasDecorator('clock')) app.decorate('clock', systemClock)
  const inventory = new TabInventory({
    clock: app.clock,
    log: app.log,
    lifecycle: app.lifecycle,
    browsers: app.browsers,
    pages: {
      ensureAnchor: (browser) => ensureAnchor(browser),
      close: (page) => closePage(page),
      // A page held by a JavaScript dialog cannot run script: the browser's record of it answers instead.
      title: (page) => boundedTitle(page, { blocked: PageWatch.dialogOf(page) !== undefined }),
      anchorAttached: (browser) => findAnchorPage(browser),
      openPool: (browser, options) => new WindowPool(browser, options)
    },
    // app.config is replaced once the server listens on port 0 (withBoundPort): read it when needed.
    settings: () => app.config
  })
  app.decorate('tabs', inventory)
  for (const ending of HANDOFF_ENDINGS) app.lifecycle.on(ending, (t) => { if (t.tab_id) inventory.touch(t.tab_id) })
  inventory.startReaping()
  app.addHook('onClose', () => inventory.shutdown())
}

export default fp(tabsPlugin, { name: 'afhttp-tabs', dependencies: ['afhttp-browsers', 'afhttp-lifecycle'] })
