// One start of a profile's browser (docs/spec.md section 22), up to the moment it may serve: the
// profile owned, a dead host's orphans ended, the forwarder and the display up, Chromium launched
// or attached, its anchor window made, its jar restored from the record. A start that fails on
// the way closes what it started. BrowserFleet (src/browser/browser-fleet.ts) calls it.
import type { Browser } from 'puppeteer-core'
import type { UrlDeny } from '../core/url-deny.js'
import { acceptLanguages } from '../core/network-identity.js'
import type { ProfileService } from '../store/profile-store.js'
import { startBrowser } from './backend.js'
import { CookieJournal } from './cookie-journal.js'
import { applyLocaleToBrowser } from './identity.js'
import { identityArgs } from './launch-args.js'
import { ownerEnv } from './orphans.js'
import { ensureAnchor, isAnchorUrl } from './window-anchor.js'
import { startProfileEgress } from './profile-egress.js'
import type { HostProcesses } from './host-processes.js'
import type { BrowserEntry, FleetLogger } from './fleet-ports.js'

/** The settings a launch reads, each time it starts a browser. */
export interface LaunchSettings {
  chromiumPath: string
  /** AFHTTP_URL_DENY (docs/spec.md section 21). */
  urlDeny?: UrlDeny
}

export interface LaunchDeps {
  profiles: Pick<ProfileService, 'root' | 'get' | 'acquire' | 'browserDir' | 'dir'>
  log: FleetLogger
  mode: 'headful' | 'headless'
  settings: () => LaunchSettings
  processes: Pick<HostProcesses, 'guard' | 'display' | 'reclaimOrphans'>
  /** Aborted when the host shuts down: a Chromium still starting is killed, a launch gives up. */
  signal: AbortSignal
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

export async function launchBrowser (profile: string, entry: BrowserEntry, deps: LaunchDeps): Promise<Browser> {
  const { profiles, log, mode, processes, signal } = deps
  const meta = await profiles.get(profile)
  await profiles.acquire(profile)
  entry.backend = meta.backend
  const restart = entry.error !== undefined
  await entry.exited?.catch(() => undefined)
  log.info({ profile, backend: meta.backend, restart, previous_error: entry.error, browser_mode: mode }, restart ? 'restarting browser after it went away' : 'starting browser')
  if (meta.backend === 'chromium') {
    await processes.reclaimOrphans()
    processes.guard()
  }
  const egress = await startProfileEgress(profile, meta, deps.settings().urlDeny, log)
  const languages = meta.locale !== undefined ? acceptLanguages(meta.locale) : undefined
  let result
  try {
    result = await startBrowser({
      backend: meta.backend,
      chromiumPath: deps.settings().chromiumPath,
      userDataDir: profiles.browserDir(profile),
      cdpUrl: meta.cdp_url,
      mode,
      display: meta.backend === 'chromium' ? await processes.display() : undefined,
      // docs/spec.md section 21: the time zone of the whole browser process, so every page, popup and worker has it.
      env: { ...ownerEnv(profiles.root), ...(meta.timezone !== undefined ? { TZ: meta.timezone } : {}) },
      extraArgs: identityArgs({ proxyServer: egress?.proxyServer, acceptLanguages: languages }),
      signal
    })
  } catch (err) {
    await egress?.close()
    throw err
  }
  entry.egress = egress
  if (result.singletons?.removed.length) {
    log.warn({ profile, removed: result.singletons.removed, stale_pid: result.singletons.ownerPid }, 'removed stale Chromium singleton files of a dead browser')
  }
  const { browser } = result
  entry.owned = result.owned
  entry.pid = result.pid
  entry.exited = processExit(browser)
  try {
    if (signal.aborted) throw new Error('the host is shutting down')
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
      entry.journal ??= new CookieJournal(profiles.dir(profile), log, profile)
      await entry.journal.restore(browser)
    }
    if (signal.aborted || !browser.connected) throw new Error(signal.aborted ? 'the host is shutting down' : 'the browser went away while starting')
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
  return browser
}
