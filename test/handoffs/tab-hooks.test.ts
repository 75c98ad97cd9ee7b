// The tab inventory's side of a handoff, on fakes (test/handoffs/fakes.ts): a held tab and its
// popups refuse agent page effects and the reaper, the inventory shows who controls them, a
// closed tab revokes its handoff, and a popup joins its opener's handoff (docs/spec.md section 7).
import t from 'tap'
import { wireHandoffsToTabs } from '../../src/handoffs/tab-hooks.js'
import { afhttpErrorOf, fakeRegistry, type FakeTab } from './fakes.js'

async function heldWithPopup () {
  const fakes = fakeRegistry()
  const { registry, tabs, lifecycle } = fakes
  wireHandoffsToTabs(registry, tabs, lifecycle)
  const opener = tabs.add('t1', 'https://shop.example/cart', 'work')
  const minted = await registry.mint('t1')
  const popup: FakeTab = tabs.add('t2', 'https://id.example/signin', 'work')
  popup.fake.openerTarget = opener.page.target()
  lifecycle.tell('tab.opened', 't2', { url: 'https://id.example/signin?state=secret', origin: 'adopted', opener_tab_id: 't1' })
  return { ...fakes, opener, popup, minted }
}

t.test('a popup of a held tab joins its handoff: told, audited, and guarded with it', async (t) => {
  const { registry, tabs, lifecycle, opener, popup, minted } = await heldWithPopup()
  t.same(lifecycle.of('handoff.popup_opened').map((x) => [x.where, x.data]), [
    [{ tab_id: 't1', profile: 'work' }, { handoff_fence: minted.handoff_fence, popup_tab_id: 't2', origin: 'https://id.example' }]
  ])
  popup.fake.navigate('https://id.example/done')
  t.same(lifecycle.of('handoff.navigated').at(-1)?.data, { handoff_fence: minted.handoff_fence, origin: 'https://id.example', popup_tab_id: 't2' })
  t.equal(registry.heldBy('t2'), 't1')
  t.same(registry.popupsOf('t1').map((x) => x.id), ['t2'])

  const [guard] = tabs.actGuards
  const onTab = await afhttpErrorOf(() => guard(opener))
  t.equal(onTab.code, 'tab_under_human_control')
  t.equal(onTab.message, `A person holds this tab until ${minted.expires_at} (state open); observe with snapshot or finish the handoff.`)
  t.equal(onTab.details.opener_tab_id, undefined)
  const onPopup = await afhttpErrorOf(() => guard(popup))
  t.equal(onPopup.message, `A person holds this popup's opener t1 until ${minted.expires_at} (state open); observe with snapshot or finish the handoff.`)
  t.equal(onPopup.details.opener_tab_id, 't1')

  const [protector] = tabs.protectors
  t.equal(protector(opener), 'open handoff')
  t.equal(protector(popup), 'popup of t1, whose handoff is open')

  const [describe] = tabs.describers
  t.same(describe(popup), { opener_tab_id: 't1', controller: 'agent' })
  registry.control('t1', { type: 'take', viewerId: 'v1' })
  t.same(describe(popup), { opener_tab_id: 't1', controller: 'human' }, 'a popup shows its opener\'s controller')
  const view = describe(opener)
  t.equal(view.controller, 'human')
  t.equal(view.handoff?.handoff_fence, minted.handoff_fence)

  registry.finish('t1', minted.handoff_fence, 'driver')
  await registry.settled('t1')
  t.doesNotThrow(() => { guard(opener); guard(popup) }, 'an ended handoff guards nothing')
  t.equal(protector(popup), undefined)
  t.equal(describe(opener).controller, 'agent', 'an ended handoff shows the agent in control')
  t.same(describe(popup), { opener_tab_id: 't1' })
})

t.test('a popup opened by a tab that is not held joins nothing', async (t) => {
  const { registry, tabs, lifecycle } = fakeRegistry()
  wireHandoffsToTabs(registry, tabs, lifecycle)
  const opener = tabs.add('t1')
  const popup = tabs.add('t2')
  popup.fake.openerTarget = opener.page.target()
  lifecycle.tell('tab.opened', 't2', { url: 'https://id.example/', origin: 'adopted', opener_tab_id: 't1' })
  t.same(lifecycle.told, [])
  t.equal(tabs.protectors[0](popup), undefined)
})

t.test('a tab that closes revokes its handoff; a driver that did not close it still reads how it ended', async (t) => {
  const { registry, tabs, lifecycle } = fakeRegistry()
  wireHandoffsToTabs(registry, tabs, lifecycle)
  tabs.add('t1', 'https://a.example/', 'work')
  tabs.add('t2', 'https://b.example/', 'work')
  await registry.mint('t1')
  await registry.mint('t2')

  tabs.close('t1', 'page_closed')
  tabs.close('t2', 'api')
  t.same(lifecycle.of('handoff.revoked').map((x) => [x.where.tab_id, x.where.profile, x.data.finish_reason, x.data.by]), [
    ['t1', 'work', 'tab_closed', 'host'],
    ['t2', 'work', 'tab_closed', 'driver']
  ], 'told at once: there is no page left to read')
  await registry.settled('t1')
  await new Promise((resolve) => setImmediate(resolve))
  t.equal(registry.current('t1'), undefined, 'the record is gone once its ending settled')
  t.match(registry.closedSummary('t1'), { state: 'revoked', finish_reason: 'tab_closed', tab_closed: true })
  t.equal(registry.closedSummary('t2'), undefined, 'after its own DELETE the driver knows')

  tabs.add('t3')
  await registry.mint('t3')
  const browserGone = tabs.find('t3') as FakeTab
  browserGone.fake.connected = false
  tabs.close('t3', 'browser_lost')
  t.equal(lifecycle.of('handoff.revoked').at(-1)?.data.finish_reason, 'browser_lost')
})
