import t from 'tap'
import { addWarning, completionReached, newHandoff, summarize, type CompletionObservation } from '../../src/core/handoff.js'

const base = { fence: 'hf', tabId: 'tab', now: 0, holdMs: 600_000, startUrl: 'https://a.test/x', generation: 1 }
const obs = (o: Partial<CompletionObservation>): CompletionObservation => ({ url: 'https://a.test/x', navigated: false, challengePresent: false, targetReady: false, ...o })

t.test('completion: a challenge seen in this handoff is gone and the page navigated', async (t) => {
  const h = newHandoff({ ...base, challengeSeen: true })
  t.notOk(completionReached(h, obs({ challengePresent: true, navigated: true })), 'still there')
  t.notOk(completionReached(h, obs({})), 'gone, but the page never navigated')
  t.ok(completionReached(h, obs({ url: 'https://a.test/y' })), 'gone and the URL changed')
  t.ok(completionReached(h, obs({ navigated: true })), 'gone and the same URL reloaded (a solved challenge often does)')
})

t.test('completion: "nothing recognisable" counts only when a challenge was seen', async (t) => {
  const h = newHandoff({ ...base, challengeSeen: false })
  t.notOk(completionReached(h, obs({ navigated: true, url: 'https://a.test/y' })))
})

t.test('completion: the selector-stable target is ready; a selector that stops matching does not count', async (t) => {
  const h = newHandoff({ ...base, challengeSeen: false, readySelector: '#price' })
  t.ok(completionReached(h, obs({ targetReady: true })))
  t.notOk(completionReached(h, obs({ targetReady: false, navigated: true })))
})

t.test('summary: checks, warnings, auto_done', async (t) => {
  const h = newHandoff({ ...base, challengeSeen: true })
  t.match(summarize(h, 1), { state: 'open', will_check_again: true, checks_left: 12, auto_done: false })
  t.equal(summarize(h, 1).warnings, undefined)
  t.ok(addWarning(h, { code: 'takeover_selector_missed', message: 'm' }))
  t.notOk(addWarning(h, { code: 'takeover_selector_missed', message: 'again' }), 'once per code')
  t.same(summarize(h, 1).warnings, [{ code: 'takeover_selector_missed', message: 'm' }])
  h.checksLeft = 0
  t.equal(summarize(h, 1).will_check_again, false, 'no checks left: Done is the way to finish')
  const plain = newHandoff({ ...base, challengeSeen: false })
  t.equal(summarize(plain, 1).will_check_again, false, 'nothing to detect: no check is promised')
  t.match(summarize(h, 600_000), { state: 'expired', will_check_again: false, checks_left: 0 })
})

t.test('cookiesSetBetween: new or changed cookies by name, never values; deleted ones are not "set"', async (t) => {
  const { cookiesSetBetween } = await import('../../src/core/handoff.js')
  const c = (name: string, value: string, domain = 'a.test', path = '/'): { name: string, value: string, domain: string, path: string } => ({ name, value, domain, path })
  t.same(cookiesSetBetween([c('keep', '1'), c('gone', '1'), c('sid', 'old')], [c('keep', '1'), c('sid', 'new'), c('fresh', 'x'), c('keep', '1', 'b.test')]), ['fresh', 'keep', 'sid'])
  t.same(cookiesSetBetween([c('a', '1')], [c('a', '1')]), [])
})

t.test('summary: instructions, human note and outcome', async (t) => {
  const h = newHandoff({ fence: 'hf_x', tabId: 'tab_x', now: 0, holdMs: 1_000, startUrl: 'http://a.test/', generation: 1, challengeSeen: false, instructions: 'Sign in, then press Done.' })
  t.equal(summarize(h, 0).instructions, 'Sign in, then press Done.')
  t.notOk('outcome' in summarize(h, 0), 'no outcome while open')
  h.ended = { state: 'finished', reason: 'human_declined', at: 10 }
  h.humanNote = 'no access'
  h.outcome = { final_url: 'http://a.test/', navigated: false, cookies_set: ['sid'] }
  t.match(summarize(h, 10), { state: 'finished', finish_reason: 'human_declined', human_note: 'no access', outcome: { final_url: 'http://a.test/', navigated: false, cookies_set: ['sid'] } })
})
