// Web Push end to end on 127.0.0.1 (docs/spec.md section 20), the real protocol: a push-service stand-in
// speaking HTTPS with a self-signed certificate that the host (its own process) trusts through
// NODE_EXTRA_CA_CERTS. The test is the browser: it makes the subscription's keys, checks the
// VAPID authorization (an ES256 JWT against the host's public key), decrypts the aes128gcm
// payload itself (ECDH P-256 + HKDF, RFC 8291 / RFC 8188), and finds no secret in it. A push
// service answering 410 removes the subscription, on disk too.
import t, { type Test } from 'tap'
import { execFileSync } from 'node:child_process'
import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import { createServer, type Server } from 'node:https'
import { join } from 'node:path'
import { profilesDirFor, spawnHost } from '../helpers/host-process.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { until } from '../helpers/until.js'
import { PUSH_SUBSCRIPTIONS_FILE } from '../../src/inbox/push-store.js'
import { VAPID_FILE } from '../../src/inbox/vapid.js'

const OPERATOR = 'operator-token-for-push-0123456789'
const DENIED = '<!doctype html><title>Access denied</title><h1>Access denied</h1><p>You may not see this page.</p>'
const INSTRUCTIONS = 'Sign in with the ops account'

interface PushRequest { path: string, headers: Record<string, string | string[] | undefined>, body: Buffer }

/** A push service on 127.0.0.1: records each request; `/push/gone…` answers 410 like a dead subscription. */
async function pushService (t: Test, dir: string): Promise<{ url: string, requests: PushRequest[], ca: string }> {
  const key = join(dir, 'push-key.pem')
  const cert = join(dir, 'push-cert.pem')
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert,
    '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' })
  const requests: PushRequest[] = []
  const server: Server = createServer({ key: await readFile(key), cert: await readFile(cert) }, (req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      requests.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) })
      res.writeHead(req.url?.startsWith('/push/gone') ? 410 : 201)
      res.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }))
  return { url: `https://127.0.0.1:${(server.address() as { port: number }).port}`, requests, ca: cert }
}

/** What a browser keeps for one subscription: its ECDH key pair and auth secret. */
function browserKeys (): { ecdh: ReturnType<typeof createECDH>, auth: Buffer, json: (endpoint: string) => unknown } {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  const auth = randomBytes(16)
  return { ecdh, auth, json: (endpoint) => ({ endpoint, expirationTime: null, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } }) }
}

/** RFC 8291 section 3.4 + RFC 8188: the browser's side of decrypting a Web Push message. */
function decrypt (body: Buffer, ua: ReturnType<typeof browserKeys>): Buffer {
  const salt = body.subarray(0, 16)
  const rs = body.readUInt32BE(16)
  const idlen = body[20]
  const asPublic = body.subarray(21, 21 + idlen)
  const records = body.subarray(21 + idlen)
  if (records.length > rs) throw new Error('more than one record')
  const shared = ua.ecdh.computeSecret(asPublic)
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ua.ecdh.getPublicKey(), asPublic])
  const ikm = Buffer.from(hkdfSync('sha256', shared, ua.auth, keyInfo, 32))
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16))
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12))
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce)
  decipher.setAuthTag(records.subarray(records.length - 16))
  const padded = Buffer.concat([decipher.update(records.subarray(0, records.length - 16)), decipher.final()])
  // The last record ends with the delimiter 0x02 and zero padding.
  let end = padded.length - 1
  while (end >= 0 && padded[end] === 0) end--
  if (padded[end] !== 2) throw new Error(`bad padding delimiter ${padded[end]}`)
  return padded.subarray(0, end)
}

/** `vapid t=<jwt>, k=<key>` (RFC 8292): the JWT's ES256 signature checked against `k`. */
function checkVapid (t: Test, authorization: string, audience: string, publicKey: string): void {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization)
  t.ok(m, `a vapid authorization: ${authorization.slice(0, 20)}…`)
  const [, jwt, k] = m!
  t.equal(k, publicKey, 'k is the key the inbox hands to browsers')
  const [h, p, s] = jwt.split('.')
  t.same(JSON.parse(Buffer.from(h, 'base64url').toString()), { typ: 'JWT', alg: 'ES256' })
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString())
  t.equal(claims.aud, audience, 'aud is the push service origin')
  t.ok(claims.exp * 1000 > Date.now() && claims.exp * 1000 <= Date.now() + 24 * 3600_000 + 60_000, 'exp within 24 hours')
  t.match(claims.sub, /^(mailto:|https:)/)
  const point = Buffer.from(k, 'base64url')
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, format: 'jwk' })
  t.ok(verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url')), 'the ES256 signature verifies')
  const forged = Buffer.from(s, 'base64url')
  forged[5] ^= 1
  t.notOk(verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, forged), 'a changed signature does not')
}

t.test('a new handoff reaches a subscribed browser through a real push service', async (t) => {
  const profiles = await profilesDirFor(t)
  const service = await pushService(t, profiles.path)
  // Headless: this test is about the push protocol, and a browser that starts sooner keeps a loaded machine inside the host's ready bound.
  // The host in its own process (NODE_EXTRA_CA_CERTS is read at process start), its browser
  // started by the first fetch (test/helpers/lazy-host.mjs says why).
  const host = await spawnHost(t, profiles.path, { AFHTTP_OPERATOR_TOKEN: OPERATOR, NODE_EXTRA_CA_CERTS: service.ca }, 'test/helpers/lazy-host.mjs')
  profiles.removeAfterHosts()
  await host.listening(60_000)
  const site = await startFixtureServer(t, { '/denied': { status: 403, body: DENIED } })

  const login = await fetch(`${host.url}/inbox/login?token=${OPERATOR}`, { redirect: 'manual' })
  t.equal(login.status, 303)
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]
  const inbox = (path: string, body?: unknown): Promise<Response> => fetch(host.url + path, body === undefined
    ? { headers: { cookie } }
    : { method: 'POST', headers: { cookie, origin: host.url, 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const { public_key: publicKey } = await (await inbox('/inbox/api/push-key')).json() as { public_key: string }
  t.equal((await stat(join(profiles.path, VAPID_FILE))).mode & 0o777, 0o600, 'the VAPID key pair is kept 0600')

  const phone = browserKeys()
  const dead = browserKeys()
  t.equal((await inbox('/inbox/api/push-subscriptions', phone.json(`${service.url}/push/phone`))).status, 200)
  t.equal((await inbox('/inbox/api/push-subscriptions', dead.json(`${service.url}/push/gone-desktop`))).status, 200)
  const onDisk = async (): Promise<string[]> => (JSON.parse(await readFile(join(profiles.path, PUSH_SUBSCRIPTIONS_FILE), 'utf8')) as { subscriptions: Array<{ endpoint: string }> }).subscriptions.map((s) => s.endpoint)
  t.same((await onDisk()).sort(), [`${service.url}/push/gone-desktop`, `${service.url}/push/phone`])

  const fetched = await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/denied`, takeover: true, instructions: INSTRUCTIONS }) })).json() as any
  const action = fetched.actions[0]
  t.ok(action.takeover_url_secret, 'a panel link was minted')

  await until(() => service.requests.some((r) => r.path === '/push/phone'), 'the push to the phone', 30_000)
  const push = service.requests.find((r) => r.path === '/push/phone')!
  t.equal(push.headers['content-encoding'], 'aes128gcm')
  t.equal(push.headers.urgency, 'high')
  t.ok(Number(push.headers.ttl) > 0 && Number(push.headers.ttl) <= 600, `TTL ${push.headers.ttl} no longer than a hold`)
  checkVapid(t, String(push.headers.authorization), service.url, publicKey)

  const plain = decrypt(push.body, phone).toString('utf8')
  const payload = JSON.parse(plain)
  t.match(payload, { type: 'handoff.opened', profile: 'default', reason: 'denied', instructions: INSTRUCTIONS, url: `${host.url}/inbox/` })
  t.notMatch(plain, /takeover/, 'no panel link in the push')
  t.notMatch(plain, action.takeover_url_secret.split('/').pop(), 'no panel secret')
  t.notMatch(plain, action.handoff_fence, 'no fence')
  t.notMatch(plain, fetched.tab_id, 'no tab id either: the inbox has the rest')
  t.throws(() => decrypt(push.body, dead), 'another subscription\'s keys cannot read it')

  // The dead subscription's push service said 410: it is gone, from memory and from disk.
  await until(() => service.requests.some((r) => r.path === '/push/gone-desktop'), 'the push to the dead subscription', 30_000)
  const removed = async (): Promise<boolean> => !(await onDisk()).some((e) => e.includes('gone'))
  const deadline = Date.now() + 10_000
  while (!(await removed()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100))
  t.same(await onDisk(), [`${service.url}/push/phone`], 'the 410 removed the subscription on disk')
  // The host logs the removal after the disk has it; its line crosses a pipe to reach us.
  await until(() => host.lines().some((l) => l.msg === 'push subscription is gone; removed'), 'the removal logged', 10_000)
  t.match(host.lines().find((l) => l.msg === 'push subscription is gone; removed'), { status: 410, push_service: service.url })
  t.notMatch(host.output(), /\/push\/(phone|gone)/, 'endpoints are not logged, only their origin')

  // The next handoff reaches only the live subscription.
  const before = service.requests.length
  await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/denied`, takeover: true }) })
  await until(() => service.requests.length > before, 'the second push', 30_000)
  await new Promise((resolve) => setTimeout(resolve, 500))
  t.same(service.requests.slice(before).map((r) => r.path), ['/push/phone'])
  const second = JSON.parse(decrypt(service.requests.at(-1)!.body, phone).toString('utf8'))
  t.match(second, { reason: 'denied', instructions: null, body: /denied/ })

  const metrics = await (await host.api('/metrics')).text()
  t.match(metrics, /afhttp_push_notifications_total\{result="sent"\} 2\n/, '/metrics counts the two pushes to the phone')
  t.match(metrics, /afhttp_push_notifications_total\{result="removed"\} 1\n/, 'and the gone subscription')
})
