import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { Browser, Target } from 'puppeteer-core'
import { PageWatch } from '../page-ui/page-watch.js'
import { EarlyDialogs } from '../page-ui/early-dialogs.js'
import { applyPermissions } from '../page-ui/permissions.js'

/**
 * What the browser draws outside the page (docs/spec.md section 16), wired to every tab: each page
 * gets its watch as soon as it exists (a popup's alert must not go unseen, even one asked
 * before the popup is a page: early-dialogs.ts), the inventory
 * says when a dialog or file chooser is open, and permission prompts are settled up front.
 */
async function pageUiPlugin (app: FastifyInstance): Promise<void> {
  const now = (): number => app.clock.now()
  const watchTarget = async (target: Target): Promise<void> => {
    if (target.type() !== 'page') return
    const page = await target.page().catch(() => null)
    if (page && !page.isClosed()) PageWatch.of(page, now)
  }
  app.browsers.onStarted((profile: string, browser: Browser) => {
    // First: a window that asks something as it loads must be seen even before it is a page.
    EarlyDialogs.watch(browser, now).catch((err: unknown) => app.log.warn({ err, profile }, 'early dialogs are not watched'))
    browser.on('targetcreated', (target: Target) => { void watchTarget(target).catch(() => undefined) })
    for (const target of browser.targets()) void watchTarget(target).catch(() => undefined)
    applyPermissions(app, profile, browser).catch((err: unknown) => app.log.warn({ err, profile }, 'permissions could not be applied'))
  })
  app.tabs.addDescriber((tab) => {
    const w = PageWatch.of(tab.page, now)
    return {
      dialog: w.dialog ?? null,
      ...(w.chooser ? { file_chooser: { mode: w.chooser.mode, accept: w.chooser.accept, opened_at: w.chooser.opened_at } } : {})
    }
  })
}

export default fp(pageUiPlugin, { name: 'afhttp-page-ui', dependencies: ['afhttp-browsers', 'afhttp-tabs'] })
