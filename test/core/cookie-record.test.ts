import t from 'tap'
import {
  cookieDigest, parseCookieRecord, planRestore, serializeCookieRecord, type RecordedCookie
} from '../../src/core/cookie-record.js'

const NOW = 1_800_000_000
const cookie = (over: Partial<RecordedCookie>): RecordedCookie => ({
  name: 'session', value: 'v1', domain: 'shop.test', path: '/', expires: NOW + 3600, httpOnly: true, secure: true, sameSite: 'Lax', ...over
})

t.test('what the store lost comes back, and only while it is valid', async (t) => {
  const login = cookie({})
  const consent = cookie({ name: 'consent', value: 'yes', domain: '.shop.test', httpOnly: false })
  const expired = cookie({ name: 'old', expires: NOW - 1 })
  const session = cookie({ name: 'sid', expires: -1 })
  const plan = planRestore([login, consent, expired, session], [consent], NOW)
  t.same(plan.remove, [], 'nothing to remove')
  const restored = plan.set
  t.same(restored.map((c) => c.name), ['session', 'sid'], 'present and expired cookies are left alone')
  t.same(restored[0], {
    name: 'session', value: 'v1', path: '/', secure: true, httpOnly: true, url: 'https://shop.test/', expires: NOW + 3600, sameSite: 'Lax'
  }, 'a host-only cookie is set by URL so it stays host-only')
  t.equal(restored[1].expires, undefined, 'a session cookie stays a session cookie')
  const domainCookie = planRestore([consent], [], NOW).set[0]
  t.equal(domainCookie.domain, '.shop.test', 'a domain cookie keeps its domain')
  t.equal(domainCookie.url, undefined)
})

t.test('the record is newer than the store: a changed value is put back, an unchanged one left alone', async (t) => {
  t.same(planRestore([cookie({ value: 'v2' })], [cookie({ value: 'v1' })], NOW).set.map((c) => c.value), ['v2'])
  t.same(planRestore([cookie({})], [cookie({})], NOW), { set: [], remove: [] })
})

t.test('a cookie the store still holds but the record does not (the site deleted it) is removed', async (t) => {
  const plan = planRestore([cookie({ name: 'kept' })], [cookie({ name: 'kept' }), cookie({ name: 'session', domain: '.shop.test' })], NOW)
  t.same(plan.set, [])
  t.same(plan.remove.map((c) => [c.name, c.domain, c.expires, c.value]), [['session', '.shop.test', 1, '']], 'expired in the past, as a deletion is')
})

t.test('a cookie the site deleted before the record is not in it, so it cannot come back', async (t) => {
  const text = serializeCookieRecord([cookie({ name: 'kept' })], new Date(NOW * 1000))
  const parsed = parseCookieRecord(text)
  t.ok('cookies' in parsed)
  if (!('cookies' in parsed)) return
  t.same(planRestore(parsed.cookies, [], NOW).set.map((c) => c.name), ['kept'])
})

t.test('records that cannot be used restore nothing and say why', async (t) => {
  t.same(parseCookieRecord(''), { error: 'not JSON' })
  t.same(parseCookieRecord('{"schema_version":2,"cookies":[]}'), { error: 'not a schema_version 1 cookie record' })
  t.same(parseCookieRecord('{"schema_version":1,"cookies":[{"name":1}]}'), { cookies: [] }, 'malformed entries are dropped')
})

t.test('the digest ignores order and fields Chromium derives, and sees every real change', async (t) => {
  const a = cookie({ name: 'a' })
  const b = cookie({ name: 'b' })
  t.equal(cookieDigest([a, b]), cookieDigest([b, a]))
  t.equal(cookieDigest([{ ...a, size: 12 } as RecordedCookie]), cookieDigest([a]))
  t.not(cookieDigest([a]), cookieDigest([{ ...a, value: 'v2' }]))
  t.not(cookieDigest([a, b]), cookieDigest([a]))
})
