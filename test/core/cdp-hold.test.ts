import t from 'tap'
import { heldCommandMessage, nestedCommand, pageEffectOf } from '../../src/core/cdp-hold.js'
import { CdpSessionMap } from '../../src/core/cdp-sessions.js'

t.test('page effects named by SPEC section 12 are effects', async (t) => {
  for (const m of ['Input.dispatchMouseEvent', 'Input.insertText', 'Page.navigate', 'Page.reload', 'Page.close', 'Emulation.setDeviceMetricsOverride', 'Emulation.setTouchEmulationEnabled']) {
    t.same(pageEffectOf(m, {}), { scope: 'session' }, m)
  }
  t.same(pageEffectOf('Target.closeTarget', { targetId: 'T1' }), { scope: 'target', targetId: 'T1' })
  t.same(pageEffectOf('Target.activateTarget', { targetId: 'T2' }), { scope: 'target', targetId: 'T2' })
  t.equal(pageEffectOf('Target.closeTarget', {}), undefined, 'no target named: nothing of ours to protect')
})

t.test('observations are not effects', async (t) => {
  for (const m of ['Runtime.evaluate', 'DOM.getDocument', 'DOM.querySelector', 'Page.captureScreenshot', 'Network.getCookies', 'Page.enable', 'Target.getTargets', 'Target.attachToTarget']) {
    t.equal(pageEffectOf(m, {}), undefined, m)
  }
  t.equal(pageEffectOf('Inputs.x', undefined), undefined, 'a domain is matched whole, not by prefix')
})

t.test('the refusal text starts with the error code', async (t) => {
  t.match(heldCommandMessage('Page.navigate', 'A person holds this tab.'), /^tab_under_human_control: Page\.navigate was refused\. A person holds this tab\.$/)
})

t.test('the session map follows attach and detach events', async (t) => {
  const map = new CdpSessionMap()
  const attached = JSON.stringify({ method: 'Target.attachedToTarget', params: { sessionId: 'S1', targetInfo: { targetId: 'T1', type: 'page' }, waitingForDebugger: false } })
  t.ok(CdpSessionMap.mayConcern(Buffer.from(attached)))
  t.notOk(CdpSessionMap.mayConcern(Buffer.from('{"id":3,"result":{"data":"AAAA"}}')), 'an ordinary answer is skipped without decoding')
  map.observe(attached)
  t.equal(map.targetOf('S1'), 'T1')
  t.equal(map.targetOf(undefined), undefined, 'the browser session is no page')
  map.observe('{"method":"Target.attachedToTarget", not json')
  map.observe(JSON.stringify({ method: 'Target.detachedFromTarget', params: { sessionId: 'S1', targetId: 'T1' } }))
  t.equal(map.targetOf('S1'), undefined)
})

t.test('a command nested in Target.sendMessageToTarget is unwrapped', async (t) => {
  const message = JSON.stringify({ id: 1, method: 'Input.insertText', params: { text: 'x' } })
  t.same(nestedCommand('Target.sendMessageToTarget', { targetId: 'T1', message }), { method: 'Input.insertText', params: { text: 'x' }, targetId: 'T1' })
  t.same(nestedCommand('Target.sendMessageToTarget', { sessionId: 'S1', message }), { method: 'Input.insertText', params: { text: 'x' }, sessionId: 'S1' })
  t.equal(nestedCommand('Target.sendMessageToTarget', { targetId: 'T1', message: 'not json' }), undefined)
  t.equal(nestedCommand('Runtime.evaluate', { message }), undefined)
})
