import type { Browser, CDPSession } from 'puppeteer-core'
import { AfhttpError } from '../errors.js'
import { withTimeout } from '../core/with-timeout.js'

export const ANCHOR_URL = 'about:blank#afhttp-window-anchor'
export const ANCHOR_TIMEOUT_MS = 5_000

export function isAnchorUrl (url: string): boolean {
  return url === ANCHOR_URL
}

// One guard at a time per browser: twenty concurrent closes must agree on one anchor,
// not race to create twenty (or none). Callers that arrive while a check runs share the
// next one (it starts after they asked, so it proves what they need) instead of queueing
// one round trip each: eight fetches closing at once cost two checks, not eight.
const running = new WeakMap<Browser, Promise<string>>()
const waiting = new WeakMap<Browser, Promise<string>>()
const sessions = new WeakMap<Browser, Promise<CDPSession>>()

/**
 * One long-lived session on the browser target, shared by the host's browser-level calls.
 * Sessions on the browser target are never detached: puppeteer can take a detached one for the
 * browser target itself going away, after which `browser.target()` throws. Nor are two made at
 * once: puppeteer marks a target as attached by hand only until the first attach answers, so a
 * second one in flight is taken for the browser's own session — and its end for the target's.
 */
export async function browserSession (browser: Browser): Promise<CDPSession> {
  const pending = sessions.get(browser)
  if (pending) {
    const existing = await pending.catch(() => undefined)
    if (existing && !existing.detached) return existing
    if (sessions.get(browser) !== pending) return browserSession(browser)
  }
  const made = browser.target().createCDPSession()
  sessions.set(browser, made)
  made.catch(() => { if (sessions.get(browser) === made) sessions.delete(browser) })
  return made
}

async function ensureOnce (browser: Browser): Promise<string> {
  const session = await browserSession(browser)
  // A live round trip, not puppeteer's cached target list: a hung browser must fail the guard.
  const { targetInfos } = await session.send('Target.getTargets')
  const anchor = targetInfos.find((t) => t.type === 'page' && isAnchorUrl(t.url))
  if (anchor) return anchor.targetId
  // Its own window keeps it frontmost there, so health's screencast probe gets frames.
  const { targetId } = await session.send('Target.createTarget', { url: ANCHOR_URL, newWindow: true })
  return targetId
}

/**
 * Makes sure the browser keeps an inert anchor tab, so closing any page can never
 * close its last window. Throws `anchor_guard_failed` when that cannot be shown.
 */
export async function ensureAnchor (browser: Browser, timeoutMs = ANCHOR_TIMEOUT_MS): Promise<string> {
  try {
    return await scheduleCheck(browser, timeoutMs)
  } catch (err) {
    throw new AfhttpError('anchor_guard_failed', `The window anchor could not be ensured, so the page was left open: ${(err as Error).message}`, {}, { cause: err })
  }
}

function scheduleCheck (browser: Browser, timeoutMs: number): Promise<string> {
  const queued = waiting.get(browser)
  if (queued) return queued
  const start = (): Promise<string> => {
    waiting.delete(browser)
    const run = withTimeout(ensureOnce(browser), timeoutMs, 'window anchor check')
    running.set(browser, run)
    run.catch(() => undefined).finally(() => { if (running.get(browser) === run) running.delete(browser) })
    return run
  }
  const current = running.get(browser)
  if (!current) return start()
  const next = current.catch(() => undefined).then(start)
  waiting.set(browser, next)
  return next
}

/** The anchor's page, from puppeteer's target list (no round trip); undefined when missing. */
export async function findAnchorPage (browser: Browser): Promise<import('puppeteer-core').Page | undefined> {
  const target = browser.targets().find((t) => t.type() === 'page' && isAnchorUrl(t.url()))
  return (await target?.page()) ?? undefined
}
