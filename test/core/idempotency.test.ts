import t from 'tap'
import { ManualClock } from '../../src/core/clock.js'
import { IDEMPOTENCY_KEY_RE, IDEMPOTENCY_TTL_MS, IdempotencyStore, requestFingerprint } from '../../src/core/idempotency.js'

t.test('the fingerprint ignores key order and undefined fields, not values', async (t) => {
  t.equal(requestFingerprint({ a: 1, b: { c: [1, 2], d: 'x' } }), requestFingerprint({ b: { d: 'x', c: [1, 2] }, a: 1, e: undefined }))
  t.not(requestFingerprint({ a: 1 }), requestFingerprint({ a: 2 }))
  t.not(requestFingerprint({ a: [1, 2] }), requestFingerprint({ a: [2, 1] }))
})

t.test('keys are 1 to 128 printable characters', async (t) => {
  t.ok(IDEMPOTENCY_KEY_RE.test('k'))
  t.ok(IDEMPOTENCY_KEY_RE.test('x'.repeat(128)))
  t.notOk(IDEMPOTENCY_KEY_RE.test(''))
  t.notOk(IDEMPOTENCY_KEY_RE.test('x'.repeat(129)))
  t.notOk(IDEMPOTENCY_KEY_RE.test('tab\there'))
  t.notOk(IDEMPOTENCY_KEY_RE.test('é'))
})

t.test('a repeat waits for the first answer and later repeats get the kept copy', async (t) => {
  const store = new IdempotencyStore(new ManualClock())
  const first = store.admit('k1', 'f1')
  t.equal(first.kind, 'run')
  const waiting = store.admit('k1', 'f1')
  t.match(waiting, { kind: 'replay', live: true })
  t.same(store.admit('k1', 'f2'), { kind: 'mismatch' }, 'same key, other request')
  if (first.kind !== 'run' || waiting.kind !== 'replay') throw new Error('unexpected admission')
  first.settle({ status: 200, body: { secret: 's', tab: 'T' } }, { status: 200, body: { tab: 'T' } })
  t.same(await waiting.answer, { status: 200, body: { secret: 's', tab: 'T' } }, 'a waiter gets the live answer')
  const later = store.admit('k1', 'f1')
  t.match(later, { kind: 'replay', live: false })
  if (later.kind === 'replay') t.same(await later.answer, { status: 200, body: { tab: 'T' } }, 'a later repeat gets the kept copy')
})

t.test('a forgotten run fails its waiters and lets a retry run again', async (t) => {
  const store = new IdempotencyStore(new ManualClock())
  const first = store.admit('k', 'f')
  const waiting = store.admit('k', 'f')
  if (first.kind !== 'run' || waiting.kind !== 'replay') throw new Error('unexpected admission')
  first.forget(new Error('browser down'))
  await t.rejects(waiting.answer, /browser down/)
  t.equal(store.admit('k', 'f').kind, 'run')
})

t.test('keys expire after 24 hours', async (t) => {
  const clock = new ManualClock()
  const store = new IdempotencyStore(clock)
  const a = store.admit('k', 'f')
  if (a.kind === 'run') a.settle({ status: 200, body: 1 })
  clock.advance(IDEMPOTENCY_TTL_MS - 1)
  t.equal(store.admit('k', 'f').kind, 'replay')
  clock.advance(1)
  t.equal(store.admit('k', 'other').kind, 'run', 'after 24 h the key is free')
})

t.test('the store is bounded in keys and bytes, oldest out first', async (t) => {
  const store = new IdempotencyStore(new ManualClock(), { ttlMs: IDEMPOTENCY_TTL_MS, maxKeys: 3, maxBytes: 100 })
  for (const k of ['a', 'b', 'c', 'd']) {
    const r = store.admit(k, 'f')
    if (r.kind === 'run') r.settle({ status: 200, body: k })
  }
  t.equal(store.size, 3)
  t.equal(store.admit('a', 'x').kind, 'run', 'the oldest key was dropped')
  const big = store.admit('big', 'f')
  if (big.kind === 'run') big.settle({ status: 200, body: 'z'.repeat(90) })
  t.equal(store.admit('big', 'f').kind, 'replay', 'the newest answer is kept even when it fills the budget')
  t.equal(store.admit('c', 'x').kind, 'run', 'older answers made room for it')
})
