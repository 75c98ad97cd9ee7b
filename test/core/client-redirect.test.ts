import t from 'tap'
import { FOLLOW_MAX_DELAY_S, refreshDelay, refreshesAtOnce, refreshTarget } from '../../src/core/client-redirect.js'

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

t.test('the address a refresh sends the page to, or none when it reloads itself', async t => {
  t.equal(refreshTarget('0; url=/next'), '/next')
  t.equal(refreshTarget("1;URL='/x?y=1'"), '/x?y=1')
  t.equal(refreshTarget('0, /plain'), '/plain', 'no url= before the address')
  t.equal(refreshTarget('0;url=https://example.test/a;b'), 'https://example.test/a;b', 'the rest of the value is the address')
  t.equal(refreshTarget('60'), '', 'a delay alone reloads the page')
  t.equal(refreshTarget('5;'), '', 'a delay and a separator alone reload the page')
})
