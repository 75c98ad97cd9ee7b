// Fakes for the browser fleet's ports (src/browser/fleet-ports.ts) and the host's side processes
// (src/browser/host-processes.ts): a browser that is a plain object with the few calls the fleet
// makes, a launch a test settles by hand, a journal and a log that keep what they were told, and a
// lifecycle that keeps its transitions. No Chromium is started.
import type { Browser } from 'puppeteer-core'
import type { RecordOutcome } from '../../src/browser/cookie-journal.js'
import type { Egress } from '../../src/browser/egress.js'
import type { BrowserEntry } from '../../src/browser/fleet-ports.js'
import { BrowserFleet } from '../../src/browser/browser-fleet.js'
import type { TransitionData, TransitionType } from '../../src/core/lifecycle.js'

/** A browser: connected until it crashes, closes or is disconnected, with a process when launched. */
export class FakeBrowser {
  connected = true
  readonly calls: string[] = []
  /** close()/disconnect() reject (a browser that does not close cleanly). */
  failClose = false
  readonly child: { pid: number, exitCode: number | null, signals: string[], kill: (signal: string) => void } | undefined
  readonly #disconnected: Array<() => void> = []

  constructor (pid?: number) {
    const signals: string[] = []
    this.child = pid === undefined ? undefined : { pid, exitCode: null, signals, kill: (signal) => { signals.push(signal) } }
  }

  process (): FakeBrowser['child'] | null { return this.child ?? null }
  on (event: string, fn: () => void): void { if (event === 'disconnected') this.#disconnected.push(fn) }
  async close (): Promise<void> { this.calls.push('close'); this.#end() }
  async disconnect (): Promise<void> { this.calls.push('disconnect'); this.#end() }

  /** The process dies on its own (exit code `code`). */
  crash (code: number): void {
    if (this.child) this.child.exitCode = code
    this.connected = false
    for (const fn of this.#disconnected) fn()
  }

  #end (): void {
    if (this.failClose) throw new Error('Target closed')
    this.connected = false
    for (const fn of this.#disconnected) fn()
  }

  get asBrowser (): Browser { return this as unknown as Browser }
}

/** A launch that waits until the test settles it, and sees the entry the fleet hands it. */
export class FakeLaunch {
  readonly calls: Array<{ profile: string, entry: BrowserEntry, restart: boolean }> = []
  #pending: Array<{ resolve: (b: Browser) => void, reject: (err: unknown) => void }> = []

  readonly launch = (profile: string, entry: BrowserEntry): Promise<Browser> => {
    this.calls.push({ profile, entry, restart: entry.error !== undefined })
    return new Promise<Browser>((resolve, reject) => { this.#pending.push({ resolve, reject }) })
  }

  /** The oldest launch succeeds with `browser`; the entry gets what a real launch fills in. */
  succeed (browser: FakeBrowser, fill: Partial<BrowserEntry> = {}): void {
    const call = this.calls[this.calls.length - this.#pending.length]
    Object.assign(call.entry, { owned: browser.child !== undefined, pid: browser.child?.pid, ...fill })
    this.#pending.shift()?.resolve(browser.asBrowser)
  }

  fail (err: unknown): void { this.#pending.shift()?.reject(err) }
}

export class FakeJournal {
  readonly records: Array<{ browser: Browser, reason: string }> = []
  outcome: RecordOutcome = 'written'
  async record (browser: Browser, reason: string): Promise<RecordOutcome> {
    this.records.push({ browser, reason })
    return this.outcome
  }

  async restore (): Promise<number> { return 0 }
}

export class FakeEgress {
  closed = 0
  readonly proxyServer = 'http://127.0.0.1:1'
  async close (): Promise<void> { this.closed++ }
  get asEgress (): Egress { return this as unknown as Egress }
}

export interface LogLine { level: string, obj: Record<string, unknown>, msg: string }

export class FakeLog {
  readonly lines: LogLine[] = []
  debug (obj: object, msg: string): void { this.lines.push({ level: 'debug', obj: obj as Record<string, unknown>, msg }) }
  info (obj: object, msg: string): void { this.lines.push({ level: 'info', obj: obj as Record<string, unknown>, msg }) }
  warn (obj: object, msg: string): void { this.lines.push({ level: 'warn', obj: obj as Record<string, unknown>, msg }) }
  error (obj: object, msg: string): void { this.lines.push({ level: 'error', obj: obj as Record<string, unknown>, msg }) }
  find (msg: string): LogLine | undefined { return this.lines.find((l) => l.msg === msg) }
}

export interface Told { type: TransitionType, where: { tab_id?: string, profile?: string }, data: unknown }

export class FakeLifecycle {
  readonly told: Told[] = []
  emit<K extends TransitionType> (type: K, where: { tab_id?: string, profile?: string }, data: TransitionData<K>): void {
    this.told.push({ type, where, data })
  }

  types (): string[] { return this.told.map((x) => x.type) }
}

/** A fleet over fakes, and the fakes to drive and read it with. */
export function fakeFleet () {
  const launch = new FakeLaunch()
  const log = new FakeLog()
  const lifecycle = new FakeLifecycle()
  const shutdown = new AbortController()
  const hostProcessesStopped: number[] = []
  const fleet = new BrowserFleet({
    mode: 'headless',
    log,
    lifecycle,
    shutdown,
    launch: launch.launch,
    stopHostProcesses: async () => { hostProcessesStopped.push(Date.now()) }
  })
  return { fleet, launch, log, lifecycle, shutdown, hostProcessesStopped }
}
