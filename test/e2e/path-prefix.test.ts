// AFHTTP_PUBLIC_URL with a path prefix (docs/spec.md section 14), behind a real reverse proxy on
// 127.0.0.1 that mounts the host under /r/afhttp-2 and strips the prefix, the way an ingress
// routes one replica. A person opens the minted link in a real browser and gets the live tab.
import t from 'tap'
import { createServer, request, type IncomingMessage } from 'node:http'
import { connect } from 'node:net'
import type { AddressInfo } from 'node:net'
import { startHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { launchViewerBrowser, waitForFrames } from '../helpers/panel-browser.js'
import { openLink } from '../helpers/open-link.js'

const PREFIX = '/r/afhttp-2'
const WALL = '<!doctype html><title>Sign in required</title><body style="margin:0;font:16px sans-serif"><p>Please sign in to keep reading this article.</p></body>'

interface Proxy { url: string, seen: string[], refused: string[], setTarget: (port: number) => void, close: () => Promise<void> }

/** Forwards `PREFIX/…` to the host as `/…` (HTTP and WebSocket upgrades); anything else is 404. */
async function startProxy (): Promise<Proxy> {
  let target = 0
  const seen: string[] = []
  const refused: string[] = []
  const strip = (req: IncomingMessage): string | undefined => {
    const url = req.url ?? '/'
    if (url !== PREFIX && !url.startsWith(PREFIX + '/') && !url.startsWith(PREFIX + '?')) { refused.push(url); return undefined }
    seen.push(url)
    return url.slice(PREFIX.length) || '/'
  }
  const server = createServer((req, res) => {
    const path = strip(req)
    if (path === undefined) { res.writeHead(404).end('not under the prefix'); return }
    const up = request({ host: '127.0.0.1', port: target, method: req.method, path, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    up.on('error', () => { res.writeHead(502).end() })
    req.pipe(up)
  })
  server.on('upgrade', (req, socket, head) => {
    const path = strip(req)
    if (path === undefined) { socket.end('HTTP/1.1 404 Not Found\r\n\r\n'); return }
    const up = connect(target, '127.0.0.1', () => {
      const lines = [`${req.method} ${path} HTTP/1.1`]
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`)
      up.write(lines.join('\r\n') + '\r\n\r\n')
      if (head.length) up.write(head)
      up.pipe(socket)
      socket.pipe(up)
    })
    up.on('error', () => socket.destroy())
    socket.on('error', () => up.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    refused,
    setTarget: (p) => { target = p },
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()) })
  }
}

t.test('a host mounted under a path prefix behind a stripping proxy', async (t) => {
  const proxy = await startProxy()
  t.teardown(() => proxy.close())
  const host = await startHost(t, { env: { AFHTTP_PUBLIC_URL: `${proxy.url}${PREFIX}`, AFHTTP_TAB_POOL: '0' } })
  proxy.setTarget(Number(new URL(host.url).port))
  const site = await startFixtureServer(t, { '/wall': { status: 403, body: WALL } })

  // The API works through the prefix too (what a driver with AFHTTP_URL=<public url> does).
  let health = await fetch(`${proxy.url}${PREFIX}/health`, { headers: { authorization: `Bearer ${host.token}` } })
  for (let i = 0; i < 40 && health.status !== 200; i++) {
    await new Promise((resolve) => setTimeout(resolve, 250))
    health = await fetch(`${proxy.url}${PREFIX}/health`, { headers: { authorization: `Bearer ${host.token}` } })
  }
  t.equal(health.status, 200, '/health through the proxy')
  const res = await fetch(`${proxy.url}${PREFIX}/v1/fetch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${site.url}/wall`, takeover: true })
  })
  const body = await res.json() as any
  const panelUrl: string = body.actions[0].takeover_url_secret
  t.ok(panelUrl.startsWith(`${proxy.url}${PREFIX}/takeover/`), 'the minted panel URL carries the prefix')

  // The exchange: redirect and cookie path under the prefix (read without following it).
  const peek = await fetch(`${proxy.url}${PREFIX}/v1/tabs/${body.tab_id}/handoff`, { method: 'POST', headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' }, body: '{}' })
  const second = (await peek.json() as any).takeover_url_secret as string
  t.ok(second.startsWith(`${proxy.url}${PREFIX}/takeover/`), 'a second mint too')
  const exchanged = await openLink(second)
  t.equal(exchanged.status, 303)
  t.equal(exchanged.headers.get('location'), `${PREFIX}/panel/?tab=${encodeURIComponent(body.tab_id)}`, 'the redirect stays under the prefix')
  t.match(exchanged.headers.getSetCookie()[0], new RegExp(`; Path=${PREFIX}/panel(;|$)`), 'the lease cookie is scoped to the prefixed panel')
  const bare = await fetch(`${proxy.url}${PREFIX}/panel?tab=${body.tab_id}`, { redirect: 'manual' })
  t.equal(bare.headers.get('location'), `${PREFIX}/panel/?tab=${encodeURIComponent(body.tab_id)}`, '/panel redirects under the prefix')

  // A person opens the (third) link in a real browser: the document, its files, the status
  // polls and the WebSocket all go through the prefix, and frames arrive.
  const third = (await (await fetch(`${proxy.url}${PREFIX}/v1/tabs/${body.tab_id}/handoff`, { method: 'POST', headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' }, body: '{}' })).json() as any).takeover_url_secret as string
  const browser = await launchViewerBrowser(t)
  const context = await browser.createBrowserContext()
  const page = await context.newPage()
  const failed: string[] = []
  page.on('requestfailed', (r) => failed.push(r.url()))
  page.on('response', (r) => { if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`) })
  const before = proxy.refused.length
  await page.goto(third)
  t.equal(new URL(page.url()).pathname, `${PREFIX}/panel/`, 'the panel is shown under the prefix')
  await waitForFrames(page, 1)
  await page.waitForFunction(() => (window as any).afhttpPanelStats?.frames >= 1, { timeout: 15_000 })
  t.same(proxy.refused.slice(before), [], 'the panel never asked for a URL outside the prefix')
  t.same(failed, [], 'and nothing it loaded failed')
  t.ok(proxy.seen.some((u) => u.startsWith(`${PREFIX}/panel/ws?`)), 'its WebSocket went through the prefix')
  t.ok(proxy.seen.some((u) => u.startsWith(`${PREFIX}/panel/api/status?`)), 'and its status polls')
  t.ok(proxy.seen.some((u) => u.startsWith(`${PREFIX}/panel/lib/`)), 'and its shared modules')
  const cookies = (await context.cookies()).filter((c) => c.name.startsWith('afhttp'))
  t.equal(cookies.length, 1, `the browser holds the lease cookie for the prefixed panel: ${JSON.stringify(cookies.map((c) => c.name))}`)
  t.equal(cookies[0].path, `${PREFIX}/panel`)
  await context.close()
})
