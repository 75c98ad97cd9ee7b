// Fakes for the tab inventory's ports (src/tabs/ports.ts): pages and targets that are plain
// objects with the few calls the inventory makes, browsers whose starts and losses a test plays,
// window pools that keep what they were asked, and a manual clock. No Chromium is started.
import type { Browser, Page, Target } from 'puppeteer-core'
import { ManualClock } from '../../src/core/clock.js'
import type { WindowPoolOptions } from '../../src/browser/window-pool.js'
import type { BrowserListener, BrowserStatus } from '../../src/browser/browser-pool.js'
import { TabInventory } from '../../src/tabs/tab-inventory.js'
import type { TabSettings } from '../../src/tabs/ports.js'
import { FakeLifecycle, FakeLog } from '../browser/fakes.js'

type Listener = (arg?: unknown) => void

/** A browser as the inventory sees it: a process (launched) or none (attached), and its targets. */
export class FakeTabBrowser {
  connected = true
  readonly #created: Array<(target: Target) => void> = []
  constructor (readonly pid?: number) {}
  process (): { pid: number } | null { return this.pid === undefined ? null : { pid: this.pid } }
  on (event: string, fn: (target: Target) => void): void { if (event === 'targetcreated') this.#created.push(fn) }
  /** Chromium announces a new target (a popup, a CDP client's page). */
  announce (target: FakeTarget): void { for (const fn of this.#created) fn(target.asTarget) }
  get asBrowser (): Browser { return this as unknown as Browser }
}

export class FakeTarget {
  openerTarget: FakeTarget | undefined
  /** One object for the target's whole life, as puppeteer's (the inventory keys tabs by it). */
  readonly asTarget: Target
  constructor (readonly page: FakePage | null, private readonly kind = 'page', private readonly address = page?.url() ?? 'about:blank') {
    this.asTarget = { type: () => this.type(), url: () => this.url(), opener: () => this.opener(), page: async () => this.pageOf() } as unknown as Target
  }

  type (): string { return this.kind }
  url (): string { return this.address }
  opener (): Target | undefined { return this.openerTarget?.asTarget }
  async pageOf (): Promise<Page | null> { return this.page?.asPage ?? null }
}

/** A page: a URL, its target, a browser, listeners for close and response, closed or not. */
export class FakePage {
  closed = false
  readonly target$: FakeTarget
  readonly #listeners = new Map<string, Set<Listener>>()
  readonly #mainFrame = {}

  constructor (private readonly address: string, readonly browserOf: FakeTabBrowser) {
    this.target$ = new FakeTarget(this, 'page', address)
  }

  url (): string { return this.address }
  isClosed (): boolean { return this.closed }
  browser (): Browser { return this.browserOf.asBrowser }
  target (): Target { return this.target$.asTarget }
  mainFrame (): object { return this.#mainFrame }
  on (event: string, fn: Listener): void { this.#set(event).add(fn) }
  off (event: string, fn: Listener): void { this.#set(event).delete(fn) }
  listeners (event: string): number { return this.#set(event).size }
  async close (): Promise<void> { this.closeNow() }

  /** The page goes away (closed by the host, a person or a script). */
  closeNow (): void {
    if (this.closed) return
    this.closed = true
    for (const fn of [...this.#set('close')]) fn()
  }

  /** A response arrives: a document of the main frame unless `frame` says otherwise. */
  respond (url: string, status: number, opts: { navigation?: boolean, frame?: object } = {}): void {
    const res = {
      request: () => ({ isNavigationRequest: () => opts.navigation ?? true }),
      frame: () => opts.frame ?? this.#mainFrame,
      status: () => status,
      url: () => url,
      headers: () => ({ 'content-type': 'text/html' })
    }
    for (const fn of [...this.#set('response')]) fn(res)
  }

  get asPage (): Page { return this as unknown as Page }
  #set (event: string): Set<Listener> {
    let set = this.#listeners.get(event)
    if (!set) this.#listeners.set(event, set = new Set())
    return set
  }
}

/** A window pool: hands out new pages (a hit while it holds any), and keeps what it was asked. */
export class FakePool {
  available = 1
  readonly owned = new Set<Target>()
  readonly retired: Array<{ page: Page, reusable: boolean }> = []
  readonly stops: boolean[] = []
  refills = 0
  constructor (readonly browser: Browser, readonly options: WindowPoolOptions, private readonly browserOf: FakeTabBrowser) {}
  async take (): Promise<{ page: Page, hit: boolean }> {
    const hit = this.available > 0
    if (hit) this.available--
    return { page: new FakePage('about:blank', this.browserOf).asPage, hit }
  }

  async owns (target: Target): Promise<boolean> { return this.owned.has(target) }
  retire (page: Page, reusable = false): void { this.retired.push({ page, reusable }) }
  refill (): void { this.refills++ }
  async stop (closeWindows = true): Promise<void> { this.stops.push(closeWindows) }
}

/** The fleet as the inventory sees it: starts and losses a test plays, a status with a pid or none. */
export class FakeBrowsers {
  readonly mode = 'headless' as const
  readonly running = new Map<string, FakeTabBrowser>()
  readonly #started: BrowserListener[] = []
  readonly #lost: Array<(profile: string) => void> = []

  async get (profile: string): Promise<Browser> {
    const b = this.running.get(profile)
    if (!b) throw new Error(`no browser for ${profile}`)
    return b.asBrowser
  }

  status (profile: string): BrowserStatus {
    const b = this.running.get(profile)
    return b ? { running: true, connected: true, backend: b.pid === undefined ? 'cdp' : 'chromium', pid: b.pid } : { running: false, connected: false }
  }

  onStarted (fn: BrowserListener): void { this.#started.push(fn) }
  onLost (fn: (profile: string) => void): void { this.#lost.push(fn) }

  start (profile: string, browser: FakeTabBrowser): void {
    this.running.set(profile, browser)
    for (const fn of this.#started) fn(profile, browser.asBrowser)
  }

  lose (profile: string): void {
    this.running.delete(profile)
    for (const fn of this.#lost) fn(profile)
  }
}

export const IDLE_MS = 60_000

/** An inventory over fakes, and the fakes to drive and read it with. */
export function fakeInventory (settings: TabSettings = { tabIdleMs: IDLE_MS, tabPool: 2 }) {
  const clock = new ManualClock()
  const log = new FakeLog()
  const lifecycle = new FakeLifecycle()
  const browsers = new FakeBrowsers()
  const pools: FakePool[] = []
  const anchorGuards: Browser[] = []
  let guardFails: Error | undefined
  const inventory = new TabInventory({
    clock,
    log,
    lifecycle,
    browsers,
    pages: {
      ensureAnchor: async (browser) => {
        anchorGuards.push(browser)
        if (guardFails) throw guardFails
      },
      close: async (page) => { await page.close() },
      title: async (page) => `title of ${page.url()}`,
      anchorAttached: async () => undefined,
      openPool: (browser, options) => {
        const pool = new FakePool(browser, options, browser as unknown as FakeTabBrowser)
        pools.push(pool)
        return pool
      }
    },
    settings: () => settings
  })
  return {
    inventory,
    clock,
    log,
    lifecycle,
    browsers,
    pools,
    anchorGuards,
    failAnchorGuard: (err: Error | undefined) => { guardFails = err }
  }
}

/** Lets setImmediate callbacks (release, the end of work) and settled promises run. */
export function nextTurn (): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}
