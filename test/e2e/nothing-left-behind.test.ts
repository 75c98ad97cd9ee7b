// docs/spec.md section 22: a host killed by SIGKILL (or the OOM killer) takes its Chromium, the
// Chromium's zygotes and renderers, and its Xvfb with it within seconds — not only when a later
// host starts on the same profiles directory.
import t from 'tap'
import { profilesDirFor, spawnHost } from '../helpers/host-process.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { processesOf, stillRunning } from '../helpers/proc-tree.js'

t.test('SIGKILL of a host holding a retained tab leaves none of its processes 5 s later', async (t) => {
  const dir = await profilesDirFor(t)
  const site = await startFixtureServer(t, { '/gate': { body: '<!doctype html><title>Gate</title><p>Please prove you are a person before you go on reading.</p>' } })
  const host = await spawnHost(t, dir.path, { AFHTTP_BROWSER_MODE: 'headful' })
  dir.removeAfterHosts()
  await host.ready(180_000)
  // A page that never shows what the driver waits for: the tab is kept for a person.
  await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/gate`, takeover: true, wait: 'selector:#never', timeout_ms: 5000 }) })
  const { tabs } = await (await host.api('/v1/tabs')).json() as { tabs: Array<{ tab_id: string, retained: boolean }> }
  t.ok(tabs.some((tab) => tab.retained), `the host holds a retained tab (${JSON.stringify(tabs)})`)

  const hostPid = host.child.pid as number
  const before = processesOf(hostPid).filter((p) => p.pid !== hostPid)
  const names = before.map((p) => p.command.split(' ')[0])
  t.ok(names.some((n) => /chromium|chrome/.test(n)), `Chromium runs (${before.length} processes)`)
  t.ok(names.some((n) => /Xvfb/.test(n)), 'Xvfb runs')
  t.ok(before.length >= 4, 'the browser has its helper processes (zygote, renderers) too')

  host.child.kill('SIGKILL')
  await host.exited
  await new Promise((resolve) => setTimeout(resolve, 5_000))
  const left = stillRunning(before)
  t.same(left.map((p) => `${p.pid} ${p.command}`), [], 'no process of the killed host runs 5 s later')
  t.same(processesOf(hostPid).filter((p) => p.pid !== hostPid).map((p) => `${p.pid} ${p.command}`), [], 'nothing new in its groups or sessions either')
})

t.test('a host stopped normally ends everything too, and its watchdog leaves', async (t) => {
  const dir = await profilesDirFor(t)
  const host = await spawnHost(t, dir.path, { AFHTTP_BROWSER_MODE: 'headful' })
  dir.removeAfterHosts()
  await host.ready(180_000)
  const hostPid = host.child.pid as number
  const before = processesOf(hostPid).filter((p) => p.pid !== hostPid)
  t.ok(before.some((p) => p.command.startsWith('/bin/sh -c') && p.command.includes('afhttp-watchdog')), 'a watchdog runs beside the host')
  host.child.kill('SIGTERM')
  await host.exited
  await new Promise((resolve) => setTimeout(resolve, 2_000))
  t.same(stillRunning(before).map((p) => `${p.pid} ${p.command}`), [], 'nothing left after a clean stop')
})
