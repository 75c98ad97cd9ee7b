import t from 'tap'
import type { Recognition } from '../../src/core/challenge.js'
import { decideReclaim, type ReclaimEvidence, type Verdict } from '../../src/core/verdict.js'

const CHALLENGE: Recognition = { page_kind: 'challenge', challenge: { provider: 'cloudflare', evidence: ['header cf-mitigated: challenge'] } }

const good = (over: Partial<ReclaimEvidence> = {}): ReclaimEvidence => ({
  status: 200,
  hasVisibleText: true,
  documentEmpty: false,
  recognition: { page_kind: 'content' },
  requestedCaptures: ['html', 'text'],
  failedCaptures: [],
  ...over
})

const UNVERIFIED_WARNING = 'takeover_content_unverified'
const codes = (v: Verdict): string[] => v.warnings.map(w => w.code)

t.test('all five pieces of evidence hold: ok and reclaim', async t => {
  t.same(decideReclaim(good()), { ok: true, reclaim: true, warnings: [] })
  t.same(decideReclaim(good({ status: 204 })), { ok: true, reclaim: true, warnings: [] }, 'any 2xx')
  t.same(decideReclaim(good({ readiness: { measured: true, satisfied: true, target_ready: true } })), { ok: true, reclaim: true, warnings: [] }, 'with satisfied readiness')
  t.same(decideReclaim(good({ readiness: { measured: false, satisfied: false, target_ready: false } })), { ok: true, reclaim: true, warnings: [] }, 'unmeasured readiness is not evidence against')
})

t.test('each missing piece of evidence alone refuses, with its reason', async t => {
  const cases: Array<[string, Partial<ReclaimEvidence>, Verdict['reason']]> = [
    ['a recognized challenge', { recognition: CHALLENGE }, 'challenge'],
    ['a challenge object without page_kind', { recognition: { challenge: { provider: 'generic', evidence: ['x'] } } }, 'challenge'],
    ['403', { status: 403, recognition: { page_kind: 'denied' } }, 'denied'],
    ['a denial page at 200', { recognition: { page_kind: 'denied' } }, 'denied'],
    ['404', { status: 404, recognition: { page_kind: 'http_error' } }, 'http_error'],
    ['500', { status: 500, recognition: { page_kind: 'http_error' } }, 'http_error'],
    ['an empty document', { documentEmpty: true }, 'empty'],
    ['no visible text', { hasVisibleText: false }, 'empty'],
    ['recognized as empty', { recognition: { page_kind: 'empty' } }, 'empty'],
    ['a failed capture', { failedCaptures: ['screenshot'], requestedCaptures: ['html', 'text', 'screenshot'] }, 'capture_failed'],
    ['readiness timed out', { readiness: { measured: true, satisfied: false, target_ready: false } }, 'readiness_unsatisfied'],
    ['readiness satisfied without a ready target', { readiness: { measured: true, satisfied: true, target_ready: false } }, 'readiness_unsatisfied'],
    ['target ready but not satisfied', { readiness: { measured: true, satisfied: false, target_ready: true } }, 'readiness_unsatisfied'],
    ['content the host cannot classify', { recognition: {} }, 'content_unverified'],
    ['no status', { status: null }, 'content_unverified'],
    ['a 3xx document', { status: 304 }, 'content_unverified'],
    ['a 1xx status', { status: 101 }, 'content_unverified']
  ]
  for (const [name, over, reason] of cases) {
    const v = decideReclaim(good(over))
    t.equal(v.ok, false, `${name}: not ok`)
    t.equal(v.reclaim, false, `${name}: not reclaimed`)
    t.equal(v.reason, reason, `${name}: reason ${reason}`)
  }
})

t.test('the status is evidence on its own, even if the recognition disagrees', async t => {
  t.equal(decideReclaim(good({ status: 429 })).reason, 'denied')
  t.equal(decideReclaim(good({ status: 451 })).reason, 'denied')
  t.equal(decideReclaim(good({ status: 502 })).reason, 'http_error')
  t.equal(decideReclaim(good({ status: 404, recognition: CHALLENGE })).reason, 'challenge', 'a challenge still outranks the status')
})

t.test('takeover_content_unverified: when the page is neither content nor a challenge', async t => {
  const unknown = decideReclaim(good({ recognition: {} }))
  t.same(codes(unknown), [UNVERIFIED_WARNING])
  t.match(unknown.warnings[0].message, /status 200/)
  t.match(decideReclaim(good({ recognition: {}, status: null })).warnings[0].message, /status unknown/)
  t.same(codes(decideReclaim(good({ recognition: {}, failedCaptures: ['text'] }))), [UNVERIFIED_WARNING], 'kept beside a higher-priority reason')
  t.same(codes(decideReclaim(good({ recognition: CHALLENGE }))), [], 'not for a challenge')
  t.same(codes(decideReclaim(good({ recognition: { page_kind: 'denied' } }))), [], 'not for a classified page')
  t.same(codes(decideReclaim(good({ status: 304 }))), [], 'not when recognition said content (the status is the reason)')
})

t.test('a satisfied selector-stable target verifies a page the heuristics could not classify', async t => {
  const ready = { measured: true, satisfied: true, target_ready: true }
  t.same(decideReclaim(good({ recognition: {}, readiness: ready })), { ok: true, reclaim: true, warnings: [] })
  const unready = decideReclaim(good({ recognition: {}, readiness: { ...ready, target_ready: false } }))
  t.equal(unready.reason, 'readiness_unsatisfied')
  t.same(codes(unready), [UNVERIFIED_WARNING])
  t.equal(decideReclaim(good({ recognition: {}, readiness: ready, status: null })).reason, 'content_unverified', 'but not a page without a 2xx status')
})

// Every combination of the evidence, against a direct reading of SPEC §6.
t.test('exhaustive: ok exactly when all evidence holds; reason by priority', async t => {
  const statuses = [200, 204, 302, null, 401, 403, 429, 404, 500, 503]
  const recognitions: Recognition[] = [{ page_kind: 'content' }, {}, CHALLENGE, { page_kind: 'denied' }, { page_kind: 'http_error' }, { page_kind: 'empty' }]
  const readinesses = [undefined, ...[false, true].flatMap(measured => [false, true].flatMap(satisfied => [false, true].map(targetReady => ({ measured, satisfied, target_ready: targetReady }))))]
  let combos = 0
  for (const status of statuses) {
    for (const recognition of recognitions) {
      for (const hasVisibleText of [true, false]) {
        for (const documentEmpty of [false, true]) {
          for (const failedCaptures of [[], ['html']]) {
            for (const readiness of readinesses) {
              const e: ReclaimEvidence = { status, hasVisibleText, documentEmpty, recognition, requestedCaptures: ['html', 'text'], failedCaptures, readiness }
              const is2xx = status !== null && status >= 200 && status < 300
              const readinessOk = readiness === undefined || !readiness.measured || (readiness.satisfied && readiness.target_ready)
              const verified = recognition.page_kind === 'content' || (readiness?.measured === true && readinessOk)
              const failing = {
                challenge: recognition.challenge !== undefined,
                denied: recognition.page_kind === 'denied' || [401, 403, 407, 429, 451].includes(status ?? 0),
                http_error: recognition.page_kind === 'http_error' || (status ?? 0) >= 400,
                empty: recognition.page_kind === 'empty' || !hasVisibleText || documentEmpty,
                capture_failed: failedCaptures.length > 0,
                readiness_unsatisfied: !readinessOk,
                content_unverified: !is2xx || !verified
              }
              const expectedReason = Object.entries(failing).find(([, failed]) => failed)?.[0]
              const v = decideReclaim(e)
              combos++
              if (v.ok !== (expectedReason === undefined) || v.reclaim !== v.ok || v.reason !== expectedReason) {
                t.fail('verdict disagrees with SPEC §6', { e, v, expectedReason })
                return
              }
              const warned = codes(v).includes(UNVERIFIED_WARNING)
              if (warned !== (recognition.page_kind === undefined && !verified)) {
                t.fail('takeover_content_unverified disagrees', { e, v })
                return
              }
            }
          }
        }
      }
    }
  }
  t.equal(combos, statuses.length * recognitions.length * 2 * 2 * 2 * readinesses.length)
  t.pass(`${combos} combinations agree`)
})
