import type { CDPSession, Page, Target } from 'puppeteer-core'

// puppeteer tells a session it attached itself from one Chromium attached on its own by a mark it
// holds on the target only while its attach request is pending. Two attaches to one page at once:
// the first answer clears the mark, the second is then taken for an auto-attached target, and
// detaching that session makes puppeteer forget the page's target — its popups lose their opener
// and are no longer adopted (measured with puppeteer-core 24: `browser.targets()` no longer holds
// the page). Every session the host opens on a page goes through here, one attach at a time per page.
const attaching = new WeakMap<Target, Promise<unknown>>()
/** An attach that has not answered by then (a browser going away) holds the next one no longer. */
const ATTACH_WAIT_MS = 2_000

/** `page.createCDPSession()`, after any attach to the same page still pending. */
export function openPageSession (page: Page): Promise<CDPSession> {
  const target = page.target()
  const before = attaching.get(target)
  const session = (before === undefined ? Promise.resolve() : settledOrLate(before)).then(async () => await page.createCDPSession())
  attaching.set(target, session)
  return session
}

function settledOrLate (p: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  return Promise.race([
    p.then(() => undefined, () => undefined),
    new Promise<void>((resolve) => { timer = setTimeout(resolve, ATTACH_WAIT_MS); timer.unref() })
  ]).finally(() => clearTimeout(timer))
}
