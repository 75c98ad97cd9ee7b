// Opening a panel link the way a person's browser does, for tests that read the answer itself:
// the 303 and its lease cookie are returned, not followed, and a 503 page's own refresh is
// followed as the browser would follow it (test/e2e/panel-control.test.ts shows a real browser
// doing so). A busy machine can fail a live check for a moment; a dead one still fails here.
import { setTimeout as sleep } from 'node:timers/promises'
import { UNAVAILABLE_RETRY_S } from '../../src/panel/pages.js'

const REFRESHES = 2

const refreshes = async (res: Response): Promise<boolean> =>
  res.status === 503 && /<meta http-equiv="refresh"/.test(await res.clone().text())

export async function openLink (url: string, init: RequestInit = {}): Promise<Response> {
  let res = await fetch(url, { ...init, redirect: 'manual' })
  for (let i = 0; i < REFRESHES && await refreshes(res); i++) {
    await sleep(UNAVAILABLE_RETRY_S * 1000)
    res = await fetch(url, { ...init, redirect: 'manual' })
  }
  return res
}

/** The `name=value` pair of the lease cookie an exchange set, or '' when it set none. */
export function leaseCookieOf (res: Response): string {
  return (res.headers.getSetCookie()[0] ?? '').split(';')[0]
}
