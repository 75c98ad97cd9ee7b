// The panel's outbox (docs/spec.md section 17): input made before the panel may send it waits, in
// order, and goes once it can — stamped then; what can never go is refused with a count.
import t from 'tap'
import { HELD_MAX, Outbox, type Gate } from '../../src/panel-page/outbox.js'
import type { PanelInput } from '../../src/panel/messages.js'

function harness (): { gate: { now: Gate }, sent: PanelInput[], refused: Array<[number, boolean]>, box: Outbox } {
  const gate = { now: 'hold' as Gate }
  const sent: PanelInput[] = []
  const refused: Array<[number, boolean]> = []
  const box = new Outbox({ gate: () => gate.now, deliver: (m) => sent.push(m), refused: (n, full) => refused.push([n, full]) })
  return { gate, sent, refused, box }
}
const key = (k: 'Enter' | 'Tab'): PanelInput => ({ t: 'key', type: 'down', key: k, mods: 0 })

t.test('held while the panel cannot know, sent in order once it can', async (t) => {
  const { gate, sent, refused, box } = harness()
  let laidOut = false
  box.push(() => laidOut ? { t: 'mouse', type: 'down', x: 1, y: 2, button: 'left', clicks: 1, mods: 0 } : undefined)
  box.push(key('Enter'))
  t.equal(box.held, 2, 'both wait while control is not known')
  gate.now = 'send'
  box.flush()
  t.same(sent, [], 'the press waits for the layout, and the key behind it keeps its place')
  laidOut = true
  box.flush()
  t.same(sent.map((m) => m.t), ['mouse', 'key'], 'then both, in order')
  t.equal(box.held, 0)
  box.push(key('Tab'))
  t.same(sent.length, 3, 'once the way is open, input goes at once')
  t.same(refused, [])
  t.equal(box.heldCount, 2)
})

t.test('refused with a count, never silently, when it can never go', async (t) => {
  const { gate, sent, refused, box } = harness()
  box.push(key('Enter'))
  box.push(key('Tab'))
  gate.now = 'refuse'
  box.flush()
  t.same(refused, [[2, false]], 'both waiting inputs are reported')
  box.push(key('Enter'))
  t.same(refused, [[2, false], [1, false]], 'and a later one at once')
  t.same(sent, [])
  t.equal(box.refusedCount, 3)
})

t.test('a press that turns out to be outside the picture sends nothing', async (t) => {
  const { gate, sent, box } = harness()
  gate.now = 'send'
  box.push(() => null)
  box.push(key('Enter'))
  t.same(sent.map((m) => m.t), ['key'])
})

t.test('a bounded wait: past HELD_MAX, input is refused as too long a wait', async (t) => {
  const { refused, box } = harness()
  for (let i = 0; i < HELD_MAX + 2; i++) box.push(key('Tab'))
  t.equal(box.held, HELD_MAX)
  t.same(refused, [[1, true], [1, true]])
})
