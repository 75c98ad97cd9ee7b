import type { HTTPResponse, Page } from 'puppeteer-core'
import { AfhttpError } from '../errors.js'
import type { WaitStrategy } from '../core/wait-strategy.js'

export interface MainResponse {
  status: number | null
  url: string
  headers: Record<string, string>
}

// `networkidle` uses puppeteer's networkidle2 (≤ 2 connections for 500 ms): pages with a
// long-poll or analytics beacon never reach zero and would always time out.
const WAIT_UNTIL = { load: 'load', domcontentloaded: 'domcontentloaded', networkidle: 'networkidle2' } as const

export function describeResponse (res: HTTPResponse | null): MainResponse | undefined {
  if (!res) return undefined
  return { status: res.status(), url: res.url(), headers: res.headers() }
}

/**
 * Loads `url` in the page. Lifecycle strategies are awaited here; selector strategies wait
 * for DOMContentLoaded and leave the scoped readiness to the caller.
 */
export async function navigate (page: Page, url: string, wait: WaitStrategy, timeoutMs: number): Promise<MainResponse | undefined> {
  const waitUntil = 'selector' in wait ? 'domcontentloaded' : WAIT_UNTIL[wait.kind]
  // A revalidated cache entry answers 304, which is not the document's status: a fetch asks
  // the server afresh. The cache is back on afterwards for a person working the tab.
  // Neither cache switch is awaited: commands on one session keep their order, and on a page
  // whose main thread hangs the renderer's half of the switch would hold the fetch for the
  // 30 s protocol timeout, far past the driver's deadline.
  void page.setCacheEnabled(false).catch(() => undefined)
  try {
    return describeResponse(await page.goto(url, { waitUntil, timeout: timeoutMs }))
  } catch (err) {
    const message = (err as Error).message.split('\n')[0]
    if ((err as Error).name === 'TimeoutError') {
      throw new AfhttpError('navigation_timeout', `The page did not reach "${waitUntil}" within ${timeoutMs} ms.`, { timeout_ms: timeoutMs })
    }
    throw new AfhttpError('navigation_failed', `Loading the page failed: ${message}`, { cause: message })
  } finally {
    void page.setCacheEnabled(true).catch(() => undefined)
  }
}
