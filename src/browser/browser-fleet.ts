// Every profile's browser (docs/spec.md section 22): started on explicit use, once however many ask
// at the same moment, started again after a crash, recorded and closed at shutdown. Its
// dependencies come in through the constructor (src/browser/fleet-ports.ts), as WindowPool's do,
// so its decisions are unit-tested with fakes; src/plugins/browsers.ts hands it the app's.
import type { Browser } from 'puppeteer-core'
import { AfhttpError } from '../errors.js'
import { Listeners } from '../core/listeners.js'
import type { RecordOutcome } from './cookie-journal.js'
import type { Egress } from './egress.js'
import type { BrowserListener, BrowserPool, BrowserStatus } from './browser-pool.js'
import type { BrowserEntry, BrowserFleetDeps } from './fleet-ports.js'

/** While a browser runs, its jar is compared this often and recorded when it changed. */
export const COOKIE_RECORD_INTERVAL_MS = 5_000

export class BrowserFleet implements BrowserPool {
  readonly mode: 'headful' | 'headless'
  readonly #d: BrowserFleetDeps
  readonly #entries = new Map<string, BrowserEntry>()
  // A listener that throws is logged: it never fails a launch nor hides a loss from the others.
  readonly #started: Listeners<[string, Browser]>
  readonly #lost: Listeners<[string]>
  readonly #recorder: NodeJS.Timeout

  constructor (deps: BrowserFleetDeps) {
    this.#d = deps
    this.mode = deps.mode
    this.#started = new Listeners<[string, Browser]>((err, profile) => deps.log.error({ err, profile }, 'browser start listener failed'))
    this.#lost = new Listeners<[string]>((err, profile) => deps.log.error({ err, profile }, 'browser loss listener failed'))
    // Between the named moments (fetch, handoff end, shutdown) a login can happen mid-handoff:
    // a cheap periodic comparison keeps a crash from losing it (docs/spec.md section 13).
    this.#recorder = setInterval(() => { this.recordChangedJars() }, COOKIE_RECORD_INTERVAL_MS)
    this.#recorder.unref()
  }

  async get (profile: string): Promise<Browser> {
    let entry = this.#entries.get(profile)
    if (!entry) {
      entry = { owned: false, backend: 'chromium' }
      this.#entries.set(profile, entry)
    }
    if (entry.browser?.connected) return entry.browser
    // Callers that ask while it starts share the one start.
    if (entry.starting) return entry.starting
    const e = entry
    e.starting = this.#start(profile, e).catch((err: unknown) => {
      e.error = (err as Error).message
      throw err instanceof AfhttpError ? err : new AfhttpError('backend_unavailable', e.error, {}, { cause: err })
    }).finally(() => { e.starting = undefined })
    return e.starting
  }

  peek (profile: string): Browser | undefined {
    const b = this.#entries.get(profile)?.browser
    return b?.connected ? b : undefined
  }

  status (profile: string): BrowserStatus {
    const e = this.#entries.get(profile)
    if (!e) return { running: false, connected: false }
    const connected = e.browser?.connected === true
    return {
      running: connected,
      connected,
      backend: e.backend,
      pid: e.pid,
      ...(e.starting && !connected ? { starting: true } : {}),
      ...(e.error ? { error: e.error } : {})
    }
  }

  chromiumVersion (profile: string): string | undefined { return this.#entries.get(profile)?.version }
  egress (profile: string): Egress | undefined { return this.#entries.get(profile)?.egress }
  onStarted (listener: BrowserListener): void { this.#started.add(listener) }
  onLost (listener: (profile: string) => void): void { this.#lost.add(listener) }

  async recordCookies (profile: string, reason: string): Promise<RecordOutcome> {
    const e = this.#entries.get(profile)
    if (!e?.journal || !e.browser?.connected) return 'unchanged'
    return e.journal.record(e.browser, reason)
  }

  /** The periodic record: every running browser with a record that the host is not closing. */
  recordChangedJars (): void {
    for (const [profile, e] of this.#entries) if (e.journal && e.browser?.connected && !e.closing) void this.recordCookies(profile, 'interval')
  }

  async closeAll (): Promise<void> {
    this.#d.shutdown.abort()
    clearInterval(this.#recorder)
    await Promise.all([...this.#entries.entries()].map(async ([profile, e]) => {
      // A launch racing shutdown would orphan its Chromium: abort it (a slow Chromium must not
      // hold the shutdown past its grace period) and let it close what it started.
      if (e.starting) await e.starting.catch(() => undefined)
      const b = e.browser
      if (!b) return
      if (e.journal && b.connected) await e.journal.record(b, 'shutdown')
      e.closing = true
      try {
        if (e.owned) await b.close()
        else await b.disconnect()
      } catch (err) {
        this.#d.log.warn({ profile, err }, 'browser did not close cleanly')
        b.process()?.kill('SIGKILL')
      }
      await e.egress?.close()
    }))
    await this.#d.stopHostProcesses()
  }

  async #start (profile: string, entry: BrowserEntry): Promise<Browser> {
    const browser = await this.#d.launch(profile, entry)
    const egress = entry.egress
    // Only now is the browser handed out (get, peek, /health): restored, anchored, ready.
    entry.browser = browser
    entry.error = undefined
    browser.on('disconnected', () => {
      if (entry.egress === egress) {
        void egress?.close()
        entry.egress = undefined
      }
      if (entry.browser !== browser) return
      entry.browser = undefined
      if (!entry.closing) {
        const code = browser.process()?.exitCode
        entry.error = `browser disconnected${code != null ? ` (exit code ${code})` : ''}`
        this.#d.log.error({ profile, pid: entry.pid, error: entry.error }, 'browser went away; the next explicit use starts it again')
      }
      this.#lost.emit(profile)
      this.#d.lifecycle.emit('browser.lost', { profile }, {})
    })
    this.#started.emit(profile, browser)
    this.#d.lifecycle.emit('browser.started', { profile }, { pid: browser.process()?.pid ?? null })
    return browser
  }
}
