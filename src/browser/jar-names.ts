// What the handoff outcome needs from the cookie jar (docs/spec.md section 7 "Outcome"): each cookie's
// identity and value, to compare before and after. Values never leave the host's memory.
import type { Page } from 'puppeteer-core'
import type { JarCookie } from '../core/handoff.js'
import { openPageSession } from './page-session.js'

/** The jar as the tab's browser context sees it; empty when the tab or browser is gone. */
export async function readJar (tab: { page: Page } | undefined): Promise<JarCookie[]> {
  if (!tab || tab.page.isClosed() || !tab.page.browser().connected) return []
  // The tab's own session sees its whole jar (the browser target may be filtered out).
  const session = await openPageSession(tab.page)
  try {
    const { cookies } = await session.send('Network.getAllCookies')
    return cookies.map((c) => ({ name: c.name, domain: c.domain, path: c.path, value: c.value }))
  } finally {
    await session.detach().catch(() => undefined)
  }
}

/** `p`'s value, or `fallback` after `ms` or on failure: an ending never waits on a stuck browser. */
export function within<T> (p: Promise<T>, ms: number, fallback: T): Promise<T> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(fallback), ms)
    t.unref()
    p.then((v) => { clearTimeout(t); resolve(v) }, () => { clearTimeout(t); resolve(fallback) })
  })
}
