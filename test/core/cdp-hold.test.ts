import t from 'tap'
import { DeferredEmulations, heldCommandMessage, isDeferredEmulation, nestedCommand, pageEffectOf } from '../../src/core/cdp-hold.js'
import { CdpSessionMap } from '../../src/core/cdp-sessions.js'

t.test('page effects named by docs/spec.md section 12 are effects', async (t) => {
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

t.test('emulations on a held tab wait for the hold to end (docs/spec.md section 17)', async (t) => {
  for (const m of ['Emulation.setDeviceMetricsOverride', 'Emulation.setTouchEmulationEnabled', 'Emulation.clearDeviceMetricsOverride', 'Emulation.resetPageScaleFactor', 'Emulation.setFocusEmulationEnabled']) t.ok(isDeferredEmulation(m), m)
  for (const m of ['Emulation.canEmulate', 'Emulation.setVirtualTimePolicy', 'Input.dispatchMouseEvent', 'Page.navigate', 'Emulation.settle']) t.notOk(isDeferredEmulation(m), m)
  const d = new DeferredEmulations()
  d.add('T1', { sessionId: 'S1', method: 'Emulation.setDeviceMetricsOverride', params: { width: 800 } })
  d.add('T1', { sessionId: 'S1', method: 'Emulation.setTouchEmulationEnabled', params: { enabled: false } })
  d.add('T1', { sessionId: 'S1', method: 'Emulation.setDeviceMetricsOverride', params: { width: 640 } })
  d.add('T2', { sessionId: 'S2', method: 'Emulation.setDeviceMetricsOverride', params: { width: 1 } })
  d.add('T3', { sessionId: 'S3', method: 'Emulation.setDeviceMetricsOverride', params: { width: 2 } })
  t.equal(d.size, 4, 'a later same command replaces the earlier one')
  t.same(d.due(() => true, () => true), [], 'nothing while every tab is held')
  const due = d.due((target) => target !== 'T1', (session) => session !== 'S3')
  t.same(due.map((c) => [c.method, (c.params as { width?: number }).width]), [['Emulation.setTouchEmulationEnabled', undefined], ['Emulation.setDeviceMetricsOverride', 640]], 'in the order asked, the latest value')
  t.equal(d.size, 1, 'the gone session is forgotten; the still-held one waits')
  t.same(d.due(() => false, () => true).map((c) => c.sessionId), ['S2'])
})
