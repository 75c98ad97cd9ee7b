import t from 'tap'
import { startHost, TEST_TOKEN } from '../helpers/host.js'

t.test('errors share one envelope; auth guards the API', async (t) => {
  const host = await startHost(t, { startBrowser: false })

  t.test('unknown route is a 404 envelope', async (t) => {
    const res = await host.api('/v1/nothing-here')
    t.equal(res.status, 404)
    const body = await res.json()
    t.equal(body.error.code, 'route_not_found')
    t.equal(body.error.retryable, false)
    t.same(body.error.details, {})
  })

  t.test('missing and wrong tokens are unauthorized on /v1, /health and /metrics', async (t) => {
    for (const path of ['/v1/tabs', '/health', '/metrics', '/v1/profiles']) {
      const none = await fetch(host.url + path)
      t.equal(none.status, 401, `${path} without token`)
      t.equal((await none.json()).error.code, 'unauthorized')
      const wrong = await fetch(host.url + path, { headers: { authorization: 'Bearer wrong-token-wrong-token' } })
      t.equal(wrong.status, 401, `${path} with a wrong token`)
      t.match((await wrong.json()).error.message, /wrong/)
    }
  })

  t.test('percent-encoded paths cannot slip past the token check', async (t) => {
    for (const path of ['/%761/profiles', '/v%31/tabs', '/%68ealth', '/%6detrics', '/v1/%70rofiles', '/V1/profiles']) {
      const res = await fetch(host.url + path)
      t.not(res.status, 200, `${path} is not answered without a token`)
      if (res.status !== 404) t.equal((await res.json()).error.code, 'unauthorized', path)
    }
    const created = await fetch(host.url + '/%761/profiles', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'sneaky' }) })
    t.equal(created.status, 401)
  })

  t.test('capabilities is public and carries no secret', async (t) => {
    const res = await fetch(host.url + '/capabilities')
    t.equal(res.status, 200)
    const text = await res.text()
    const body = JSON.parse(text)
    t.equal(body.service, 'afhttp')
    t.equal(body.api_version, 'v1')
    t.same(body.takeover, { configured: true, backend: 'chromium', provider: 'afhttp-panel' })
    t.ok(body.wait_strategies.includes('selector-stable:<css>'))
    t.same(body.captures, ['html', 'text', 'screenshot'])
    t.notMatch(text, TEST_TOKEN)
    t.notMatch(text, host.profilesDir)
  })

  t.test('bad JSON, wrong content type and oversize bodies get coded errors', async (t) => {
    const bad = await host.api('/v1/profiles', { method: 'POST', body: '{"name":', headers: { 'content-type': 'application/json' } })
    t.equal(bad.status, 400)
    t.equal((await bad.json()).error.code, 'invalid_request')
    const big = await host.api('/v1/profiles', { method: 'POST', body: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }) })
    t.equal(big.status, 413)
    t.equal((await big.json()).error.code, 'payload_too_large')
  })

  t.test('the token and panel secrets never reach the log', async (t) => {
    await fetch(host.url + '/takeover/very-secret-panel-secret-value', { headers: { cookie: 'afhttp_lease=lease-cookie-value' } })
    const text = host.logs.text()
    t.notMatch(text, TEST_TOKEN)
    t.notMatch(text, 'very-secret-panel-secret-value')
    t.notMatch(text, 'lease-cookie-value')
    t.match(text, '/takeover/[redacted]')
  })
})
