import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { Browser } from 'puppeteer-core'
import { AfhttpError } from '../errors.js'
import { startBrowser } from '../browser/backend.js'
import { ensureAnchor } from '../browser/window-anchor.js'

export interface BrowserStatus {
  running: boolean
  connected: boolean
  backend?: 'chromium' | 'cdp'
  pid?: number
  error?: string
}

interface Entry {
  browser?: Browser
  owned: boolean
  pid?: number
  backend: 'chromium' | 'cdp'
  starting?: Promise<Browser>
  /** Why the last browser went away or failed to start; cleared by a successful start. */
  error?: string
  version?: string
  /** Settles when the last launched process has exited (a relaunch waits, bounded, for it). */
  exited?: Promise<void>
  /** Set while the host itself closes the browser, so the disconnect is not reported as a crash. */
  closing?: boolean
}

/** Resolves when the launched process exits, or 3 s after the disconnect, whichever comes first. */
function processExit (browser: Browser): Promise<void> {
  const child = browser.process()
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise<void>((resolve) => {
    child.once('exit', () => resolve())
    // Never block a relaunch on a process that will not go away; the singleton check decides then.
    browser.once('disconnected', () => { setTimeout(resolve, 3_000).unref() })
  })
}

export type BrowserListener = (profile: string, browser: Browser) => void

export interface BrowserPool {
  /** The profile's browser, started (or restarted after a crash) on this explicit use. */
  get (profile: string): Promise<Browser>
  /** The running browser, if any; never starts one (health uses this). */
  peek (profile: string): Browser | undefined
  status (profile: string): BrowserStatus
  /** The Chromium version read at start, kept after a crash for /health. */
  chromiumVersion (profile: string): string | undefined
  onStarted (listener: BrowserListener): void
  onLost (listener: (profile: string) => void): void
  closeAll (): Promise<void>
}

declare module 'fastify' {
  interface FastifyInstance {
    browsers: BrowserPool
  }
}

async function browsersPlugin (app: FastifyInstance): Promise<void> {
  const entries = new Map<string, Entry>()
  const started: BrowserListener[] = []
  const lost: Array<(profile: string) => void> = []

  async function launch (profile: string, entry: Entry): Promise<Browser> {
    const meta = await app.profiles.get(profile)
    await app.profiles.acquire(profile)
    entry.backend = meta.backend
    const restart = entry.error !== undefined
    await entry.exited?.catch(() => undefined)
    app.log.info({ profile, backend: meta.backend, restart, previous_error: entry.error }, restart ? 'restarting browser after it went away' : 'starting browser')
    const result = await startBrowser({
      backend: meta.backend,
      chromiumPath: app.config.chromiumPath,
      userDataDir: app.profiles.browserDir(profile),
      cdpUrl: meta.cdp_url
    })
    if (result.singletons?.removed.length) {
      app.log.warn({ profile, removed: result.singletons.removed, stale_pid: result.singletons.ownerPid }, 'removed stale Chromium singleton files of a dead browser')
    }
    const { browser } = result
    entry.browser = browser
    entry.owned = result.owned
    entry.pid = result.pid
    entry.exited = processExit(browser)
    entry.error = undefined
    entry.version = await browser.version().catch(() => undefined)
    browser.on('disconnected', () => {
      if (entry.browser !== browser) return
      entry.browser = undefined
      if (!entry.closing) {
        const code = browser.process()?.exitCode
        entry.error = `browser disconnected${code != null ? ` (exit code ${code})` : ''}`
        app.log.error({ profile, pid: entry.pid, error: entry.error }, 'browser went away; the next explicit use starts it again')
      }
      for (const l of lost) l(profile)
    })
    await ensureAnchor(browser)
    if (result.owned) {
      // The launch's own blank tab would be listed and reaped like a user's; the anchor replaces it.
      for (const page of await browser.pages()) if (page.url() === 'about:blank') await page.close().catch(() => undefined)
    }
    for (const l of started) l(profile, browser)
    return browser
  }

  const pool: BrowserPool = {
    async get (profile) {
      let entry = entries.get(profile)
      if (!entry) {
        entry = { owned: false, backend: 'chromium' }
        entries.set(profile, entry)
      }
      if (entry.browser?.connected) return entry.browser
      if (entry.starting) return entry.starting
      const e = entry
      e.starting = launch(profile, e).catch((err: unknown) => {
        e.error = (err as Error).message
        throw err instanceof AfhttpError ? err : new AfhttpError('backend_unavailable', e.error, {}, { cause: err })
      }).finally(() => { e.starting = undefined })
      return e.starting
    },
    peek (profile) {
      const b = entries.get(profile)?.browser
      return b?.connected ? b : undefined
    },
    status (profile) {
      const e = entries.get(profile)
      if (!e) return { running: false, connected: false }
      const connected = e.browser?.connected === true
      return { running: connected, connected, backend: e.backend, pid: e.pid, ...(e.error ? { error: e.error } : {}) }
    },
    chromiumVersion: (profile) => entries.get(profile)?.version,
    onStarted (l) { started.push(l) },
    onLost (l) { lost.push(l) },
    async closeAll () {
      await Promise.all([...entries.entries()].map(async ([profile, e]) => {
        // A launch racing shutdown would orphan its Chromium: let it finish, then close it.
        if (e.starting) await e.starting.catch(() => undefined)
        const b = e.browser
        if (!b) return
        e.closing = true
        try {
          if (e.owned) await b.close()
          else await b.disconnect()
        } catch (err) {
          app.log.warn({ profile, err }, 'browser did not close cleanly')
          b.process()?.kill('SIGKILL')
        }
      }))
    }
  }

  app.decorate('browsers', pool)
  app.addHook('onClose', async () => { await pool.closeAll() })
}

export default fp(browsersPlugin, { name: 'afhttp-browsers', dependencies: ['afhttp-profiles'] })
