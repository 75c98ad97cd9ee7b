// The pure parts of the operator inbox (docs/spec.md section 20): the operator token's configuration,
// the cookie's signature and expiry, what a list entry shows, the push payload, and that the
// token never reaches a logged URL.
import t from 'tap'
import { loadConfig, ConfigError } from '../../src/config.js'
import { issueOperatorSession, operatorSessionValid } from '../../src/inbox/operator-session.js'
import { endedEntry, inboxEntry, inUse, keepEnded, originOf, ENDED_KEEP_MAX, ENDED_KEEP_MS } from '../../src/inbox/listing.js'
import { handoffPayload, isGone } from '../../src/inbox/push-sender.js'
import { newHandoff } from '../../src/core/handoff.js'
import { redactUrl } from '../../src/logger.js'
import { pushSubject } from '../../src/inbox/operator-inbox.js'

const OP = 'operator-token-0123456789'

t.test('AFHTTP_OPERATOR_TOKEN must differ from the other tokens', async (t) => {
  const base = { AFHTTP_PROFILES_DIR: '/tmp/x', AFHTTP_BROWSER_MODE: 'headless', PATH: process.env.PATH }
  t.equal(loadConfig({ ...base, AFHTTP_OPERATOR_TOKEN: OP }).operatorToken, OP)
  t.equal(loadConfig(base).operatorToken, undefined)
  t.throws(() => loadConfig({ ...base, AFHTTP_TOKEN: OP, AFHTTP_OPERATOR_TOKEN: OP }), new ConfigError('AFHTTP_OPERATOR_TOKEN', 'must differ from AFHTTP_TOKEN'))
  t.throws(() => loadConfig({ ...base, AFHTTP_OPS_TOKEN: OP, AFHTTP_OPERATOR_TOKEN: OP }), new ConfigError('AFHTTP_OPERATOR_TOKEN', 'must differ from AFHTTP_OPS_TOKEN'))
  t.throws(() => loadConfig({ ...base, AFHTTP_OPERATOR_TOKEN: 'short' }), { name: 'ConfigError', variable: 'AFHTTP_OPERATOR_TOKEN' } as any)
  t.throws(() => loadConfig({ ...base, AFHTTP_PUSH_SUBJECT: 'http://example.com' }), { name: 'ConfigError', variable: 'AFHTTP_PUSH_SUBJECT' } as any)
  t.equal(pushSubject({ publicUrl: 'https://afhttp.example.com/r/2' }), 'https://afhttp.example.com')
  t.equal(pushSubject({ publicUrl: 'http://127.0.0.1:8787' }), 'mailto:afhttp@localhost')
  t.equal(pushSubject({ publicUrl: 'http://127.0.0.1:8787', pushSubject: 'mailto:ops@example.com' }), 'mailto:ops@example.com')
})

t.test('the operator cookie: signed under the token, expires, tamper-proof', async (t) => {
  const { value, expiresAt } = issueOperatorSession(OP, 1_000, 60_000)
  t.equal(expiresAt, 61_000)
  t.ok(operatorSessionValid(OP, value, 60_999))
  t.notOk(operatorSessionValid(OP, value, 61_000), 'expired')
  t.notOk(operatorSessionValid(`${OP}x`, value, 2_000), 'a rotated token signs everyone out')
  const [exp, nonce, mac] = value.split('.')
  t.notOk(operatorSessionValid(OP, `${(1e12).toString(36)}.${nonce}.${mac}`, 2_000), 'a stretched expiry is refused')
  // Replace the MAC's last character with one it is not (a fixed 'A' was no change one time in 64).
  t.notOk(operatorSessionValid(OP, `${exp}.${nonce}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`, 2_000), 'a changed MAC is refused')
  for (const bad of [undefined, '', 'a.b', 'x'.repeat(300), `${exp}.${nonce}`]) t.notOk(operatorSessionValid(OP, bad, 2_000), String(bad))
  t.not(issueOperatorSession(OP, 1_000, 60_000).value, value, 'each login its own value')
})

t.test('a list entry: text fields, the origin only, no secret', async (t) => {
  const h = newHandoff({ fence: 'fence-1', tabId: 'tab_1', now: 0, holdMs: 600_000, startUrl: 'https://shop.example/login?next=/secret', generation: 1, challengeSeen: true, instructions: 'Sign in', reason: 'challenge' })
  h.secretHash = 'hash'
  const e = inboxEntry(h, { id: 'tab_1', profile: 'p', url: 'https://shop.example/login?next=/secret', title: 'Login' }, 2, 1_000)
  t.same(e, { tab_id: 'tab_1', profile: 'p', reason: 'challenge', instructions: 'Sign in', title: 'Login', origin: 'https://shop.example', opened_at: new Date(0).toISOString(), expires_at: new Date(600_000).toISOString(), viewers: 2, state: 'open', controller: 'agent' })
  t.notMatch(JSON.stringify(e), /fence|hash|secret/)
  const plain = newHandoff({ fence: 'f', tabId: 't', now: 0, holdMs: 1_000, startUrl: 'about:blank', generation: 1, challengeSeen: false })
  t.match(inboxEntry(plain, { id: 't', profile: 'p', url: 'about:blank', title: null }, 0, 0), { reason: 'requested', instructions: null, origin: null })
  t.equal(originOf('data:text/html,hi'), null)
  t.equal(originOf('not a url'), null)
  t.ok(inUse({ controller: 'human' }))
  t.notOk(inUse({ controller: 'human_disconnected' }), 'a dropped person leaves it takeable')
  t.notOk(inUse({ controller: 'agent' }))
})

t.test('ended handoffs: newest first, bounded, forgotten after a while', async (t) => {
  const at = (i: number): ReturnType<typeof endedEntry> => {
    const h = newHandoff({ fence: `f${i}`, tabId: `tab_${i}`, now: i, holdMs: 1_000_000, startUrl: 'https://a.example/', generation: 1, challengeSeen: false })
    h.ended = { state: 'finished', reason: 'human_done', at: i * 1000 }
    return endedEntry(h, 'p', null, 'https://a.example/x', i * 1000)
  }
  t.match(at(1), { state: 'finished', finish_reason: 'human_done', origin: 'https://a.example', ended_at: new Date(1000).toISOString() })
  let list: ReturnType<typeof keepEnded> = []
  for (let i = 1; i <= ENDED_KEEP_MAX + 5; i++) list = keepEnded(list, at(i), i * 1000)
  t.equal(list.length, ENDED_KEEP_MAX)
  t.equal(list[0].tab_id, `tab_${ENDED_KEEP_MAX + 5}`, 'newest first')
  t.equal(keepEnded(list, at(ENDED_KEEP_MAX + 5), (ENDED_KEEP_MAX + 5) * 1000).length, ENDED_KEEP_MAX, 'one entry per handoff')
  t.same(keepEnded(list, undefined, (ENDED_KEEP_MAX + 6) * 1000 + ENDED_KEEP_MS), [], 'forgotten')
})

t.test('the push payload carries no secret; 404 and 410 mean gone', async (t) => {
  const p = handoffPayload({ profile: 'shop', reason: 'denied', instructions: null }, 'https://h.example/inbox/')
  t.same(p, { type: 'handoff.opened', title: 'afhttp: a person is needed on shop', body: 'A page needs a person (denied).', profile: 'shop', reason: 'denied', instructions: null, url: 'https://h.example/inbox/' })
  t.equal(handoffPayload({ profile: 's', reason: 'r', instructions: 'Do it' }, 'u').body, 'Do it')
  t.ok(isGone(410))
  t.ok(isGone(404))
  t.notOk(isGone(429))
  t.notOk(isGone(undefined))
})

t.test('the operator token is cut from logged URLs', async (t) => {
  t.equal(redactUrl(`/inbox/login?token=${OP}`), '/inbox/login?token=[redacted]')
  t.equal(redactUrl(`/inbox/login?a=1&token=${OP}&b=2`), '/inbox/login?a=1&token=[redacted]&b=2')
  t.equal(redactUrl(`/inbox/login?%74oken=${OP}`), '/inbox/login?token=[redacted]')
  t.equal(redactUrl('/inbox/api/handoffs'), '/inbox/api/handoffs')
  t.equal(redactUrl('/takeover/abc?token=x'), '/takeover/[redacted]?token=[redacted]')
})
