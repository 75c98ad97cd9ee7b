import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { Browser } from 'puppeteer-core'
import { AfhttpError } from '../errors.js'
import { startBrowser } from '../browser/backend.js'
import { ensureAnchor, isAnchorUrl } from '../browser/window-anchor.js'
import { CookieJournal, type RecordOutcome } from '../browser/cookie-journal.js'
import { endOrphans, ownerEnv, ownerMarkers } from '../browser/orphans.js'
import { startWatchdog, type Watchdog } from '../browser/watchdog.js'
import { startXvfb, type XvfbServer } from '../browser/xvfb.js'
import type { ProfileRunningState } from '../schemas/profiles.js'
import { Egress } from '../browser/egress.js'
import { applyLocaleToBrowser } from '../browser/identity.js'
import { identityArgs } from '../browser/launch-args.js'
import { acceptLanguages, redactProxy } from '../core/network-identity.js'
import type { ProfileMetadata } from '../core/profile-metadata.js'
import { Listeners } from '../core/listeners.js'

/** What `GET /v1/profiles/:name` reports as `running`; the shape lives in src/schemas/profiles.ts. */
export type BrowserStatus = ProfileRunningState

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
  /** The durable cookie record of a launched (not attached) browser. */
  journal?: CookieJournal
  /** The host's forwarder this browser's traffic goes through (docs/spec.md section 21), while it runs. */
  egress?: Egress
}

/** While a browser runs, its jar is compared this often and recorded when it changed. */
const COOKIE_RECORD_INTERVAL_MS = 5_000

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
  /** Records the profile's cookies durably if they changed (docs/spec.md section 13); never throws. */
  recordCookies (profile: string, reason: string): Promise<RecordOutcome>
  /** The forwarder the running browser of a profile goes through, if any (docs/spec.md section 21). */
  egress (profile: string): Egress | undefined
  /** 'headful' or 'headless': what this host's Chromium runs as. */
  readonly mode: 'headful' | 'headless'
  closeAll (): Promise<void>
}

declare module 'fastify' {
  interface FastifyInstance {
    browsers: BrowserPool
  }
}

async function browsersPlugin (app: FastifyInstance): Promise<void> {
  const entries = new Map<string, Entry>()
  // A listener that throws is logged: it never fails a launch nor hides a loss from the others.
  const started = new Listeners<[string, Browser]>((err, profile) => app.log.error({ err, profile }, 'browser start listener failed'))
  const lost = new Listeners<[string]>((err, profile) => app.log.error({ err, profile }, 'browser loss listener failed'))
  const plan = app.config.browser
  const root = app.profiles.root
  let xvfb: Promise<XvfbServer> | undefined
  let watchdog: Watchdog | undefined
  // Shutdown aborts what is still starting (Xvfb, Chromium): a slow start must not hold the
  // host past its grace period, nor leave a half-started browser behind.
  const shutdown = new AbortController()

  /** docs/spec.md section 22: before the first process is started, a watchdog that ends them all if we die. */
  function guard (): void {
    watchdog ??= startWatchdog(ownerMarkers(root), app.log)
  }

  if (plan.fallback) app.log.warn({ browser_mode: app.config.browserModeConfigured }, plan.fallback)

  /** The display Chromium runs on: the configured one, or our own Xvfb (started once, again if it died). */
  async function display (): Promise<string | undefined> {
    if (plan.mode !== 'headful' || plan.xvfbPath === undefined) return plan.display
    const xvfbPath = plan.xvfbPath
    guard()
    xvfb ??= startXvfb(xvfbPath, { ...process.env, ...ownerEnv(root) }, shutdown.signal).then((server) => {
      app.log.info({ display: server.display, pid: server.pid }, 'started Xvfb for a headful Chromium')
      void server.exited.then(() => { if (xvfb && !closingAll) { app.log.warn({ display: server.display }, 'Xvfb exited'); xvfb = undefined } })
      return server
    }, (err: unknown) => {
      xvfb = undefined
      throw new AfhttpError('backend_unavailable', `A headful Chromium needs a display: ${(err as Error).message}`, {}, { cause: err })
    })
    return (await xvfb).display
  }

  /** A host killed without cleanup left its Chromium/Xvfb holding our profiles: end them (only those). */
  async function reclaimOrphans (): Promise<void> {
    const ended = await endOrphans(root)
    if (ended.length) {
      app.log.warn({
        ended: ended.map((o) => ({ pid: o.pid, command: o.command })),
        dead_host_pid: [...new Set(ended.map((o) => o.owner.pid))]
      }, 'ended browser processes left running by a dead afhttp host on these profiles')
    }
  }

  /**
   * docs/spec.md section 21: a forwarder when the profile names a proxy or the host denies addresses. A
   * `cdp` profile's browser connects on its own, so on a host with AFHTTP_URL_DENY it is refused.
   */
  async function startEgress (profile: string, meta: ProfileMetadata): Promise<Egress | undefined> {
    const deny = app.config.urlDeny
    if (meta.backend === 'cdp') {
      if (deny) throw new AfhttpError('backend_unavailable', `Profile "${profile}" attaches to a browser the host does not launch, so AFHTTP_URL_DENY cannot be enforced on it; cdp profiles are refused while it is set.`)
      return undefined
    }
    if (meta.proxy === undefined && !deny) return undefined
    const egress = await Egress.start({
      upstream: meta.proxy,
      deny,
      onRefusal: (r) => {
        if (r.kind === 'url_not_allowed') app.log.info({ profile, target: r.target, address: r.address }, 'refused a request to an address AFHTTP_URL_DENY names')
        else app.log.warn({ profile, target: r.target, ...(meta.proxy ? { proxy: redactProxy(meta.proxy) } : {}) }, meta.proxy ? 'the profile\'s proxy did not carry a request' : 'could not connect to a site')
      }
    })
    app.log.info({ profile, forwarder: egress.proxyServer, ...(meta.proxy ? { proxy: redactProxy(meta.proxy) } : {}), url_deny: deny?.ranges }, 'egress forwarder started')
    return egress
  }

  async function launch (profile: string, entry: Entry): Promise<Browser> {
    const meta = await app.profiles.get(profile)
    await app.profiles.acquire(profile)
    entry.backend = meta.backend
    const restart = entry.error !== undefined
    await entry.exited?.catch(() => undefined)
    app.log.info({ profile, backend: meta.backend, restart, previous_error: entry.error, browser_mode: plan.mode }, restart ? 'restarting browser after it went away' : 'starting browser')
    if (meta.backend === 'chromium') {
      await reclaimOrphans()
      guard()
    }
    const egress = await startEgress(profile, meta)
    const languages = meta.locale !== undefined ? acceptLanguages(meta.locale) : undefined
    let result
    try {
      result = await startBrowser({
        backend: meta.backend,
        chromiumPath: app.config.chromiumPath,
        userDataDir: app.profiles.browserDir(profile),
        cdpUrl: meta.cdp_url,
        mode: plan.mode,
        display: meta.backend === 'chromium' ? await display() : undefined,
        // docs/spec.md section 21: the time zone of the whole browser process, so every page, popup and worker has it.
        env: { ...ownerEnv(root), ...(meta.timezone !== undefined ? { TZ: meta.timezone } : {}) },
        extraArgs: identityArgs({ proxyServer: egress?.proxyServer, acceptLanguages: languages }),
        signal: shutdown.signal
      })
    } catch (err) {
      await egress?.close()
      throw err
    }
    entry.egress = egress
    if (result.singletons?.removed.length) {
      app.log.warn({ profile, removed: result.singletons.removed, stale_pid: result.singletons.ownerPid }, 'removed stale Chromium singleton files of a dead browser')
    }
    const { browser } = result
    entry.owned = result.owned
    entry.pid = result.pid
    entry.exited = processExit(browser)
    try {
      if (shutdown.signal.aborted) throw new Error('the host is shutting down')
      entry.version = await browser.version().catch(() => undefined)
      if (meta.locale !== undefined && result.owned) applyLocaleToBrowser(browser, meta.locale)
      await ensureAnchor(browser)
      // /health finds the anchor in puppeteer's target list, which learns its URL a moment after
      // the target exists (a headful window commits about:blank#… later): wait for it once here.
      await browser.waitForTarget((t) => isAnchorUrl(t.url()), { timeout: 5_000 }).catch(() => undefined)
      if (result.owned) {
        // The launch's own blank tab would be listed and reaped like a user's; the anchor replaces it.
        for (const page of await browser.pages()) if (page.url() === 'about:blank') await page.close().catch(() => undefined)
        // Before anyone uses it: put back the logins the store lost in a crash. A browser whose
        // jar could not be restored is not served (docs/spec.md section 22): it would serve without
        // the login, and its jar must never be recorded over the record.
        entry.journal ??= new CookieJournal(app.profiles.dir(profile), app.log, profile)
        await entry.journal.restore(browser)
      }
      if (shutdown.signal.aborted || !browser.connected) throw new Error(shutdown.signal.aborted ? 'the host is shutting down' : 'the browser went away while starting')
    } catch (err) {
      entry.closing = true
      if (result.owned) await browser.close().catch(() => { browser.process()?.kill('SIGKILL') })
      else await browser.disconnect().catch(() => undefined)
      entry.closing = false
      entry.pid = undefined
      await egress?.close()
      entry.egress = undefined
      throw err
    }
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
        app.log.error({ profile, pid: entry.pid, error: entry.error }, 'browser went away; the next explicit use starts it again')
      }
      lost.emit(profile)
      app.lifecycle.emit('browser.lost', { profile }, {})
    })
    started.emit(profile, browser)
    app.lifecycle.emit('browser.started', { profile }, { pid: browser.process()?.pid ?? null })
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
      return {
        running: connected,
        connected,
        backend: e.backend,
        pid: e.pid,
        ...(e.starting && !connected ? { starting: true } : {}),
        ...(e.error ? { error: e.error } : {})
      }
    },
    chromiumVersion: (profile) => entries.get(profile)?.version,
    egress: (profile) => entries.get(profile)?.egress,
    onStarted (l) { started.add(l) },
    onLost (l) { lost.add(l) },
    mode: plan.mode,
    async recordCookies (profile, reason) {
      const e = entries.get(profile)
      if (!e?.journal || !e.browser?.connected) return 'unchanged'
      return e.journal.record(e.browser, reason)
    },
    async closeAll () {
      closingAll = true
      shutdown.abort()
      clearInterval(recorder)
      await Promise.all([...entries.entries()].map(async ([profile, e]) => {
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
          app.log.warn({ profile, err }, 'browser did not close cleanly')
          b.process()?.kill('SIGKILL')
        }
        await e.egress?.close()
      }))
      const server = await xvfb?.catch(() => undefined)
      xvfb = undefined
      await server?.stop()
      // Everything we started has ended: the watchdog leaves without a sweep.
      watchdog?.dismiss()
      watchdog = undefined
    }
  }

  let closingAll = false
  // Between the named moments (fetch, handoff end, shutdown) a login can happen mid-handoff:
  // a cheap periodic comparison keeps a crash from losing it.
  const recorder = setInterval(() => {
    for (const [profile, e] of entries) if (e.journal && e.browser?.connected && !e.closing) void pool.recordCookies(profile, 'interval')
  }, COOKIE_RECORD_INTERVAL_MS)
  recorder.unref()

  app.decorate('browsers', pool)
  app.addHook('onClose', async () => { await pool.closeAll() })
}

export default fp(browsersPlugin, { name: 'afhttp-browsers', dependencies: ['afhttp-profiles', 'afhttp-lifecycle'] })
