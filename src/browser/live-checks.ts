import type { Browser, CDPSession, Page } from 'puppeteer-core'
import { PageWatch, pageSession } from '../page-ui/page-watch.js'

import type { LiveCheck } from '../schemas/host.js'
import { openPageSession } from './page-session.js'

// The public shape lives once, in src/schemas/host.ts.
export type { LiveCheck }

/**
 * The bound on the checks in front of a mint, an exchange, the panel document, a lease renewal
 * and the panel socket. They tell a dead or hung browser from a live one, not a fast one from a
 * slow one: on two busy cores a live browser took 0.5 s for a CDP round trip and 1.6 s for the
 * three checks, which the earlier 1.5 s refused. A person waits 4 s for a 503 page that then
 * retries by itself; `/health` keeps its own shorter bound (SPEC: at most 2 s).
 */
export const LIVE_CHECK_BUDGET_MS = 4_000
/** The frame check's own floor, so a slow CDP round trip never leaves it no time at all. */
const FRAME_CHECK_MIN_MS = 25

function bounded<T> (p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  return Promise.race([
    p,
    new Promise<never>((_resolve, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms) })
  ]).finally(() => clearTimeout(timer))
}

async function timed (name: string, ms: number, fn: () => Promise<void>): Promise<LiveCheck> {
  const start = performance.now()
  try {
    await bounded(fn(), ms, name)
    return { name, ok: true, ms: Math.round(performance.now() - start) }
  } catch (err) {
    return { name, ok: false, ms: Math.round(performance.now() - start), error: (err as Error).message.split('\n')[0] }
  }
}

/**
 * Waits for one screencast frame from the page on a private session, then stops. Bounded by
 * itself, so a frame that never comes still stops the screencast and detaches the session.
 */
async function oneScreencastFrame (page: Page, timeoutMs: number): Promise<void> {
  const session: CDPSession = await openPageSession(page)
  let timer: NodeJS.Timeout | undefined
  try {
    const frame = new Promise<void>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no screencast frame within ${timeoutMs} ms`)), timeoutMs)
      session.once('Page.screencastFrame', (ev: { sessionId: number }) => {
        session.send('Page.screencastFrameAck', { sessionId: ev.sessionId }).catch(() => undefined)
        resolve()
      })
    })
    frame.catch(() => undefined)
    await session.send('Page.startScreencast', { format: 'jpeg', quality: 20, maxWidth: 64, maxHeight: 64, everyNthFrame: 1 })
    await frame
  } finally {
    clearTimeout(timer)
    await session.send('Page.stopScreencast').catch(() => undefined)
    await session.detach().catch(() => undefined)
  }
}

export interface LiveCheckTarget {
  browser: Browser | undefined
  /** The page a person would see; health uses the window anchor. */
  page?: Page
  /** Skip the screencast check where a running stream already proves it. */
  screencast?: boolean
  /** Proves a frame through the tab's shared stream instead of a private screencast, within `timeoutMs`. */
  proveFrame?: (timeoutMs: number) => Promise<void>
}

/**
 * docs/spec.md section 9: browser connected, a CDP round trip, the page answers, a screencast frame.
 * Each check is bounded; later checks are skipped (and fail) once an earlier one fails.
 * Never restarts a browser or touches cookies.
 */
export async function runLiveChecks (target: LiveCheckTarget, budgetMs = LIVE_CHECK_BUDGET_MS): Promise<LiveCheck[]> {
  const deadline = performance.now() + budgetMs
  const left = (): number => Math.max(50, Math.round(deadline - performance.now()))
  const checks: LiveCheck[] = []
  const { browser, page } = target
  checks.push({ name: 'browser_connected', ok: browser?.connected === true, ms: 0, ...(browser?.connected ? {} : { error: browser ? 'browser disconnected' : 'browser not running' }) })
  const steps: Array<[string, () => Promise<void>]> = [
    ['cdp_roundtrip', async () => { await browser!.version() }]
  ]
  if (page) {
    // A page blocked by a JavaScript dialog runs no script and paints no frame until a person
    // answers it (docs/spec.md section 16): its target must still answer, and the panel draws the dialog.
    const dialog = PageWatch.dialogOf(page)
    steps.push(['page_answers', async () => {
      if (page.isClosed()) throw new Error('the tab is closed')
      if (dialog) await pageSession(page).send('Page.getNavigationHistory')
      else await page.evaluate('1')
    }])
    if (target.screencast !== false && !dialog) {
      const frameWithin = (): number => Math.max(FRAME_CHECK_MIN_MS, left() - 25)
      const prove = target.proveFrame
      steps.push(['screencast_frame', prove ? () => prove(frameWithin()) : () => oneScreencastFrame(page, frameWithin())])
    }
  }
  for (const [name, fn] of steps) {
    if (!checks[checks.length - 1].ok) {
      checks.push({ name, ok: false, ms: 0, error: 'skipped: an earlier check failed' })
      continue
    }
    checks.push(await timed(name, left(), fn))
  }
  return checks
}

export function failedCheck (checks: LiveCheck[]): LiveCheck | undefined {
  return checks.find((c) => !c.ok)
}
