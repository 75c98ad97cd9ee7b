// The tab inventory (docs/spec.md section 8): every tab the host tracks, opened by it or adopted
// from its browsers, how each one closes and what it tells when it does. Its dependencies come in
// through the constructor (src/tabs/ports.ts), as WindowPool's do, so its rules are unit-tested
// with fakes; src/plugins/tabs.ts hands it the app's. The windows waiting for fetches are
// src/tabs/profile-pools.ts, the idle reaper src/tabs/idle-reaper.ts.
import type { Browser, HTTPResponse, Page, Target } from 'puppeteer-core'
import { AfhttpError } from '../errors.js'
import { newTabId } from '../core/tab-id.js'
import { Listeners } from '../core/listeners.js'
import { isAnchorUrl } from '../browser/window-anchor.js'
import { IdleReaper } from './idle-reaper.js'
import { ProfilePools } from './profile-pools.js'
import type { TabInventoryDeps } from './ports.js'
import type { ReapReport, TabCloseReason, TabRecord, TabRegistry, TabView } from './types.js'

export class TabInventory implements TabRegistry {
  readonly #d: TabInventoryDeps
  readonly #byId = new Map<string, TabRecord>()
  readonly #byTarget = new WeakMap<Target, TabRecord>()
  readonly #closing = new Map<string, TabCloseReason>()
  // What other plugins add: protectors and act guards decide, describers and listeners hear.
  readonly #protectors: Array<(tab: TabRecord) => string | undefined> = []
  readonly #actGuards: Array<(tab: TabRecord) => void> = []
  readonly #describers: Array<(tab: TabRecord) => Partial<TabView>> = []
  readonly #closed: Listeners<[TabRecord, TabCloseReason]>
  readonly #poolTakes: Listeners<[string, boolean]>
  // What register() hung on a page for its tab; removed when the tab ends, so a window reset
  // for another fetch (see WindowPool) starts as a new tab with nothing of the old one on it.
  readonly #unhook = new WeakMap<TabRecord, () => void>()
  readonly #pools: ProfilePools
  readonly #reaper: IdleReaper

  constructor (deps: TabInventoryDeps) {
    this.#d = deps
    const { log, browsers, clock } = deps
    this.#closed = new Listeners<[TabRecord, TabCloseReason]>((err) => log.error({ err }, 'tab close listener failed'))
    this.#poolTakes = new Listeners<[string, boolean]>((err) => log.error({ err }, 'pool listener failed'))
    this.#pools = new ProfilePools({
      pages: deps.pages,
      log,
      size: () => deps.settings().tabPool,
      headful: browsers.mode === 'headful',
      now: () => clock.now(),
      running: (profile) => this.#running(profile),
      adoptForeign: (profile, page) => { this.#register(profile, page, 'adopted') }
    })
    this.#reaper = new IdleReaper({
      clock,
      log,
      idleLimitMs: () => deps.settings().tabIdleMs,
      tabs: () => this.list(),
      current: (id) => this.#byId.get(id),
      idleMs: (t) => this.idleMs(t),
      protectedBy: (t) => t.busy > 0 ? 'agent operation in flight' : this.#protectedBy(t),
      foreign: (t) => t.origin === 'adopted' && !browsers.status(t.profile).pid,
      close: (id) => this.close(id, 'reaper')
    })
    browsers.onStarted((profile: string, browser: Browser) => {
      this.#pools.for(profile, browser)
      browser.on('targetcreated', (target: Target) => {
        this.#adopt(profile, target).catch((err: unknown) => log.debug({ err }, 'a new page could not be adopted'))
      })
    })
    browsers.onLost((profile) => {
      this.#pools.lost(profile)
      for (const tab of [...this.#byId.values()]) if (tab.profile === profile) this.#forget(tab, 'browser_lost')
    })
  }

  /** A tab in a window of its own; `forUrl`, the address it will load first, picks a window that may serve it (see WindowPool.take). */
  async open (profile: string, forUrl?: string): Promise<TabRecord> {
    const browser = await this.#d.browsers.get(profile)
    // Each tab gets its own window (see WindowPool), opened ahead of time when the pool has one.
    const { page, hit } = await this.#pools.for(profile, browser).take(forUrl)
    this.#poolTakes.emit(profile, hit)
    return this.#register(profile, page, 'host')
  }

  get (id: string): TabRecord {
    const tab = this.#byId.get(id)
    if (!tab) throw new AfhttpError('tab_not_found', `No tab ${JSON.stringify(id).slice(0, 80)}; list tabs with GET /v1/tabs.`, { tab_id: id })
    return tab
  }

  find (id: string): TabRecord | undefined { return this.#byId.get(id) }
  list (): TabRecord[] { return [...this.#byId.values()].filter((t) => !t.page.isClosed()) }

  touch (id: string): void {
    const tab = this.#byId.get(id)
    if (tab) tab.lastActiveAt = this.#d.clock.now()
  }

  idleMs (tab: TabRecord): number { return Math.max(0, this.#d.clock.now() - tab.lastActiveAt) }

  async close (id: string, reason: TabCloseReason): Promise<void> {
    const tab = this.get(id)
    // Automatic closes re-check protection at the last moment: a handoff may have begun
    // while the close was planned. Only the explicit DELETE is an escape path.
    if (reason !== 'api') {
      const by = this.#protectedBy(tab)
      if (by) throw new AfhttpError('tab_under_human_control', `The tab is protected (${by}) and was left open.`, { tab_id: id })
    }
    // The guard comes first: if it fails, the page stays open and the caller hears why.
    await this.#d.pages.ensureAnchor(tab.page.browser())
    this.#closing.set(id, reason)
    try {
      await this.#d.pages.close(tab.page)
      this.#forget(tab, reason)
    } finally {
      this.#closing.delete(id)
    }
  }

  async release (id: string, reusable = false): Promise<void> {
    const tab = this.get(id)
    const by = this.#protectedBy(tab)
    if (by) throw new AfhttpError('tab_under_human_control', `The tab is protected (${by}) and was left open.`, { tab_id: id })
    await this.#d.pages.ensureAnchor(tab.page.browser())
    this.#forget(tab, 'fetch_cleanup')
    // setImmediate runs after the promise chain that serializes and writes the answer; the
    // pool closes the window when the browser is quiet (see WindowPool.retire).
    setImmediate(() => { this.#pools.retire(tab.profile, tab.page, reusable) })
  }

  poolAvailable (profile: string): number { return this.#pools.available(profile) }
  poolLevels (): Record<string, number> { return this.#pools.levels() }
  onPoolTake (fn: (profile: string, hit: boolean) => void): void { this.#poolTakes.add(fn) }
  onReaped (fn: (report: ReapReport) => void): void { this.#reaper.onReaped(fn) }
  reap (): Promise<ReapReport> { return this.#reaper.reap() }
  lastReap (): ReapReport | undefined { return this.#reaper.last() }
  addProtector (fn: (tab: TabRecord) => string | undefined): void { this.#protectors.push(fn) }
  onClosed (fn: (tab: TabRecord, reason: TabCloseReason) => void): void { this.#closed.add(fn) }
  addDescriber (fn: (tab: TabRecord) => Partial<TabView>): void { this.#describers.push(fn) }
  addActGuard (fn: (tab: TabRecord) => void): void { this.#actGuards.push(fn) }
  assertAgentMayAct (tab: TabRecord): void { for (const g of this.#actGuards) g(tab) }

  beginWork (tab: TabRecord): () => void {
    if (tab.busy > 0) throw new AfhttpError('tab_busy', 'Another fetch is working this tab; wait for it to answer.', { tab_id: tab.id })
    tab.busy += 1
    let done = false
    return () => {
      if (done) return
      done = true
      tab.busy -= 1
      tab.lastActiveAt = this.#d.clock.now()
      // After the answer (and the fetch's own window close, see release) have gone out.
      setImmediate(() => { this.#pools.refill(tab.profile) })
    }
  }

  async describe (tab: TabRecord): Promise<TabView> {
    const view: TabView = {
      tab_id: tab.id,
      profile: tab.profile,
      url: tab.page.url(),
      title: await this.#d.pages.title(tab.page),
      controller: 'agent',
      retained: tab.retained,
      idle_ms: this.idleMs(tab),
      handoff: null
    }
    for (const d of this.#describers) Object.assign(view, d(tab))
    return view
  }

  /** The reaper's timer runs from now until shutdown(). */
  startReaping (): void { this.#reaper.start() }

  /** The host closes: the reaper stops, then the pools (the browser's own close takes their windows). */
  async shutdown (): Promise<void> {
    this.#reaper.stop()
    await this.#pools.stopAll()
  }

  #protectedBy (tab: TabRecord): string | undefined {
    return this.#protectors.map((p) => p(tab)).find(Boolean)
  }

  /** Fetches of the profile in flight: the pool waits while there are any. */
  #running (profile: string): number {
    let n = 0
    for (const t of this.#byId.values()) if (t.profile === profile && t.busy > 0) n++
    return n
  }

  #forget (tab: TabRecord, reason: TabCloseReason): void {
    if (!this.#byId.delete(tab.id)) return
    if (this.#byTarget.get(tab.page.target()) === tab) this.#byTarget.delete(tab.page.target())
    this.#unhook.get(tab)?.()
    this.#closed.emit(tab, reason)
    // After the listeners: a handoff on the tab is revoked before the tab is told closed.
    this.#d.lifecycle.emit('tab.closed', { tab_id: tab.id, profile: tab.profile }, { reason })
  }

  /** The tab whose page opened this one (a popup's opener), if the host tracks it. */
  #openerOf (page: Page): string | undefined {
    const opener = page.target().opener()
    if (!opener) return undefined
    for (const t of this.#byId.values()) if (t.page.target() === opener) return t.id
    return undefined
  }

  #register (profile: string, page: Page, origin: TabRecord['origin']): TabRecord {
    const target = page.target()
    const known = this.#byTarget.get(target)
    if (known) {
      // Our own newPage() and the targetcreated event race; the host's claim wins.
      if (origin === 'host') known.origin = 'host'
      return known
    }
    const now = this.#d.clock.now()
    const tab: TabRecord = { id: newTabId(), profile, page, openedAt: now, lastActiveAt: now, retained: false, origin, busy: 0 }
    this.#byTarget.set(target, tab)
    this.#byId.set(tab.id, tab)
    const opener = this.#openerOf(page)
    this.#d.lifecycle.emit('tab.opened', { tab_id: tab.id, profile }, { url: page.url(), origin, ...(opener ? { opener_tab_id: opener } : {}) })
    const onClose = (): void => { this.#forget(tab, this.#closing.get(tab.id) ?? 'page_closed') }
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
    this.#unhook.set(tab, () => { page.off('close', onClose); page.off('response', onResponse) })
    return tab
  }

  async #adopt (profile: string, target: Target): Promise<void> {
    if (target.type() !== 'page' || isAnchorUrl(target.url())) return
    // Pool windows are not tabs until a fetch takes one (and then the fetch registers it).
    if (await this.#pools.owns(profile, target)) return
    const page = await target.page().catch(() => null)
    // A popup may already be gone (page.url() then throws): a page must never crash the host.
    if (page && !page.isClosed() && !isAnchorUrl(page.url())) this.#register(profile, page, 'adopted')
  }
}
