// Fakes for the handoff registry's ports (src/handoffs/ports.ts): pages that are plain objects
// with the few calls the registry's pieces make, a tab inventory over them, a lifecycle that keeps
// what it was told, a live-check runner that answers what a test says, and a log that keeps lines.
// No browser is started.
import type { Page } from 'puppeteer-core'
import { AfhttpError } from '../../src/errors.js'
import { ManualClock } from '../../src/core/clock.js'
import type { JarCookie } from '../../src/core/handoff.js'
import type { Transition, TransitionData, TransitionExtras, TransitionType } from '../../src/core/lifecycle.js'
import type { LiveCheck, LiveCheckTarget } from '../../src/browser/live-checks.js'
import type { TabCloseReason, TabRecord, TabView } from '../../src/tabs/types.js'
import { HandoffRegistry } from '../../src/handoffs/registry.js'
import type { HandoffSettings } from '../../src/handoffs/ports.js'

type ResponseListener = (res: unknown) => void

/** A page as the registry sees it: a URL, open or closed, a connected browser, a cookie jar. */
export class FakePage {
  closed = false
  connected = true
  jar: JarCookie[] = []
  /** The target of the page that opened this one (a popup's opener), if any. */
  openerTarget: object | undefined
  readonly #target = { opener: (): object | undefined => this.openerTarget }
  readonly #mainFrame = {}
  readonly #responses = new Set<ResponseListener>()

  constructor (private address: string) {}

  url (): string { return this.address }
  isClosed (): boolean { return this.closed }
  browser (): { connected: boolean } { return { connected: this.connected } }
  target (): object { return this.#target }
  mainFrame (): object { return this.#mainFrame }
  /** No element matches any selector (resolveAim measures regions with it). */
  async evaluate (): Promise<null> { return null }

  on (event: string, fn: ResponseListener): void { if (event === 'response') this.#responses.add(fn) }
  off (event: string, fn: ResponseListener): void { if (event === 'response') this.#responses.delete(fn) }

  /** While set, a read of the jar answers only once it resolves (a browser slow to answer). */
  jarAnswers: Promise<void> | undefined

  /** The jar the registry reads for the outcome's cookie names. */
  async createCDPSession (): Promise<{ send: () => Promise<{ cookies: JarCookie[] }>, detach: () => Promise<void> }> {
    const cookies = this.jar.map((c) => ({ ...c }))
    return { send: async () => { await this.jarAnswers; return { cookies } }, detach: async () => undefined }
  }

  /** The main frame loads a document at `url` (what watchNavigations hears). */
  navigate (url: string, status = 200): void {
    this.address = url
    const res = {
      request: () => ({ isNavigationRequest: () => true }),
      status: () => status,
      frame: () => this.#mainFrame,
      url: () => url
    }
    for (const fn of [...this.#responses]) fn(res)
  }

  /** How many response listeners are attached (the registry's page watches). */
  get watchers (): number { return this.#responses.size }
}

export interface FakeTab extends TabRecord { readonly fake: FakePage }

/** The tab inventory: get/find/list, and the hooks the handoffs wire into it. */
export class FakeTabs {
  readonly #byId = new Map<string, FakeTab>()
  readonly actGuards: Array<(tab: TabRecord) => void> = []
  readonly protectors: Array<(tab: TabRecord) => string | undefined> = []
  readonly describers: Array<(tab: TabRecord) => Partial<TabView>> = []
  readonly closedListeners: Array<(tab: TabRecord, reason: TabCloseReason) => void> = []

  add (id: string, url = 'https://shop.example/cart', profile = 'default'): FakeTab {
    const fake = new FakePage(url)
    const tab: FakeTab = { id, profile, page: fake as unknown as Page, fake, openedAt: 0, lastActiveAt: 0, retained: false, origin: 'host', busy: 0 }
    this.#byId.set(id, tab)
    return tab
  }

  get (id: string): TabRecord {
    const tab = this.#byId.get(id)
    if (!tab) throw new AfhttpError('tab_not_found', `No tab ${id}`, { tab_id: id })
    return tab
  }

  find (id: string): TabRecord | undefined { return this.#byId.get(id) }
  list (): TabRecord[] { return [...this.#byId.values()].filter((t) => !t.page.isClosed()) }

  /** The tab leaves the inventory and its listeners hear why, as the real registry does. */
  close (id: string, reason: TabCloseReason): void {
    const tab = this.#byId.get(id)
    if (!tab) return
    tab.fake.closed = true
    this.#byId.delete(id)
    for (const fn of this.closedListeners) fn(tab, reason)
  }

  addActGuard (fn: (tab: TabRecord) => void): void { this.actGuards.push(fn) }
  addProtector (fn: (tab: TabRecord) => string | undefined): void { this.protectors.push(fn) }
  addDescriber (fn: (tab: TabRecord) => Partial<TabView>): void { this.describers.push(fn) }
  onClosed (fn: (tab: TabRecord, reason: TabCloseReason) => void): void { this.closedListeners.push(fn) }
}

export interface Told { type: TransitionType, where: { tab_id?: string, profile?: string }, data: Record<string, unknown>, extras: TransitionExtras }

/** Keeps every transition it is told, in order; `tell` plays one to the subscribers. */
export class FakeLifecycle {
  readonly told: Told[] = []
  readonly #listeners = new Map<TransitionType, Array<(t: Transition, extras: TransitionExtras) => void>>()

  emit<K extends TransitionType> (type: K, where: { tab_id?: string, profile?: string }, data: TransitionData<K>, extras: TransitionExtras = {}): void {
    this.told.push({ type, where, data: data as Record<string, unknown>, extras })
  }

  on<K extends TransitionType> (type: K, fn: (t: Transition<K>, extras: TransitionExtras) => void): void {
    const list = this.#listeners.get(type) ?? []
    list.push(fn as unknown as (t: Transition, extras: TransitionExtras) => void)
    this.#listeners.set(type, list)
  }

  tell<K extends TransitionType> (type: K, tabId: string, data: TransitionData<K>): void {
    const t = { type, at: 0, tab_id: tabId, data } as Transition
    for (const fn of this.#listeners.get(type) ?? []) fn(t, {})
  }

  types (): string[] { return this.told.map((x) => x.type) }
  of (type: TransitionType): Told[] { return this.told.filter((x) => x.type === type) }
}

/** Answers every run with `checks` (all passing by default) and keeps what it was asked. */
export class FakeLiveChecks {
  checks: LiveCheck[] = [{ name: 'browser_connected', ok: true, ms: 0 }, { name: 'page_answers', ok: true, ms: 1 }]
  readonly targets: LiveCheckTarget[] = []
  /** Runs while the checks "take a moment" (a tab closing meanwhile). */
  during: (() => void) | undefined
  readonly run = async (target: LiveCheckTarget): Promise<LiveCheck[]> => {
    this.targets.push(target)
    this.during?.()
    return this.checks.map((c) => ({ ...c }))
  }
}

export class FakeLog {
  readonly lines: Array<{ level: 'info' | 'error', obj: object, msg: string }> = []
  info (obj: object, msg: string): void { this.lines.push({ level: 'info', obj, msg }) }
  error (obj: object, msg: string): void { this.lines.push({ level: 'error', obj, msg }) }
  messages (): string[] { return this.lines.map((l) => l.msg) }
}

export const HOLD_MS = 60_000
export const PUBLIC_URL = 'http://127.0.0.1:8780/afhttp'

/** A registry over fakes, and the fakes to drive and read it with. */
export function fakeRegistry (settings: HandoffSettings = { handoffHoldMs: HOLD_MS, publicUrl: PUBLIC_URL }) {
  const clock = new ManualClock()
  const tabs = new FakeTabs()
  const lifecycle = new FakeLifecycle()
  const checks = new FakeLiveChecks()
  const log = new FakeLog()
  const metrics: LiveCheck[][] = []
  const registry = new HandoffRegistry({
    clock,
    tabs,
    lifecycle,
    log,
    settings: () => settings,
    runLiveChecks: checks.run,
    onLiveChecks: (c) => { metrics.push(c) }
  })
  return { registry, clock, tabs, lifecycle, checks, log, metrics }
}

/** The AfhttpError `fn` throws (or its promise rejects with), for assertions on code, message and details. */
export async function afhttpErrorOf (fn: () => unknown): Promise<AfhttpError> {
  try {
    await fn()
  } catch (err) {
    if (err instanceof AfhttpError) return err
    throw err
  }
  throw new Error('expected an AfhttpError, nothing was thrown')
}

/** The secret of a minted panel URL (its last path segment). */
export function secretOf (res: { takeover_url_secret?: string }): string {
  const url = res.takeover_url_secret
  if (url === undefined) throw new Error('the mint answered without a panel URL')
  return url.slice(url.lastIndexOf('/') + 1)
}
