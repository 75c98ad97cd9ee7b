// docs/spec.md section 22: the cookie record is only ever written from a jar that was first restored
// from it (or on a profile that never had one). A browser whose jar was not restored — a host
// stopped while its browser starts, a restore that failed — never writes over the record.
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { CookieJournal, UNUSABLE_SUFFIX } from '../../src/browser/cookie-journal.js'
import { COOKIES_FILE, serializeCookieRecord, type RecordedCookie } from '../../src/core/cookie-record.js'
import { browserSession } from '../../src/browser/window-anchor.js'
import { launchViewerBrowser } from '../helpers/panel-browser.js'

const LOGIN: RecordedCookie = { name: 'session', value: 'signed-in-as-ada', domain: '127.0.0.1', path: '/', expires: Math.floor(Date.now() / 1000) + 3600, httpOnly: true, secure: false, sameSite: 'Lax' }
const quiet = { info () {}, warn () {} }

async function profileDir (t: { teardown: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'afhttp-journal-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  return dir
}

t.test('a jar that was not restored from the record is never written over it', async (t) => {
  const dir = await profileDir(t)
  const path = join(dir, COOKIES_FILE)
  const recorded = serializeCookieRecord([LOGIN], new Date())
  await writeFile(path, recorded, { mode: 0o600 })
  const journal = new CookieJournal(dir, quiet, 'p')
  const browser = await launchViewerBrowser(t)

  t.equal(await journal.record(browser, 'shutdown'), 'not_restored', 'an unrestored (empty) jar is refused')
  t.equal(await readFile(path, 'utf8'), recorded, 'the record is byte-identical')

  t.equal(await journal.restore(browser), 1, 'the login is restored')
  t.equal(await journal.record(browser, 'interval'), 'unchanged', 'the restored jar equals the record')
  const session = await browserSession(browser)
  await session.send('Storage.setCookies', { cookies: [{ name: 'theme', value: 'dark', url: 'http://127.0.0.1/', path: '/' }] })
  t.equal(await journal.record(browser, 'fetch'), 'written', 'a change to a restored jar is recorded')
  const names = (JSON.parse(await readFile(path, 'utf8')) as { cookies: RecordedCookie[] }).cookies.map((c) => c.name).sort()
  t.same(names, ['session', 'theme'], 'with the login kept')

  // Another browser on the same journal (a restart) is judged on its own.
  const second = await launchViewerBrowser(t)
  const before = await readFile(path, 'utf8')
  t.equal(await journal.record(second, 'shutdown'), 'not_restored', 'a new browser must be restored first')
  t.equal(await readFile(path, 'utf8'), before, 'the record is untouched')
})

t.test('a profile that never had a record is recorded from its first browser', async (t) => {
  const dir = await profileDir(t)
  const journal = new CookieJournal(dir, quiet, 'p')
  const browser = await launchViewerBrowser(t)
  t.equal(await journal.restore(browser), 0, 'nothing to restore')
  t.equal(await journal.record(browser, 'interval'), 'written', 'the jar is recorded')
})

t.test('an unusable record is set aside, not overwritten; an unreadable one stops the restore', async (t) => {
  const dir = await profileDir(t)
  await writeFile(join(dir, COOKIES_FILE), '{"not": "a record"')
  const journal = new CookieJournal(dir, quiet, 'p')
  const browser = await launchViewerBrowser(t)
  t.equal(await journal.restore(browser), 0, 'nothing restored from it')
  t.equal(await readFile(join(dir, COOKIES_FILE + UNUSABLE_SUFFIX), 'utf8'), '{"not": "a record"', 'kept aside for the operator')
  t.equal(await journal.record(browser, 'interval'), 'written', 'the profile is recorded from then on')

  const other = await profileDir(t)
  await mkdir(join(other, COOKIES_FILE)) // reading it fails (EISDIR)
  const stuck = new CookieJournal(other, quiet, 'q')
  await t.rejects(stuck.restore(browser), /unreadable/, 'a record that cannot be read fails the restore')
  t.equal(await stuck.record(browser, 'shutdown'), 'not_restored', 'and that browser is never recorded')
  t.ok((await stat(join(other, COOKIES_FILE))).isDirectory(), 'nothing was written in its place')
})
