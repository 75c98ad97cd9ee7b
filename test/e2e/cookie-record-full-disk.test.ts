// docs/spec.md sections 4 and 13: the cookie record is written like the metadata. On a real full disk
// (a tmpfs filled with dd) a record that cannot be written leaves the previous one
// byte-identical, leaves no temporary file, says why in the log, and is written once space is back.
import t from 'tap'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { startHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { mountTmpfs, tmpfsSkip } from '../helpers/tmpfs.js'

const skip = tmpfsSkip()
if (skip) t.comment(`skipping the real full-disk cookie-record test: ${skip}`)

const PAGE = '<!doctype html><title>Shop</title><main><h1>Shop</h1><p>Welcome to the shop; a cookie was set for this visit just now.</p></main>'

t.test('the cookie record on a full disk', { skip }, async (t) => {
  const fs = mountTmpfs('256m')
  const site = await startFixtureServer(t, {
    '/first': { headers: { 'set-cookie': 'first=1; Max-Age=3600; Path=/' }, body: PAGE },
    '/second': { headers: { 'set-cookie': 'second=2; Max-Age=3600; Path=/' }, body: PAGE }
  })
  const host = await startHost(t, { profilesDir: fs.dir }).catch((err: unknown) => { fs.unmount(); throw err })
  // Teardowns run in order: the host closes (and its browser lets go of the disk) before the unmount.
  t.teardown(() => fs.unmount())
  const record = join(fs.dir, 'default', 'afhttp-cookies.json')
  const names = (): string[] => (JSON.parse(readFileSync(record, 'utf8')) as { cookies: Array<{ name: string }> }).cookies.map((c) => c.name)
  const until = async (what: () => boolean): Promise<void> => {
    for (let i = 0; i < 200 && !what(); i++) await new Promise((resolve) => setTimeout(resolve, 50))
  }
  const tryNames = (): string[] => { try { return names() } catch { return [] } }

  await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/first` }) })
  await until(() => tryNames().includes('first'))
  t.same(names(), ['first'], 'recorded after the fetch')
  const before = readFileSync(record)

  t.ok(fs.fill() > 0, 'dd filled the disk')
  // The browser shares the disk and deletes its journals now and then: whatever it frees is
  // filled again while the host tries to record, so the record meets a full disk.
  const failures = (): number => host.logs.lines.filter((l) => l.msg === 'could not record the profile\'s cookies').length
  const fetched = host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/second` }) })
  await until(() => { fs.topUp(); return failures() > 0 })
  await fetched
  const failure = host.logs.lines.find((l) => l.msg === 'could not record the profile\'s cookies')
  t.match(failure?.error, /ENOSPC/, 'the log says the disk is full')
  t.notMatch(JSON.stringify(failure), /second=2|"value"/, 'and carries no cookie value')
  t.same(readFileSync(record), before, 'the previous record is byte-identical')
  // A record queued behind the failed one (the fetch's answer asks for one too) may be writing its
  // temp right now and meet the full disk in turn: a temp is left only if it outlives them all.
  const temps = (): string[] => readdirSync(join(fs.dir, 'default')).filter((n) => n.includes('afhttp-cookies') && n.endsWith('.tmp'))
  await until(() => { fs.topUp(); return temps().length === 0 })
  t.same(temps(), [], 'no temporary file is left')

  fs.free()
  // The next moment (a fetch, or the periodic check) records what the failed write could not.
  await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/first` }) })
  await until(() => tryNames().includes('second'))
  t.same(names().sort(), ['first', 'second'], 'recorded once space is back')
})
