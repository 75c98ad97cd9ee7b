import type { HTTPResponse, Page } from 'puppeteer-core'
import { AfhttpError } from '../errors.js'
import type { WaitStrategy } from '../core/wait-strategy.js'
import { OBSERVE_GRACE_MS } from './deadline.js'
import { holdReloadLoops } from './reload-hold.js'
import { watchClientRedirects } from './client-redirects.js'

export interface MainResponse {
  status: number | null
  url: string
  headers: Record<string, string>
}

// `networkidle` uses puppeteer's networkidle2 (≤ 2 connections for 500 ms): pages with a
// long-poll or analytics beacon never reach zero and would always time out.
/** How long a followed document's response may trail its load event. */
const RESPONSE_WAIT_MS = 1_000

const WAIT_UNTIL = { load: 'load', domcontentloaded: 'domcontentloaded', networkidle: 'networkidle2' } as const

// puppeteer's CDP request keeps the protocol's request id without a public getter; a navigation
// request's id is its document loader's.
const requestIdOf = (res: HTTPResponse): string | undefined => (res.request() as unknown as { id?: string }).id

export function describeResponse (res: HTTPResponse | null | undefined): MainResponse | undefined {
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
  // A page that keeps reloading or redirecting itself is observed, not timed out: its loop is
  // held while the fetch looks at it, and if it still never settles, the last document it
  // loaded is the answer (the fetch then reads the page as it stands at its deadline). A page
  // that simply never finishes loading is still a navigation_timeout.
  const hold = await holdReloadLoops(page, performance.now() + timeoutMs + OBSERVE_GRACE_MS)
  // A page that sends itself on at once is followed to where it goes (client-redirects.ts);
  // selector strategies wait on their own for their element, wherever the page goes.
  const redirects = 'selector' in wait ? undefined : watchClientRedirects(page, WAIT_UNTIL[wait.kind])
  // Documents the main frame showed. A 204 answer to a navigation (a held reload's, or a
  // server's) leaves the page as it was, so the page's status is the document's before it.
  const documents: HTTPResponse[] = []
  let awaited: { loaderId: string, arrived: () => void } | undefined
  const onResponse = (res: HTTPResponse): void => {
    if (!res.request().isNavigationRequest() || res.frame() !== page.mainFrame() || res.status() === 204) return
    documents.push(res)
    if (awaited !== undefined && requestIdOf(res) === awaited.loaderId) awaited.arrived()
  }
  // A document's response can reach puppeteer after its load event does (it waits for the
  // response's extra info): wait for the shown document's own, briefly. A navigation request's id is its loader's.
  const responseOf = async (loaderId: string): Promise<HTTPResponse | undefined> => {
    const own = (): HTTPResponse | undefined => documents.findLast((res) => requestIdOf(res) === loaderId)
    if (own() === undefined) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, RESPONSE_WAIT_MS)
        awaited = { loaderId, arrived: () => { clearTimeout(timer); resolve() } }
      })
    }
    return own()
  }
  page.on('response', onResponse)
  try {
    const deadline = performance.now() + timeoutMs
    const res = await page.goto(url, { waitUntil, timeout: timeoutMs })
    // A lifecycle wait is over once the client redirects it started have arrived: the fetch then
    // observes the page right away. A selector wait goes on until the deadline, and the hold with it.
    const { loaderId } = redirects === undefined ? {} : await redirects.follow(deadline, res?.headers().refresh)
    if (!('selector' in wait)) hold.releaseAt(performance.now() + OBSERVE_GRACE_MS)
    // The page's status is its document's: after a client redirect, the one the main frame shows.
    if (res && loaderId !== undefined && loaderId !== requestIdOf(res)) return describeResponse(await responseOf(loaderId) ?? documents.at(-1) ?? res)
    return describeResponse(res?.status() === 204 ? documents.at(-1) ?? res : res)
  } catch (err) {
    const message = (err as Error).message.split('\n')[0]
    if ((err as Error).name === 'TimeoutError' && documents.length > 1) return describeResponse(documents[documents.length - 1])
    if ((err as Error).name === 'TimeoutError') {
      throw new AfhttpError('navigation_timeout', `The page did not reach "${waitUntil}" within ${timeoutMs} ms.`, { timeout_ms: timeoutMs })
    }
    throw new AfhttpError('navigation_failed', `Loading the page failed: ${message}`, { cause: message })
  } finally {
    page.off('response', onResponse)
    redirects?.stop()
    void page.setCacheEnabled(true).catch(() => undefined)
  }
}
