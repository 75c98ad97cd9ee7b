import type { Browser, CDPSession, Page } from 'puppeteer-core'
import { PageWatch, pageSession } from '../page-ui/page-watch.js'

import type { LiveCheck } from '../schemas/host.js'

// The public shape lives once, in src/schemas/host.ts.
export type { LiveCheck }

export const LIVE_CHECK_BUDGET_MS = 1_500

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
  const session: CDPSession = await page.createCDPSession()
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
  /** Proves a frame through the tab's shared stream instead of a private screencast. */
  proveFrame?: () => Promise<void>
}

/**
 * SPEC section 9: browser connected, a CDP round trip, the page answers, a screencast frame.
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
    // answers it (SPEC section 16): its target must still answer, and the panel draws the dialog.
    const dialog = PageWatch.dialogOf(page)
    steps.push(['page_answers', async () => {
      if (page.isClosed()) throw new Error('the tab is closed')
      if (dialog) await pageSession(page).send('Page.getNavigationHistory')
      else await page.evaluate('1')
    }])
    if (target.screencast !== false && !dialog) steps.push(['screencast_frame', target.proveFrame ?? (() => oneScreencastFrame(page, Math.max(25, left() - 25)))])
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
