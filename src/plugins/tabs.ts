import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { Browser, HTTPResponse, Page, Target } from 'puppeteer-core'
import { AfhttpError } from '../errors.js'
import { ensureAnchor, findAnchorPage, isAnchorUrl } from '../browser/window-anchor.js'
import { newTabId } from '../core/tab-id.js'
import { reapPass } from '../tabs/reaper-run.js'
import { Listeners } from '../core/listeners.js'
import { boundedTitle } from '../browser/bounded-title.js'
import { PageWatch } from '../page-ui/page-watch.js'
import type { ReapReport, TabCloseReason, TabRecord, TabRegistry, TabView } from '../tabs/types.js'
import { systemClock, type Clock } from '../core/clock.js'
import { WindowPool } from '../browser/window-pool.js'
import { closePage } from '../browser/close-page.js'

export type { ReapReport, TabCloseReason, TabRecord, TabRegistry, TabView } from '../tabs/types.js'

declare module 'fastify' {
  interface FastifyInstance {
    tabs: TabRegistry
    clock: Clock
  }
}

async function tabsPlugin (app: FastifyInstance): Promise<void> {
  if (!app.hasDecorator('clock')) app.decorate('clock', systemClock)
  const clock = app.clock
  const byId = new Map<string, TabRecord>()
  const byTarget = new WeakMap<Target, TabRecord>()
  const closing = new Map<string, TabCloseReason>()
  // What other plugins add: protectors and act guards decide, describers and listeners hear.
  const protectors: Array<(tab: TabRecord) => string | undefined> = []
  const actGuards: Array<(tab: TabRecord) => void> = []
  const describers: Array<(tab: TabRecord) => Partial<TabView>> = []
  const closed = new Listeners<[TabRecord, TabCloseReason]>((err) => app.log.error({ err }, 'tab close listener failed'))
  const poolTakes = new Listeners<[string, boolean]>((err) => app.log.error({ err }, 'pool listener failed'))
  const reaped = new Listeners<[ReapReport]>((err) => app.log.error({ err }, 'reaper listener failed'))
  const protectedBy = (tab: TabRecord): string | undefined => protectors.map((p) => p(tab)).find(Boolean)
  const pools = new Map<string, WindowPool>()
  let last: ReapReport | undefined
  let shuttingDown = false

  // What register() hung on a page for its tab; removed when the tab ends, so a window reset
  // for another fetch (see WindowPool) starts as a new tab with nothing of the old one on it.
  const unhook = new WeakMap<TabRecord, () => void>()

  function forget (tab: TabRecord, reason: TabCloseReason): void {
    if (!byId.delete(tab.id)) return
    if (byTarget.get(tab.page.target()) === tab) byTarget.delete(tab.page.target())
    unhook.get(tab)?.()
    closed.emit(tab, reason)
    // After the listeners: a handoff on the tab is revoked before the tab is told closed.
    app.lifecycle.emit('tab.closed', { tab_id: tab.id, profile: tab.profile }, { reason })
  }

  /** The tab whose page opened this one (a popup's opener), if the host tracks it. */
  function openerOf (page: Page): string | undefined {
    const opener = page.target().opener()
    if (!opener) return undefined
    for (const t of byId.values()) if (t.page.target() === opener) return t.id
    return undefined
  }

  function register (profile: string, page: Page, origin: TabRecord['origin']): TabRecord {
    const target = page.target()
    const known = byTarget.get(target)
    if (known) {
      // Our own newPage() and the targetcreated event race; the host's claim wins.
      if (origin === 'host') known.origin = 'host'
      return known
    }
    const now = clock.now()
    const tab: TabRecord = { id: newTabId(), profile, page, openedAt: now, lastActiveAt: now, retained: false, origin, busy: 0 }
    byTarget.set(target, tab)
    byId.set(tab.id, tab)
    const opener = openerOf(page)
    app.lifecycle.emit('tab.opened', { tab_id: tab.id, profile }, { url: page.url(), origin, ...(opener ? { opener_tab_id: opener } : {}) })
    const onClose = (): void => forget(tab, closing.get(tab.id) ?? 'page_closed')
    const onResponse = (res: HTTPResponse): void => {
      try {
        const req = res.request()
        // Redirect hops are not the document; the final answer is.
        if (req.isNavigationRequest() && res.frame() === page.mainFrame() && (res.status() < 300 || res.status() >= 400)) {
          tab.lastResponse = { status: res.status(), url: res.url(), headers: res.headers() }
        }
      } catch { /* a response of a frame being torn down */ }
    }
    // on/off, not once: puppeteer's once() registers a wrapper that off() cannot remove.
    page.on('close', onClose)
    page.on('response', onResponse)
    unhook.set(tab, () => { page.off('close', onClose); page.off('response', onResponse) })
    return tab
  }

  async function adopt (profile: string, target: Target): Promise<void> {
    if (target.type() !== 'page' || isAnchorUrl(target.url())) return
    // Pool windows are not tabs until a fetch takes one (and then the fetch registers it).
    if (await pools.get(profile)?.owns(target)) return
    const page = await target.page().catch(() => null)
    // A popup may already be gone (page.url() then throws): a page must never crash the host.
    if (page && !page.isClosed() && !isAnchorUrl(page.url())) register(profile, page, 'adopted')
  }

  function poolFor (profile: string, browser: Browser): WindowPool {
    let pool = pools.get(profile)
    if (pool?.browser === browser) return pool
    pool?.stop(false).catch(() => undefined)
    // An attached (cdp) browser is someone else's: the host opens windows there only on demand.
    const size = browser.process() ? app.config.tabPool : 0
    pool = new WindowPool(browser, {
      size,
      headful: app.browsers.mode === 'headful',
      quiet: () => !shuttingDown && !busy(profile),
      running: () => { let n = 0; for (const t of byId.values()) if (t.profile === profile && t.busy > 0) n++; return n },
      now: () => clock.now(),
      onError: (err) => app.log.warn({ err, profile }, 'the window pool could not open a window; it retries after the next fetch'),
      onCloseError: (err) => app.log.warn({ err, profile }, 'a fetch window did not close after its answer'),
      // Expected for many sites (any sessionStorage write): debug, not a warning.
      onNotReused: (reason) => app.log.debug({ profile, reason }, 'a fetch window is closed instead of reused'),
      // A CDP client navigated a waiting window: it is that client's page now, listed and reaped like one it opened.
      onForeign: (page) => { if (!page.isClosed()) register(profile, page, 'adopted') }
    })
    pools.set(profile, pool)
    const started = pool
    // Health finds the anchor's page through puppeteer: have it attached before the pool's
    // first windows keep a just-started browser busy.
    findAnchorPage(browser).catch(() => undefined).finally(() => started.refill())
    return pool
  }

  // A profile is busy while any of its tabs has agent work in flight (a fetch): the pool waits.
  function busy (profile: string): boolean {
    for (const t of byId.values()) if (t.profile === profile && t.busy > 0) return true
    return false
  }

  app.browsers.onStarted((profile: string, browser: Browser) => {
    poolFor(profile, browser)
    browser.on('targetcreated', (target: Target) => {
      adopt(profile, target).catch((err: unknown) => app.log.debug({ err }, 'a new page could not be adopted'))
    })
  })
  app.browsers.onLost((profile) => {
    pools.get(profile)?.stop(false).catch(() => undefined)
    pools.delete(profile)
    for (const tab of [...byId.values()]) if (tab.profile === profile) forget(tab, 'browser_lost')
  })

  async function reapOnce (): Promise<ReapReport> {
    const report = await reapPass({
      now: clock.now(),
      idleLimitMs: app.config.tabIdleMs,
      tabs: registry.list(),
      idleMs: (t) => registry.idleMs(t),
      protectedBy: (t) => t.busy > 0 ? 'agent operation in flight' : protectedBy(t),
      current: (id) => byId.get(id),
      foreign: (t) => t.origin === 'adopted' && !app.browsers.status(t.profile).pid,
      close: (id) => registry.close(id, 'reaper')
    })
    if (report.closed.length || report.failed.length) {
      app.log[report.failed.length ? 'warn' : 'info']({ reaper: report }, 'idle reaper ran')
    }
    last = report
    reaped.emit(report)
    return report
  }

  let reaping: Promise<ReapReport> | undefined
  const registry: TabRegistry = {
    async open (profile) {
      const browser = await app.browsers.get(profile)
      // Each tab gets its own window (see WindowPool), opened ahead of time when the pool has one.
      const { page, hit } = await poolFor(profile, browser).take()
      poolTakes.emit(profile, hit)
      return register(profile, page, 'host')
    },
    get (id) {
      const tab = byId.get(id)
      if (!tab) throw new AfhttpError('tab_not_found', `No tab ${JSON.stringify(id).slice(0, 80)}; list tabs with GET /v1/tabs.`, { tab_id: id })
      return tab
    },
    find: (id) => byId.get(id),
    list: () => [...byId.values()].filter((t) => !t.page.isClosed()),
    touch (id) {
      const tab = byId.get(id)
      if (tab) tab.lastActiveAt = clock.now()
    },
    idleMs: (tab) => Math.max(0, clock.now() - tab.lastActiveAt),
    async close (id, reason) {
      const tab = registry.get(id)
      // Automatic closes re-check protection at the last moment: a handoff may have begun
      // while the close was planned. Only the explicit DELETE is an escape path.
      if (reason !== 'api') {
        const by = protectedBy(tab)
        if (by) throw new AfhttpError('tab_under_human_control', `The tab is protected (${by}) and was left open.`, { tab_id: id })
      }
      // The guard comes first: if it fails, the page stays open and the caller hears why.
      await ensureAnchor(tab.page.browser())
      closing.set(id, reason)
      try {
        await closePage(tab.page)
        forget(tab, reason)
      } finally {
        closing.delete(id)
      }
    },
    async release (id, reusable = false) {
      const tab = registry.get(id)
      const by = protectedBy(tab)
      if (by) throw new AfhttpError('tab_under_human_control', `The tab is protected (${by}) and was left open.`, { tab_id: id })
      await ensureAnchor(tab.page.browser())
      forget(tab, 'fetch_cleanup')
      // setImmediate runs after the promise chain that serializes and writes the answer; the
      // pool closes the window when the browser is quiet (see WindowPool.retire).
      setImmediate(() => {
        const pool = pools.get(tab.profile)
        if (pool?.browser === tab.page.browser()) pool.retire(tab.page, reusable)
        else if (!tab.page.isClosed()) tab.page.close().catch(() => undefined)
      })
    },
    poolAvailable: (profile) => pools.get(profile)?.available ?? 0,
    poolLevels: () => Object.fromEntries([...pools].map(([profile, pool]) => [profile, pool.available])),
    onPoolTake (fn) { poolTakes.add(fn) },
    onReaped (fn) { reaped.add(fn) },
    reap () {
      // One run at a time: two overlapping runs would race to close the same tabs.
      reaping ??= reapOnce().finally(() => { reaping = undefined })
      return reaping
    },
    lastReap: () => last,
    addProtector (fn) { protectors.push(fn) },
    onClosed (fn) { closed.add(fn) },
    addDescriber (fn) { describers.push(fn) },
    addActGuard (fn) { actGuards.push(fn) },
    assertAgentMayAct (tab) { for (const g of actGuards) g(tab) },
    beginWork (tab) {
      if (tab.busy > 0) throw new AfhttpError('tab_busy', 'Another fetch is working this tab; wait for it to answer.', { tab_id: tab.id })
      tab.busy += 1
      let done = false
      return () => {
        if (done) return
        done = true
        tab.busy -= 1
        tab.lastActiveAt = clock.now()
        // After the answer (and the fetch's own window close, see release) have gone out.
        setImmediate(() => pools.get(tab.profile)?.refill())
      }
    },
    async describe (tab) {
      const view: TabView = {
        tab_id: tab.id,
        profile: tab.profile,
        url: tab.page.url(),
        title: await boundedTitle(tab.page, { blocked: PageWatch.dialogOf(tab.page) !== undefined }),
        controller: 'agent',
        retained: tab.retained,
        idle_ms: registry.idleMs(tab),
        handoff: null
      }
      for (const d of describers) Object.assign(view, d(tab))
      return view
    }
  }

  app.decorate('tabs', registry)
  const every = Math.max(250, Math.min(30_000, Math.floor(app.config.tabIdleMs / 4)))
  const timer = setInterval(() => { registry.reap().catch((err: unknown) => app.log.error({ err }, 'idle reaper failed')) }, every)
  timer.unref()
  app.addHook('onClose', async () => {
    clearInterval(timer)
    shuttingDown = true
    // The browser's own close takes the unused windows with it.
    await Promise.allSettled([...pools.values()].map((p) => p.stop(false)))
  })
}

export default fp(tabsPlugin, { name: 'afhttp-tabs', dependencies: ['afhttp-browsers', 'afhttp-lifecycle'] })
