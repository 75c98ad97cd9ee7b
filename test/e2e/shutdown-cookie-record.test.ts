// docs/spec.md section 13: at shutdown the host records the profile's cookies. A login made by a plain
// navigation — no fetch, no handoff, so shutdown is its only recording moment — is in the record
// after a clean stop, and the next host on the profiles directory has it back. Chromium is closed
// by the host, not killed under it: puppeteer kills a browser whenever the signal it launched with
// aborts, and the host's shutdown aborts that signal before it records (found in a benchmark's log:
// "could not record the profile's cookies", reason shutdown, Target closed).
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { startHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { COOKIES_FILE } from '../../src/core/cookie-record.js'

const SIGNED_IN = '<!doctype html><title>Signed in</title><p>Welcome, Ada.</p>'

for (const mode of ['headful', 'headless'] as const) {
  t.test(`${mode}: a clean stop records the login and closes Chromium itself`, async (t) => {
    const profilesDir = await mkdtemp(join(tmpdir(), 'afhttp-stop-'))
    t.teardown(() => rm(profilesDir, { recursive: true, force: true }))
    // A session cookie: Chromium keeps it in memory only, so only the host's record carries it over.
    const site = await startFixtureServer(t, { '/sign-in': { headers: { 'set-cookie': 'session=ada-signed-in; Path=/; HttpOnly' }, body: SIGNED_IN } })

    const first = await startHost(t, { profilesDir, env: { AFHTTP_BROWSER_MODE: mode } })
    const browser = await first.app.browsers.get(first.config.defaultProfile)
    const exited = new Promise<{ code: number | null, signal: NodeJS.Signals | null }>((resolve) => browser.process()!.once('exit', (code, signal) => resolve({ code, signal })))
    const tab = await first.app.tabs.open(first.config.defaultProfile)
    await tab.page.goto(`${site.url}/sign-in`)
    await first.close()

    const lines = first.logs.text()
    t.notMatch(lines, /could not record the profile's cookies/, 'the record at shutdown was taken')
    t.notMatch(lines, /browser went away/, 'the browser did not go away under the host')
    t.same(await exited, { code: 0, signal: null }, 'Chromium exited by itself when the host closed it')
    const record = JSON.parse(await readFile(join(profilesDir, 'default', COOKIES_FILE), 'utf8')) as { cookies: Array<{ name: string, value: string }> }
    t.ok(record.cookies.some((c) => c.name === 'session' && c.value === 'ada-signed-in'), 'the session cookie is in the record')

    const second = await startHost(t, { profilesDir, env: { AFHTTP_BROWSER_MODE: mode } })
    const again = await second.app.tabs.open(second.config.defaultProfile)
    await again.page.goto(`${site.url}/`)
    const cookies = await again.page.cookies(site.url)
    t.ok(cookies.some((c) => c.name === 'session' && c.value === 'ada-signed-in'), 'the next host has the login back')
  })
}
