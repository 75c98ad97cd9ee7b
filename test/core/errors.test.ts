import t from 'tap'
import { readFile } from 'node:fs/promises'
import { AfhttpError, ERRORS } from '../../src/errors.js'

// docs/spec.md section 5: stable codes, extend never rename.
const SPEC_CODES = ['unauthorized', 'invalid_request', 'payload_too_large', 'url_not_allowed', 'profile_not_found',
  'profile_metadata_invalid', 'profile_metadata_write_failed', 'profile_locked', 'backend_unavailable', 'tab_not_found',
  'tab_under_human_control', 'navigation_failed', 'navigation_timeout', 'handoff_not_found', 'handoff_fence_stale',
  'handoff_expired', 'handoff_secret_invalid', 'handoff_capacity', 'takeover_unavailable', 'anchor_guard_failed', 'internal',
  // docs/spec.md section 21
  'proxy_unreachable']

t.test('every SPEC code is in the table', async (t) => {
  for (const code of SPEC_CODES) t.ok(code in ERRORS, code)
})

t.test('docs/errors.md lists every code (regenerate with npm run docs:errors)', async (t) => {
  const doc = await readFile(new URL('../../docs/errors.md', import.meta.url), 'utf8')
  for (const [code, e] of Object.entries(ERRORS)) t.match(doc, `| \`${code}\` | ${e.status} |`, code)
})

t.test('the envelope carries code, message, retryable, details and a retained tab', async (t) => {
  const plain = new AfhttpError('tab_not_found').toEnvelope()
  t.same(plain, { error: { code: 'tab_not_found', message: ERRORS.tab_not_found.message, retryable: false, details: {} } })
  const kept = new AfhttpError('navigation_timeout', 'slow', { trace: { retained_tab_id: 'tab_x' } }).toEnvelope()
  t.same(kept.trace, { retained_tab_id: 'tab_x' })
  t.equal(kept.error.retryable, true)
})
