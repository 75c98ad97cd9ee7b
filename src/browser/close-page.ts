import type { Page } from 'puppeteer-core'
import { browserSession } from './window-anchor.js'
import { targetIdOf } from './target-id.js'

const CLOSE_WAIT_MS = 5_000

function within<T> (p: Promise<T>, ms: number): Promise<T | 'late'> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<'late'>((resolve) => { timer = setTimeout(() => resolve('late'), ms) })
  return Promise.race([p, late]).finally(() => clearTimeout(timer))
}

/**
 * Closes a page, bounded. puppeteer's page.close() waits for the page's own goodbye, which a page
 * that keeps reloading itself (or whose renderer hangs) may never give; then the browser is told
 * to close the target outright. Throws only if even that is not confirmed.
 */
export async function closePage (page: Page): Promise<void> {
  if (page.isClosed()) return
  const polite = page.close().catch(() => undefined)
  if (await within(polite, CLOSE_WAIT_MS) !== 'late') return
  const session = await browserSession(page.browser())
  const targetId = targetIdOf(page)
  if (!targetId) throw new Error('the page did not close and its target is unknown')
  const forced = await within(session.send('Target.closeTarget', { targetId }), CLOSE_WAIT_MS)
  if (forced === 'late') throw new Error(`the browser did not close the page within ${2 * CLOSE_WAIT_MS} ms`)
}
