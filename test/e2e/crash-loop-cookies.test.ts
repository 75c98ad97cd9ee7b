// docs/spec.md section 22: a crash loop loses nothing. A person signs in; then hosts are stopped with
// SIGTERM and SIGKILL at several moments while their (slow) browser starts — before Chromium
// runs, while it comes up, while its jar is restored, once it is ready — as a supervisor
// restarting a failing pod would. The cookie record is only ever written from a jar restored
// from it, so no host in the loop writes an empty jar over the login, and the last host is
// still signed in.
import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import t from 'tap'
import { processesStartedBy, profilesDirFor, spawnHost, type HostProcess } from '../helpers/host-process.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { slowChromium } from '../helpers/slow-chromium.js'

const SESSION = randomBytes(12).toString('hex')
const ACCOUNT = (req: { headers: { cookie?: string } }): string => (req.headers.cookie ?? '').includes(`session=${SESSION}`)
  ? '<!doctype html><title>Account</title><main id="account"><h1>Signed in as Ada</h1><p>Your orders and your saved searches are all here.</p></main>'
  : '<!doctype html><title>Sign in</title><main id="account"><p>Please sign in to see your account.</p></main>'

async function signedIn (host: HostProcess, url: string): Promise<boolean> {
  const res = await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url, wait: 'selector:#account', timeout_ms: 20_000, capture: ['text'] }) })
  const body = await res.json() as { artifacts?: { text?: string } }
  return /Signed in as Ada/.test(body.artifacts?.text ?? '')
}

async function recordHasLogin (path: string): Promise<boolean> {
  try {
    const doc = JSON.parse(await readFile(path, 'utf8')) as { cookies: Array<{ name: string, value: string }> }
    return doc.cookies.some((c) => c.name === 'session' && c.value === SESSION)
  } catch {
    return false
  }
}

async function listening (host: HostProcess): Promise<void> {
  for (const deadline = Date.now() + 120_000; Date.now() < deadline && host.child.exitCode === null;) {
    if ((await host.api('/health').then((r) => r.status, () => 0)) !== 0) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`the host did not listen: ${host.output().slice(-400)}`)
}

/** After the host is gone, its watchdog ends what it started: wait for that (bounded). */
async function gone (host: HostProcess): Promise<string[]> {
  await host.exited
  const pid = host.child.pid as number
  let left = processesStartedBy(pid)
  for (let i = 0; i < 100 && left.length; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    left = processesStartedBy(pid)
  }
  return left.map((p) => `${p.pid} ${p.command}`)
}

t.test('hosts stopped at several moments of their browser start never lose a recorded login', async (t) => {
  const dir = await profilesDirFor(t)
  const record = `${dir.path}/default/afhttp-cookies.json`
  const site = await startFixtureServer(t, {
    '/account': { body: ACCOUNT },
    '/login': { status: 302, headers: { location: '/account', 'set-cookie': `session=${SESSION}; Max-Age=3600; Path=/; HttpOnly` }, body: '' }
  })
  const hosts: HostProcess[] = []

  // Sign in, see it recorded, and crash right away (Chromium's own store lags ~30 s behind).
  const first = await spawnHost(t, dir.path)
  hosts.push(first)
  dir.removeAfterHosts()
  await first.ready(180_000)
  t.ok(await signedIn(first, `${site.url}/login`), 'signed in')
  for (let i = 0; i < 100 && !await recordHasLogin(record); i++) await new Promise((resolve) => setTimeout(resolve, 100))
  t.ok(await recordHasLogin(record), 'the login is recorded')
  first.child.kill('SIGKILL')
  t.same(await gone(first), [], 'nothing of the killed host is left')

  // The loop: a browser that takes 3 s before Chromium even runs, stopped at moments measured
  // from the host's first answer (before Chromium, as it launches, as its jar is restored).
  const chromium = await slowChromium(t, 3)
  const moments: Array<{ signal: NodeJS.Signals, afterMs: number | 'ready' }> = [
    { signal: 'SIGTERM', afterMs: 0 },
    { signal: 'SIGKILL', afterMs: 0 },
    { signal: 'SIGTERM', afterMs: 3_300 },
    { signal: 'SIGKILL', afterMs: 4_000 },
    { signal: 'SIGTERM', afterMs: 5_000 },
    { signal: 'SIGKILL', afterMs: 'ready' }
  ]
  for (const { signal, afterMs } of moments) {
    const host = await spawnHost(t, dir.path, { AFHTTP_CHROMIUM: chromium })
    hosts.push(host)
    await listening(host)
    if (afterMs === 'ready') await host.ready(180_000)
    else await new Promise((resolve) => setTimeout(resolve, afterMs))
    host.child.kill(signal)
    t.same(await gone(host), [], `${signal} at ${afterMs}: nothing left running`)
    t.ok(await recordHasLogin(record), `${signal} at ${afterMs}${afterMs === 'ready' ? '' : ' ms'}: the record still holds the login`)
  }

  // A host that finally comes up normally is still signed in.
  const last = await spawnHost(t, dir.path)
  hosts.push(last)
  await last.ready(180_000)
  t.ok(await signedIn(last, `${site.url}/account`), 'the last host is still signed in')
  // (The first host, on a fresh profile, may record its empty jar before the sign-in: that is right.)
  const emptyRecords = hosts.slice(1).flatMap((h) => h.lines()).filter((l) => l.msg === 'recorded the profile\'s cookies' && l.cookies === 0)
  t.same(emptyRecords, [], 'no host after the sign-in recorded an empty jar')
  for (const h of hosts) t.notMatch(h.output(), SESSION, 'no cookie value in any log line')
})
