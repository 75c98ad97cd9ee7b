// docs/spec.md section 9: before minting, exchanging, renewing a lease, serving the panel document and
// accepting the panel WebSocket, the host checks the browser live; a failure is 503
// `takeover_unavailable` naming the check. Each gate is observed end to end on a real browser
// made unresponsive (SIGSTOP), and the checks never change the profile's cookies.
import t from 'tap'
import WebSocket from 'ws'
import { startHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { leaseCookieOf, openLink } from '../helpers/open-link.js'
import { browserSession } from '../../src/browser/window-anchor.js'

const PAGE = '<!doctype html><title>Blocked</title><p>Access denied for now; a person must look at this page.</p>'

t.test('every live-check gate refuses while the browser does not answer', async (t) => {
  const host = await startHost(t)
  const site = await startFixtureServer(t, { '/blocked': { status: 403, headers: { 'set-cookie': 'visit=1; Max-Age=3600; Path=/' }, body: PAGE } })
  const fetched = await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/blocked`, takeover: true }) })).json() as any
  const tabId: string = fetched.tab_id
  const origin = host.url
  const pathOf = (minted: string): string => new URL(minted).pathname

  // One link exchanged while healthy (a person already has the panel open), one kept for later.
  const exchanged = await openLink(host.url + pathOf(fetched.actions[0].takeover_url_secret))
  t.equal(exchanged.status, 303, 'the first link is exchanged while the browser answers')
  const cookie = leaseCookieOf(exchanged)
  t.match(cookie, /^afhttp_lease_/, 'for a lease cookie')
  const spare = await (await host.api(`/v1/tabs/${tabId}/handoff`, { method: 'POST', body: '{}' })).json() as { takeover_url_secret: string }

  const jar = async (): Promise<string> => {
    const { cookies } = await (await browserSession(host.app.browsers.peek('default')!)).send('Storage.getCookies')
    return JSON.stringify(cookies.map((c) => [c.name, c.value, c.domain, c.expires]).sort())
  }
  const cookiesBefore = await jar()

  const pid = host.app.browsers.status('default').pid as number
  process.kill(pid, 'SIGSTOP')
  const results: Record<string, { status: number, check?: string }> = {}
  try {
    const mint = await host.api(`/v1/tabs/${tabId}/handoff`, { method: 'POST', body: '{}' })
    results.mint = { status: mint.status, check: (await mint.json()).error?.details?.check }
    const exchange = await fetch(host.url + pathOf(spare.takeover_url_secret), { redirect: 'manual' })
    results.exchange = { status: exchange.status, check: /page_answers|cdp_roundtrip|screencast_frame|browser_connected/.exec(await exchange.text())?.[0] }
    const doc = await fetch(`${host.url}/panel/?tab=${tabId}`, { headers: { cookie } })
    results.document = { status: doc.status, check: /page_answers|cdp_roundtrip|screencast_frame|browser_connected/.exec(await doc.text())?.[0] }
    const lease = await fetch(`${host.url}/panel/api/lease?tab=${tabId}`, { method: 'POST', headers: { cookie, origin } })
    results.lease = { status: lease.status, check: (await lease.json()).error?.details?.check }
    results.websocket = await new Promise((resolve) => {
      const ws = new WebSocket(`${host.url.replace('http', 'ws')}/panel/ws?tab=${tabId}`, { headers: { cookie, origin } })
      ws.once('unexpected-response', (_req, res) => {
        let text = ''
        res.on('data', (d: Buffer) => { text += d })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, check: (JSON.parse(text) as any).error?.details?.check }))
      })
      ws.once('open', () => { ws.close(); resolve({ status: 101 }) })
    })
  } finally {
    process.kill(pid, 'SIGCONT')
  }
  for (const gate of ['mint', 'exchange', 'document', 'lease', 'websocket']) {
    t.equal(results[gate].status, 503, `${gate}: 503 while the browser does not answer`)
    t.ok(results[gate].check, `${gate}: names the failing check (${results[gate].check})`)
  }

  // The same gates open again once the browser answers; the unconsumed spare link still works.
  const again = await openLink(host.url + pathOf(spare.takeover_url_secret))
  t.equal(again.status, 303, 'a link refused by a failed check was not consumed')
  const leaseAgain = await fetch(`${host.url}/panel/api/lease?tab=${tabId}`, { method: 'POST', headers: { cookie, origin } })
  t.equal(leaseAgain.status, 200, 'the lease renews')
  t.equal(await jar(), cookiesBefore, 'no check changed a cookie')
})
