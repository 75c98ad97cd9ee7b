// docs/spec.md section 22: a host listens as soon as it can and brings its browser up in the
// background. A Chromium that takes 11 s to start (longer than Fastify's 10 s onReady budget,
// which used to end the host) leaves the host serving: /health says not ready, then ready, and a
// fetch made meanwhile waits for the browser and works.
import t from 'tap'
import { processesStartedBy, profilesDirFor, spawnHost } from '../helpers/host-process.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { slowChromium } from '../helpers/slow-chromium.js'

interface HealthBody { status: { running: boolean, takeover_ready: boolean }, backend_error?: string }

t.test('a host whose Chromium takes 11 s to start listens at once and serves when it is up', async (t) => {
  const dir = await profilesDirFor(t)
  const site = await startFixtureServer(t, { '/hello': { body: '<!doctype html><title>Hello</title><main id="hi">Hello from a slow start, a page with enough words to be content.</main>' } })
  const chromium = await slowChromium(t, 11)
  const host = await spawnHost(t, dir.path, { AFHTTP_CHROMIUM: chromium })
  dir.removeAfterHosts()

  // Listening, while the browser is still starting (11 s of sleep before Chromium even runs).
  let first: { code: number, body: HealthBody } | undefined
  // Node itself may take many seconds to start on a loaded machine: the bound is generous.
  for (const deadline = Date.now() + 120_000; !first && Date.now() < deadline;) {
    if (host.child.exitCode !== null) break
    try {
      const res = await host.api('/health')
      first = { code: res.status, body: await res.json() as HealthBody }
    } catch { await new Promise((resolve) => setTimeout(resolve, 50)) }
  }
  t.ok(first, `the host listens before its browser is up: ${host.output().slice(-400)}`)
  t.equal(first?.code, 503, '/health answers 503 while the browser starts')
  t.equal(first?.body.status.running, true, 'the process is running')
  t.equal(first?.body.status.takeover_ready, false, 'not ready yet')
  t.equal(first?.body.backend_error, 'browser starting', 'and it says why')
  const profile = await (await host.api('/v1/profiles/default')).json() as { profile: { running: { starting?: boolean } | null } }
  t.equal(profile.profile.running?.starting, true, 'the profile says its browser is starting')

  // A fetch made now waits for the same start, then works.
  const fetching = host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/hello`, wait: 'selector:#hi', capture: ['text'] }) })
  await host.ready(180_000)
  t.equal(host.child.exitCode, null, 'the host did not exit over the slow start')
  const res = await fetching
  const body = await res.json() as { ok?: boolean, artifacts?: { text?: string } }
  t.equal(res.status, 200, 'the fetch made meanwhile answered')
  t.match(body.artifacts?.text ?? '', /Hello from a slow start/, 'with the page')
  t.notMatch(host.output(), /onReady|cannot listen/, 'no start-up timeout was logged')
})

t.test('a host stopped while its slow browser starts exits promptly and leaves nothing', async (t) => {
  const dir = await profilesDirFor(t)
  const chromium = await slowChromium(t, 30)
  const host = await spawnHost(t, dir.path, { AFHTTP_CHROMIUM: chromium })
  dir.removeAfterHosts()
  for (const deadline = Date.now() + 120_000; Date.now() < deadline && host.child.exitCode === null;) {
    if ((await host.api('/health').then((r) => r.status, () => 0)) !== 0) break
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  const stopped = Date.now()
  host.child.kill('SIGTERM')
  await host.exited
  t.equal(host.child.exitCode, 0, `a clean exit: ${host.output().slice(-400)}`)
  t.ok(Date.now() - stopped < 25_000, `before the 30 s start would have ended (${Date.now() - stopped} ms)`)
  t.same(processesStartedBy(host.child.pid as number), [], 'the half-started browser and its display are gone')
})
