// What puppeteer throws when the browser (or the tab a request was using) goes away under it:
// a crash, an OOM kill, a tab closed meanwhile. Such a request failed because the backend
// vanished, not because of a bug, and a retry will start the browser again.
const GONE_NAMES = new Set(['TargetCloseError', 'ConnectionClosedError'])
// "Requesting main frame too early" is puppeteer's assertion on a page whose frame tree vanished with its browser.
const GONE_MESSAGES = /Target closed|Session closed|Connection closed|frame was detached|browser has disconnected|Browser closed|WebSocket is not open|Requesting main frame too early/i

export function isBrowserGone (err: unknown): boolean {
  for (let e = err as { name?: string, message?: string, cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (GONE_NAMES.has(e.name ?? '') || GONE_MESSAGES.test(e.message ?? '')) return true
  }
  return false
}
