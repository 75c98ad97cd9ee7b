// The MCP tools' answers, made from the HTTP API's answers (docs/spec.md section 18).
import t from 'tap'
import { boundText, elicitationMessage, pageFromFetch, personNeeded, personOutcome, titleOf, withoutFence } from '../../src/mcp/page.js'
import type { FetchResult, HandoffSummary } from '../../src/client/index.js'
import { MCP_TITLE_CHARS_MAX } from '../../src/limits.js'

const SUMMARY: HandoffSummary = {
  tab_id: 'tab_aaaaaaaaaaaaaaaa', state: 'open', handoff_fence: 'fence-secret', expires_at: '2026-01-01T00:10:00.000Z',
  controller: 'agent', generation: 1, auto_done: false, will_check_again: true, checks_left: 3
}

t.test('boundText cuts at max_chars, never inside a surrogate pair', async (t) => {
  t.same(boundText('hello', 10), { text: 'hello', text_chars: 5, text_truncated: false })
  t.same(boundText('hello', 3), { text: 'hel', text_chars: 5, text_truncated: true })
  t.same(boundText('ab😀c', 3), { text: 'ab', text_chars: 5, text_truncated: true }, 'the emoji is dropped whole')
  t.same(boundText(undefined, 3), { text: '', text_chars: 0, text_truncated: false })
  t.same(boundText('abc', 0), { text: '', text_chars: 3, text_truncated: true })
})

t.test('titleOf reads and decodes the document title', async (t) => {
  t.equal(titleOf('<html><head><title>\n A &amp; B &#233;&#x263A; </title>'), 'A & B é☺')
  t.equal(titleOf('<title>a &#x110000; b &#0; c &#xD800;</title>'), 'a \uFFFD b \uFFFD c \uFFFD', 'references no character has are U+FFFD, as HTML decodes them')
  t.equal(titleOf('<p>no title</p>'), null)
  t.equal(titleOf('<title lang="en">A</title >b</title>'), 'A', 'a title with attributes ends at its first close')
  t.equal(titleOf('<titlefoo>x</title><title-bar>y</title-bar>'), null, 'another element whose name starts so is no title')
  t.equal(titleOf('<title>never closed'), null, 'an unclosed title is none')
  t.equal(titleOf(undefined), null)
  t.equal(titleOf(`<title>${'x'.repeat(1000)}</title>`)?.length, MCP_TITLE_CHARS_MAX, 'cut at the limit the schema states')
})

t.test('an agent never sees the fence', async (t) => {
  const s = withoutFence(SUMMARY)
  t.notOk(s && 'handoff_fence' in s)
  t.equal(withoutFence(null), null)
})

t.test('a fetch result becomes a page without secrets', async (t) => {
  const r: FetchResult = {
    ok: false, url: 'https://a.test/x', final_url: 'https://a.test/x', status: 403, page_kind: 'challenge',
    challenge: { provider: 'cloudflare', evidence: ['cf'] },
    readiness: { strategy: 'load', measured: false, satisfied: true, elapsed_ms: 1, target_ready: true, samples: 0 },
    artifacts: { html: '<title>Just a moment...</title>', text: 'Checking' }, warnings: [], tab_id: 'tab_aaaaaaaaaaaaaaaa', tab_retained: true,
    actions: [{ kind: 'human_takeover', reason: 'challenge', takeover_url_secret: 'http://h/takeover/SECRET', handoff_fence: 'fence-secret', expires_at: SUMMARY.expires_at }],
    trace: { timings: {} }
  }
  const page = pageFromFetch(r, undefined, SUMMARY)
  t.match(page, { ok: false, status: 403, page_kind: 'challenge', title: 'Just a moment...', text: 'Checking', tab_id: r.tab_id, handoff: { state: 'open' } })
  t.notOk(JSON.stringify(page).includes('SECRET') || JSON.stringify(page).includes('fence-secret'), 'neither the link nor the fence')
})

t.test('the link goes into a result only when asked for (a client without URL elicitation)', async (t) => {
  const action = { kind: 'human_takeover' as const, reason: 'challenge', takeover_url_secret: 'http://h/takeover/S', handoff_fence: 'f', expires_at: SUMMARY.expires_at }
  t.match(personNeeded(action, action.takeover_url_secret), { needed: true, panel_url: 'http://h/takeover/S', outcome: 'waiting', next: /wait_for_person/ })
  t.match(personNeeded(action, undefined), { needed: true, outcome: 'unavailable' })
  t.notOk('panel_url' in personNeeded(action, undefined))
  for (const how of ['declined', 'ended', 'waiting'] as const) t.notOk('panel_url' in personOutcome('challenge', SUMMARY, how), how)
  t.match(personOutcome('challenge', { ...SUMMARY, state: 'expired' }, 'ended'), { needed: true, outcome: 'expired' })
  t.match(personOutcome('challenge', { ...SUMMARY, state: 'finished' }, 'ended'), { needed: false, outcome: 'finished' })
})

t.test('the elicitation message: reason, instructions, site; never the link', async (t) => {
  const m = elicitationMessage({ reason: 'denied', instructions: '  Sign in with the ops account.  ', pageUrl: 'https://shop.example:8443/a?b=c' })
  t.match(m, /A page on shop\.example:8443 needs a person: the site refused access\./)
  t.match(m, /\nSign in with the ops account\.\n/)
  t.notMatch(m, /\?b=c/)
  t.match(elicitationMessage({ reason: 'something_new', pageUrl: 'not a url' }), /needs a person \(something_new\)/)
})
