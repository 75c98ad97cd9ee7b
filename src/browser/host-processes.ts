// The processes the host runs beside its browsers (docs/spec.md sections 13 and 22): its own Xvfb
// for a headful Chromium without a display, the watchdog that ends them all if the host dies, and
// the sweep of what a dead host left running on these profiles. The process starters come in
// through the constructor, so the rules (start once, again after an exit, never while shutting
// down) are unit-tested without spawning anything.
import { AfhttpError } from '../errors.js'
import type { BrowserModePlan } from '../core/browser-mode.js'
import { ownerEnv, ownerMarkers, type Orphan } from './orphans.js'
import type { Watchdog, WatchdogLogger } from './watchdog.js'
import type { XvfbServer } from './xvfb.js'

export interface HostProcessesLogger extends WatchdogLogger {
  info (obj: object, msg: string): void
}

export interface HostProcessesDeps {
  /** The profiles directory: the owner marker every process the host starts carries names it. */
  root: string
  plan: BrowserModePlan
  log: HostProcessesLogger
  /** Aborted when the host shuts down: an Xvfb still starting stops, and an exit is no longer a loss. */
  signal: AbortSignal
  startXvfb: (path: string, env: Record<string, string | undefined>, signal: AbortSignal) => Promise<XvfbServer>
  startWatchdog: (markers: string[], log: WatchdogLogger) => Watchdog
  endOrphans: (root: string) => Promise<Orphan[]>
}

export class HostProcesses {
  readonly #d: HostProcessesDeps
  #xvfb: Promise<XvfbServer> | undefined
  #watchdog: Watchdog | undefined

  constructor (deps: HostProcessesDeps) {
    this.#d = deps
  }

  /** docs/spec.md section 22: before the first process is started, a watchdog that ends them all if we die. */
  guard (): void {
    this.#watchdog ??= this.#d.startWatchdog(ownerMarkers(this.#d.root), this.#d.log)
  }

  /** The display Chromium runs on: the configured one, or our own Xvfb (started once, again if it died). */
  async display (): Promise<string | undefined> {
    const { plan, root, log, signal } = this.#d
    if (plan.mode !== 'headful' || plan.xvfbPath === undefined) return plan.display
    const xvfbPath = plan.xvfbPath
    this.guard()
    this.#xvfb ??= this.#d.startXvfb(xvfbPath, { ...process.env, ...ownerEnv(root) }, signal).then((server) => {
      log.info({ display: server.display, pid: server.pid }, 'started Xvfb for a headful Chromium')
      void server.exited.then(() => { if (this.#xvfb && !signal.aborted) { log.warn({ display: server.display }, 'Xvfb exited'); this.#xvfb = undefined } })
      return server
    }, (err: unknown) => {
      this.#xvfb = undefined
      throw new AfhttpError('backend_unavailable', `A headful Chromium needs a display: ${(err as Error).message}`, {}, { cause: err })
    })
    return (await this.#xvfb).display
  }

  /** A host killed without cleanup left its Chromium/Xvfb holding our profiles: end them (only those). */
  async reclaimOrphans (): Promise<void> {
    const ended = await this.#d.endOrphans(this.#d.root)
    if (ended.length) {
      this.#d.log.warn({
        ended: ended.map((o) => ({ pid: o.pid, command: o.command })),
        dead_host_pid: [...new Set(ended.map((o) => o.owner.pid))]
      }, 'ended browser processes left running by a dead afhttp host on these profiles')
    }
  }

  /** After every browser has closed: stop our Xvfb, and the watchdog leaves without a sweep. */
  async stop (): Promise<void> {
    const server = await this.#xvfb?.catch(() => undefined)
    this.#xvfb = undefined
    await server?.stop()
    this.#watchdog?.dismiss()
    this.#watchdog = undefined
  }
}
