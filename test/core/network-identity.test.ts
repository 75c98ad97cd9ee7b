import t from 'tap'
import {
  acceptLanguages, canonicalLocale, localeProblem, proxyProblem, redactedMetadata, redactProxy, timezoneProblem
} from '../../src/core/network-identity.js'
import { networkIdentityProblem } from '../../src/core/profile-metadata.js'

const SECRET = 's3cret-Pw'

t.test('proxy URLs: http, https and socks5, credentials optional, no path; messages never repeat the URL', async (t) => {
  for (const ok of ['http://127.0.0.1:3128', 'https://proxy.example:443/', `socks5://u:${SECRET}@10.0.0.1:1080`, 'http://user@proxy.example:8080']) t.equal(proxyProblem(ok), undefined, ok)
  const bad: Array<[unknown, RegExp]> = [
    [`ftp://u:${SECRET}@h:21`, /http:\/\/, https:\/\/ or socks5:\/\//],
    [`socks4://u:${SECRET}@h:1`, /socks5/],
    [`http://u:${SECRET}@h:1/path`, /must not have a path/],
    [`http://u:${SECRET}@h:1/?a=b`, /query or a fragment/],
    [`http://:${SECRET}@h:1`, /password but no user name/],
    ['nonsense', /not a valid URL/],
    [42, /must be a string/],
    [`http://h/${'a'.repeat(3000)}`, /at most 2048/]
  ]
  for (const [value, why] of bad) {
    const problem = proxyProblem(value)
    t.match(problem, why, String(value).slice(0, 40))
    t.notMatch(problem ?? '', SECRET, 'the password is not in the message')
  }
})

t.test('redaction keeps what an operator recognises and drops the password', async (t) => {
  t.equal(redactProxy(`http://u:${SECRET}@127.0.0.1:3128`), 'http://u:redacted@127.0.0.1:3128')
  t.equal(redactProxy(`socks5://u:${SECRET}@h:1080`), 'socks5://u:redacted@h:1080')
  t.equal(redactProxy('http://127.0.0.1:3128'), 'http://127.0.0.1:3128', 'nothing to redact')
  t.equal(redactProxy('::'), '(unparseable proxy URL)')
  const meta = { name: 'a', proxy: `http://u:${SECRET}@h:1` }
  t.equal(redactedMetadata(meta).proxy, 'http://u:redacted@h:1')
  t.equal(meta.proxy, `http://u:${SECRET}@h:1`, 'the stored metadata is not changed')
  const plain: { name: string, proxy?: string } = { name: 'b' }
  t.same(redactedMetadata(plain), { name: 'b' })
})

t.test('time zones: IANA names only', async (t) => {
  for (const ok of ['Europe/Paris', 'Asia/Tokyo', 'UTC', 'America/Argentina/Buenos_Aires', 'Etc/GMT+5']) t.equal(timezoneProblem(ok), undefined, ok)
  t.match(timezoneProblem('Mars/Olympus_Mons'), /not a known IANA time zone/)
  t.match(timezoneProblem('+05:00'), /IANA time zone name/, 'an offset would mean something else in TZ')
  t.match(timezoneProblem(':/etc/localtime'), /IANA time zone name/)
  t.match(timezoneProblem(''), /IANA/)
  t.match(timezoneProblem(5), /string/)
})

t.test('locales: BCP 47 tags, canonical spelling, what Accept-Language carries', async (t) => {
  for (const ok of ['fr', 'fr-FR', 'zh-Hant-TW', 'en-us']) t.equal(localeProblem(ok), undefined, ok)
  for (const bad of ['fr_FR', 'not a locale', 'x', 'fr,de', '--lang=en']) t.match(localeProblem(bad), /BCP 47/, bad)
  t.equal(canonicalLocale('en-us'), 'en-US')
  t.same(acceptLanguages('fr-FR'), ['fr-FR', 'fr'])
  t.same(acceptLanguages('de'), ['de'])
})

t.test('metadata: a cdp profile has no network identity; the first bad field is named', async (t) => {
  t.equal(networkIdentityProblem({ backend: 'chromium', proxy: 'http://h:1', timezone: 'UTC', locale: 'de' }), undefined)
  t.match(networkIdentityProblem({ backend: 'cdp', timezone: 'UTC' }), /^timezone applies only to profiles with backend "chromium"/)
  t.match(networkIdentityProblem({ backend: 'chromium', locale: 'x' }), /^locale /)
})

t.test('a write answer with the next-start fields and a redacted proxy fits its schema exactly', async (t) => {
  const { strictProblems } = await import('../helpers/strict-schema.js')
  const { ProfileWriteResult, ProfileList } = await import('../../src/schemas/index.js')
  const profile = { schema_version: 1, name: 'p', backend: 'chromium', labels: {}, proxy: 'http://u:redacted@h:1', timezone: 'UTC', locale: 'fr-FR', created_at: 'x', updated_at: 'x' }
  t.same(strictProblems(ProfileWriteResult, { profile, warnings: [{ code: 'browser_restart_needed', message: 'm' }], applies_at_next_start: ['proxy', 'locale'] }), [])
  t.not(strictProblems(ProfileWriteResult, { profile, warnings: [], applies_at_next_start: ['labels'] }).length, 0, 'only proxy, timezone and locale wait for a start')
  t.same(strictProblems(ProfileList, { profiles: [profile] }), [])
})
