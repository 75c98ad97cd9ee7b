import t from 'tap'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { AfhttpClient } from '../../src/client/index.js'
import { startHost } from '../helpers/host.js'
import { rejection } from '../helpers/client-errors.js'

/** A port nothing listens on: bind one, then close it. */
async function closedPort (): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}


t.test('the client against a real host', async (t) => {
  const host = await startHost(t)
  const client = new AfhttpClient({ url: host.url, token: host.token })
  t.teardown(() => client.close())

  t.test('capabilities needs no token', async (t) => {
    const anonymous = new AfhttpClient({ url: host.url })
    t.teardown(() => anonymous.close())
    const caps = await anonymous.capabilities()
    t.equal(caps.service, 'afhttp')
    t.ok(caps.captures.includes('screenshot'))
    t.ok(caps.wait_strategies.includes('selector-stable:<css>'))
  })

  t.test('health returns the live observation', async (t) => {
    const health = await client.health()
    t.equal(health.status.running, true)
    t.equal(health.status.backend_connected, true)
    t.type(health.status.takeover_ready, 'boolean')
    t.equal(health.profile.name, host.config.defaultProfile)
    t.ok(health.takeover.checks.length > 0, 'carries the live checks')
  })

  t.test('profiles: create, list, describe, update; a duplicate is a coded error', async (t) => {
    const created = await client.createProfile({ name: 'shop', labels: { team: 'a' } })
    t.equal(created.profile.name, 'shop')
    t.same(created.profile.labels, { team: 'a' })
    t.same(created.warnings, [])
    const listed = await client.listProfiles()
    t.ok(listed.profiles.some((p) => p.name === 'shop'))
    const described = await client.getProfile('shop')
    t.equal(described.profile.backend, 'chromium')
    const updated = await client.updateProfile('shop', { labels: { team: null, env: 'prod' } })
    t.same(updated.profile.labels, { env: 'prod' })
    const dup = await rejection(client.createProfile({ name: 'shop' }))
    t.equal(dup.code, 'profile_exists')
    t.equal(dup.status, 409)
    t.equal(dup.retryable, false)
  })

  t.test('an invalid request names the field', async (t) => {
    const err = await rejection(client.createProfile({ name: '../etc' }))
    t.equal(err.code, 'invalid_request')
    t.equal(err.status, 400)
    t.match(err.details, { field: /name/ })
  })

  t.test('tabs: list, and closing a missing tab is tab_not_found', async (t) => {
    const { tabs } = await client.listTabs()
    t.ok(Array.isArray(tabs))
    const err = await rejection(client.closeTab('no-such-tab'))
    t.equal(err.code, 'tab_not_found')
    t.equal(err.status, 404)
    t.same(err.toEnvelope().error.code, 'tab_not_found')
  })

  t.test('cdp runs a browser command', async (t) => {
    const res = await client.cdp<{ product: string }>({ method: 'Browser.getVersion' })
    t.match(res.result.product, /Chrome/)
  })

  t.test('a wrong token is unauthorized, and the token is not in the error', async (t) => {
    const wrong = new AfhttpClient({ url: host.url, token: 'definitely-not-the-token-42' })
    t.teardown(() => wrong.close())
    const err = await rejection(wrong.listTabs())
    t.equal(err.code, 'unauthorized')
    t.equal(err.status, 401)
    t.notMatch(JSON.stringify(err.toEnvelope()) + err.message, 'definitely-not-the-token-42')
    t.notMatch(err.message, host.token)
  })

  t.test('handoff refuses with takeover_unavailable when /health is not ready, without minting', async (t) => {
    const profile = host.config.defaultProfile
    const tab = await host.app.tabs.open(profile)
    const pid = host.app.browsers.status(profile).pid!
    const gone = new Promise((resolve) => host.app.browsers.peek(profile)!.once('disconnected', resolve))
    process.kill(pid, 'SIGKILL')
    await gone
    const health = await client.health()
    t.equal(health.status.takeover_ready, false, 'a 503 /health still resolves with its body')
    t.equal(health.status.backend_connected, false)
    const err = await rejection(client.handoff(tab.id))
    t.equal(err.code, 'takeover_unavailable')
    t.equal(err.retryable, true)
    t.equal(err.details.backend_connected, false)
    t.match(err.message, /health/)
  })
})

t.test('connection failures', async (t) => {
  t.test('a host that is down is host_unreachable and retryable', async (t) => {
    const client = new AfhttpClient({ url: `http://127.0.0.1:${await closedPort()}`, token: 'x' })
    t.teardown(() => client.close())
    const err = await rejection(client.health())
    t.equal(err.code, 'host_unreachable')
    t.equal(err.retryable, true)
    t.equal(err.status, undefined)
    t.equal(err.details.cause_code, 'ECONNREFUSED')
  })

  t.test('a host that does not answer in time is request_timeout', async (t) => {
    const hang = createServer(() => { /* never answers */ })
    await new Promise<void>((resolve) => hang.listen(0, '127.0.0.1', resolve))
    t.teardown(() => { hang.closeAllConnections(); hang.close() })
    const client = new AfhttpClient({ url: `http://127.0.0.1:${(hang.address() as AddressInfo).port}`, token: 'x', timeoutMs: 5_000 })
    t.teardown(() => client.close())
    const started = Date.now()
    const err = await rejection(client.listTabs({ timeoutMs: 200 }))
    t.equal(err.code, 'request_timeout')
    t.ok(Date.now() - started < 2_000, 'the per-call timeout wins over the client default')
    t.equal(err.details.timeout_ms, 200)
  })

  t.test('a caller abort rejects with the caller reason', async (t) => {
    const hang = createServer(() => { /* never answers */ })
    await new Promise<void>((resolve) => hang.listen(0, '127.0.0.1', resolve))
    t.teardown(() => { hang.closeAllConnections(); hang.close() })
    const client = new AfhttpClient({ url: `http://127.0.0.1:${(hang.address() as AddressInfo).port}`, token: 'x' })
    t.teardown(() => client.close())
    const ac = new AbortController()
    const call = client.listTabs({ signal: ac.signal })
    setTimeout(() => ac.abort(new Error('caller gave up')), 50)
    await t.rejects(call, { message: 'caller gave up' })
  })

  t.test('an answer that is not the API (a proxy error page) is invalid_response', async (t) => {
    const proxy = createServer((_req, res) => { res.writeHead(502, { 'content-type': 'text/html' }); res.end('<h1>Bad Gateway</h1>') })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    t.teardown(() => { proxy.closeAllConnections(); proxy.close() })
    const client = new AfhttpClient({ url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, token: 'x' })
    t.teardown(() => client.close())
    const err = await rejection(client.listTabs())
    t.equal(err.code, 'invalid_response')
    t.equal(err.status, 502)
    t.equal(err.retryable, true)
    t.match(err.message, /Bad Gateway/)
  })
})

t.test('the host URL must be http(s)', async (t) => {
  t.throws(() => new AfhttpClient({ url: 'ftp://127.0.0.1/' }), /http/)
})
