import { mkdir } from 'node:fs/promises'
import puppeteer, { type Browser } from 'puppeteer-core'
import { AfhttpError } from '../errors.js'
import { chromiumArgs, DEFAULT_VIEWPORT, IGNORED_DEFAULT_ARGS, runningAsRoot } from './launch-args.js'
import { clearStaleSingletons, type SingletonCleanup } from './singleton-locks.js'

export interface LaunchSpec {
  backend: 'chromium' | 'cdp'
  chromiumPath: string
  userDataDir: string
  cdpUrl?: string
  /** headful runs on `display`; headless needs none. */
  mode: 'headful' | 'headless'
  display?: string
  /** Added to Chromium's environment (the owner marker that crash recovery reads; TZ, docs/spec.md section 21). */
  env?: Record<string, string>
  /** Aborting it kills a Chromium still starting (puppeteer ends its process group); a started one is left to its owner. */
  signal?: AbortSignal
  /** Flags after the house's own (a profile's proxy and locale, docs/spec.md section 21). */
  extraArgs?: string[]
}

export interface StartedBrowser {
  browser: Browser
  /** Launched by us (we close it) or attached (we only disconnect). */
  owned: boolean
  pid?: number
  singletons?: SingletonCleanup
}

const PROTOCOL_TIMEOUT_MS = 30_000

/** A cdp_url may carry credentials or a token in its query: never put them in a message. */
export function redactUrl (url: string): string {
  try {
    const u = new URL(url)
    return `${u.protocol}//${u.host}${u.pathname}`
  } catch {
    return '(unparseable cdp_url)'
  }
}

/** Launches Chromium on a profile's user-data-dir, or attaches to a `cdp` profile's endpoint. */
export async function startBrowser (spec: LaunchSpec): Promise<StartedBrowser> {
  if (spec.backend === 'cdp') {
    if (!spec.cdpUrl) throw new AfhttpError('backend_unavailable', 'This cdp profile has no cdp_url.')
    const endpoint = spec.cdpUrl.startsWith('ws') ? { browserWSEndpoint: spec.cdpUrl } : { browserURL: spec.cdpUrl }
    try {
      const browser = await puppeteer.connect({ ...endpoint, defaultViewport: null, protocolTimeout: PROTOCOL_TIMEOUT_MS })
      return { browser, owned: false }
    } catch (err) {
      throw new AfhttpError('backend_unavailable', `Could not attach to ${redactUrl(spec.cdpUrl)}: ${(err as Error).message.split('\n')[0]}`, {}, { cause: err })
    }
  }
  await mkdir(spec.userDataDir, { recursive: true })
  const singletons = await clearStaleSingletons(spec.userDataDir)
  if (singletons.ownerAlive) {
    throw new AfhttpError('backend_unavailable', `Another Chromium (pid ${singletons.ownerPid}) is still using this profile's browser data.`)
  }
  // The signal may stop the launch, never the browser once launched: puppeteer kills the process
  // whenever the signal it was given aborts, for the browser's whole life, and the host's shutdown
  // aborts first and records the cookie jar after (docs/spec.md section 13). A shutdown during the
  // launch is handled by the launch's caller once puppeteer returns.
  const launching = new AbortController()
  const stopLaunch = (): void => { launching.abort(spec.signal?.reason) }
  if (spec.signal?.aborted) stopLaunch()
  else spec.signal?.addEventListener('abort', stopLaunch, { once: true })
  try {
    const headful = spec.mode === 'headful'
    const browser = await puppeteer.launch({
      executablePath: spec.chromiumPath,
      userDataDir: spec.userDataDir,
      headless: !headful,
      args: [...chromiumArgs({ isRoot: runningAsRoot(), ...DEFAULT_VIEWPORT, headful }), ...(spec.extraArgs ?? [])],
      ignoreDefaultArgs: IGNORED_DEFAULT_ARGS,
      // Headful pages keep their real window size: an emulated viewport would make the window
      // report outer == inner, which no visitor's browser does.
      defaultViewport: headful ? null : { ...DEFAULT_VIEWPORT },
      env: { ...process.env, ...(headful ? { DISPLAY: spec.display } : {}), ...spec.env },
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      protocolTimeout: PROTOCOL_TIMEOUT_MS,
      timeout: 30_000,
      signal: launching.signal
    })
    return { browser, owned: true, pid: browser.process()?.pid, singletons }
  } catch (err) {
    throw new AfhttpError('backend_unavailable', `Chromium did not start (${spec.chromiumPath}): ${(err as Error).message.split('\n')[0]}`, {}, { cause: err })
  } finally {
    spec.signal?.removeEventListener('abort', stopLaunch)
  }
}
