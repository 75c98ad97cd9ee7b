// The two panel links of a handoff: one usable link per mode, each usable once, and a dead link
// says why it is dead (each reason has its own wording on the 410 page).
import t from 'tap'
import { PanelLinks } from '../../src/handoffs/panel-links.js'
import { ClosedSummaries } from '../../src/handoffs/closed-summaries.js'
import { newHandoff, summarize } from '../../src/core/handoff.js'

const open = (now = 0) => newHandoff({ fence: 'f', tabId: 't1', now, holdMs: 1000, startUrl: 'http://127.0.0.1/', generation: 1, challengeSeen: false })

t.test('a control link works once, then answers used', async (t) => {
  const links = new PanelLinks()
  const h = open()
  const secret = links.issue(h, 'control')
  t.equal(links.problem(secret, 10), undefined)
  t.equal(links.mode(secret), 'control')
  links.consume(secret, h)
  t.equal(links.problem(secret, 10), 'used')
  t.equal(links.peek(secret), undefined, 'a spent secret no longer finds its handoff')
})

t.test('a second mint of a mode revokes the unused link of that mode only', async (t) => {
  const links = new PanelLinks()
  const h = open()
  const control = links.issue(h, 'control')
  const view = links.issue(h, 'view')
  const control2 = links.issue(h, 'control')
  t.equal(links.problem(control, 10), 'revoked')
  t.equal(links.problem(control2, 10), undefined)
  t.equal(links.problem(view, 10), undefined, 'the view link still works')
  t.equal(links.mode(view), 'view')
  links.consume(view, h)
  t.equal(links.problem(view, 10), 'used')
  t.equal(links.problem(control2, 10), undefined, 'watching does not spend the control link')
})

t.test('expired and ended handoffs, and unknown secrets', async (t) => {
  const links = new PanelLinks()
  const h = open()
  const secret = links.issue(h, 'control')
  t.equal(links.problem(secret, 1000), 'expired')
  h.ended = { state: 'finished', reason: 'human_done', at: 5 }
  t.equal(links.problem(secret, 10), 'finished')
  links.revoke(h)
  t.equal(links.problem(secret, 10), 'revoked')
  t.equal(links.problem('never-minted', 10), 'unknown')
})

t.test('closed-tab summaries are bounded, newest kept', async (t) => {
  const kept = new ClosedSummaries(2)
  const h = open()
  for (const id of ['a', 'b', 'c']) kept.keep(id, summarize({ ...h, tabId: id }, 10))
  t.equal(kept.get('a'), undefined, 'the oldest is forgotten')
  t.equal(kept.get('c')?.tab_closed, true)
  t.equal(kept.get('b')?.tab_id, 'b')
})
