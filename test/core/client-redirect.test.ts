import t from 'tap'
import { FOLLOW_MAX_DELAY_S, refreshDelay, refreshesAtOnce } from '../../src/core/client-redirect.js'

t.test('a refresh value is read the way browsers read it: its leading number', async (t) => {
  t.equal(refreshDelay('0'), 0)
  t.equal(refreshDelay('0; url=/next'), 0)
  t.equal(refreshDelay('  1;URL=\'https://example.test/\''), 1)
  t.equal(refreshDelay('5, url=/later'), 5)
  t.equal(refreshDelay('0.5;url=/x'), 0.5)
  t.equal(refreshDelay('.5'), 0.5)
  t.equal(refreshDelay('url=/x'), undefined, 'no delay, no refresh')
  t.equal(refreshDelay(''), undefined)
  t.equal(refreshDelay(null), undefined)
  t.equal(refreshDelay(undefined), undefined)
})

t.test('only a refresh due at once is a redirect', async (t) => {
  t.equal(FOLLOW_MAX_DELAY_S, 1)
  t.ok(refreshesAtOnce('0; url=/next'))
  t.ok(refreshesAtOnce('1'))
  t.notOk(refreshesAtOnce('2; url=/next'), 'a countdown is a page to read')
  t.notOk(refreshesAtOnce('390'), 'a page that refreshes itself now and then')
  t.notOk(refreshesAtOnce('url=/x'))
  t.notOk(refreshesAtOnce(undefined))
})
