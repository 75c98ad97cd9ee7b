import t from 'tap'
import {
  acceptsInput, applyControl, HeldInput, initialControl,
  type ControlEvent, type ControlState, type Effect, type RefusalReason
} from '../../src/core/control.js'

// A holds (or held) control in the non-agent states; B is any other viewer.
const GEN = 5
const STATES = {
  agent: { controller: 'agent', generation: GEN, holder: null, finished: false },
  humanA: { controller: 'human', generation: GEN, holder: 'A', finished: false },
  disconnectedA: { controller: 'human_disconnected', generation: GEN, holder: 'A', finished: false },
  finished: { controller: 'agent', generation: GEN, holder: null, finished: true }
} satisfies Record<string, ControlState>

const EVENTS = {
  takeA: { type: 'take', viewerId: 'A' },
  takeB: { type: 'take', viewerId: 'B' },
  releaseA: { type: 'release', viewerId: 'A' },
  releaseB: { type: 'release', viewerId: 'B' },
  disconnectA: { type: 'disconnect', viewerId: 'A' },
  disconnectB: { type: 'disconnect', viewerId: 'B' },
  finishByDriver: { type: 'finish' },
  finishA: { type: 'finish', viewerId: 'A' },
  finishB: { type: 'finish', viewerId: 'B' }
} satisfies Record<string, ControlEvent>

type Expected =
  | { to: Pick<ControlState, 'controller' | 'holder' | 'finished'>; effects: Effect[] }
  | 'unchanged'
  | { refused: RefusalReason }

const LEAVE: Effect[] = ['drop_queued_input', 'release_held_input']
const agent = { controller: 'agent', holder: null, finished: false } as const
const humanBy = (holder: string) => ({ controller: 'human', holder, finished: false }) as const
const done = { controller: 'agent', holder: null, finished: true } as const

// The SPEC §7 rules written out for every state × event pair.
const TABLE: Record<keyof typeof STATES, Record<keyof typeof EVENTS, Expected>> = {
  agent: {
    takeA: { to: humanBy('A'), effects: [] },
    takeB: { to: humanBy('B'), effects: [] },
    releaseA: { refused: 'not_holder' },
    releaseB: { refused: 'not_holder' },
    disconnectA: 'unchanged',
    disconnectB: 'unchanged',
    finishByDriver: { to: done, effects: [] },
    finishA: { to: done, effects: [] },
    finishB: { to: done, effects: [] }
  },
  humanA: {
    takeA: 'unchanged',
    takeB: { refused: 'held_by_other' },
    releaseA: { to: agent, effects: LEAVE },
    releaseB: { refused: 'not_holder' },
    disconnectA: { to: { controller: 'human_disconnected', holder: 'A', finished: false }, effects: LEAVE },
    disconnectB: 'unchanged',
    finishByDriver: { to: done, effects: LEAVE },
    finishA: { to: done, effects: LEAVE },
    finishB: { refused: 'held_by_other' }
  },
  disconnectedA: {
    takeA: { to: humanBy('A'), effects: [] },
    takeB: { to: humanBy('B'), effects: [] },
    releaseA: { refused: 'not_holder' },
    releaseB: { refused: 'not_holder' },
    disconnectA: 'unchanged',
    disconnectB: 'unchanged',
    finishByDriver: { to: done, effects: [] },
    finishA: { to: done, effects: [] },
    finishB: { to: done, effects: [] }
  },
  finished: {
    takeA: { refused: 'finished' },
    takeB: { refused: 'finished' },
    releaseA: { refused: 'finished' },
    releaseB: { refused: 'finished' },
    disconnectA: 'unchanged',
    disconnectB: 'unchanged',
    finishByDriver: { refused: 'finished' },
    finishA: { refused: 'finished' },
    finishB: { refused: 'finished' }
  }
}

t.test('every state × event pair follows the table', async t => {
  for (const [stateName, state] of Object.entries(STATES)) {
    for (const [eventName, event] of Object.entries(EVENTS)) {
      const expected = TABLE[stateName as keyof typeof STATES][eventName as keyof typeof EVENTS]
      const input = Object.freeze({ ...state })
      const result = applyControl(input, event)
      const label = `${stateName} + ${eventName}`

      if (expected === 'unchanged') {
        t.same(result, { ok: true, changed: false, state: input, effects: [] }, label)
        t.equal(result.state, input, `${label}: same state object, no generation bump`)
      } else if ('refused' in expected) {
        t.same(result, { ok: false, state: input, reason: expected.refused }, label)
        t.equal(result.state, input, `${label}: refusal leaves the state untouched`)
      } else {
        t.same(result, {
          ok: true,
          changed: true,
          state: { ...expected.to, generation: GEN + 1 },
          effects: expected.effects
        }, label)
      }
    }
  }
})

t.test('the table covers exactly the states and events under test', async t => {
  t.same(Object.keys(TABLE).sort(), Object.keys(STATES).sort())
  for (const row of Object.values(TABLE)) t.same(Object.keys(row).sort(), Object.keys(EVENTS).sort())
})

t.test('an event type from a bad message throws instead of passing silently', async t => {
  t.throws(() => applyControl(STATES.humanA, { type: 'steal', viewerId: 'B' } as unknown as ControlEvent), TypeError)
})

t.test('acceptsInput: only the live holder, only the current generation', async t => {
  const cases: Array<[keyof typeof STATES, string, number, boolean]> = [
    ['humanA', 'A', GEN, true],
    ['humanA', 'A', GEN - 1, false],
    ['humanA', 'A', GEN + 1, false],
    ['humanA', 'B', GEN, false],
    ['disconnectedA', 'A', GEN, false],
    ['disconnectedA', 'B', GEN, false],
    ['agent', 'A', GEN, false],
    ['finished', 'A', GEN, false]
  ]
  for (const [stateName, viewer, generation, accepted] of cases) {
    t.equal(acceptsInput(STATES[stateName], viewer, generation), accepted, `${stateName} ${viewer}@${generation}`)
  }
})

t.test('input sent before a disconnect is stale after the same viewer takes back', async t => {
  const taken = applyControl(initialControl(), { type: 'take', viewerId: 'A' }).state
  const sentUnder = taken.generation
  const dropped = applyControl(taken, { type: 'disconnect', viewerId: 'A' }).state
  const retaken = applyControl(dropped, { type: 'take', viewerId: 'A' }).state
  t.equal(retaken.controller, 'human')
  t.equal(retaken.holder, 'A')
  t.notOk(acceptsInput(retaken, 'A', sentUnder), 'old generation refused')
  t.ok(acceptsInput(retaken, 'A', retaken.generation), 'new generation accepted')
})

t.test('a failed take leaves the previous reservation intact', async t => {
  const held = applyControl(initialControl(), { type: 'take', viewerId: 'A' }).state
  const attempt = applyControl(held, { type: 'take', viewerId: 'B' })
  t.equal(attempt.ok, false)
  t.equal(attempt.state, held)
  t.ok(acceptsInput(attempt.state, 'A', held.generation), 'A still drives under its generation')
})

t.test('a disconnect never hands control back to the agent', async t => {
  let state = applyControl(initialControl(), { type: 'take', viewerId: 'A' }).state
  state = applyControl(state, EVENTS.disconnectA).state
  t.equal(state.controller, 'human_disconnected')
  state = applyControl(state, EVENTS.disconnectA).state
  state = applyControl(state, EVENTS.disconnectB).state
  t.equal(state.controller, 'human_disconnected', 'repeated and foreign disconnects change nothing')
  t.equal(state.holder, 'A', 'the summary still names who held it')
})

t.test('initialControl carries a generation over from an earlier handoff', async t => {
  const earlier = applyControl(applyControl(initialControl(), { type: 'take', viewerId: 'A' }).state, { type: 'finish' }).state
  const next = initialControl(earlier.generation + 1)
  t.same(next, { controller: 'agent', generation: earlier.generation + 1, holder: null, finished: false })
  const retaken = applyControl(next, { type: 'take', viewerId: 'A' }).state
  t.notOk(acceptsInput(retaken, 'A', 1), 'input from the first handoff cannot match')
})

t.test('random walks keep the invariants', async t => {
  const events = Object.values(EVENTS)
  const random = seeded(42)
  const problems: string[] = []
  let checked = 0
  for (let walk = 0; walk < 200; walk++) {
    let state = initialControl()
    for (let step = 0; step < 40; step++) {
      const event = events[Math.floor(random() * events.length)]!
      const result = applyControl(state, event)
      const next = result.state
      const changed = result.ok && result.changed
      if (next.generation !== state.generation + (changed ? 1 : 0)) {
        problems.push(`generation must move by one exactly on change (${JSON.stringify([state, event])})`)
      }
      if ((next.holder === null) !== (next.controller === 'agent')) problems.push(`holder iff human: ${JSON.stringify(next)}`)
      if (state.controller === 'human_disconnected' && next.controller === 'agent' && !next.finished) {
        problems.push('left human_disconnected for the agent without finish')
      }
      if (state.finished && !next.finished) problems.push('finish is terminal')
      if (!result.ok && result.state !== state) problems.push('refusal changed the state')
      state = next
      checked++
    }
  }
  t.same(problems.slice(0, 5), [], `${problems.length} broken steps`)
  t.equal(checked, 8000)
})

t.test('HeldInput', async t => {
  t.test('drains in reverse press order and forgets', async t => {
    const held = new HeldInput()
    held.press('key', 'ShiftLeft')
    held.press('mouse', 'left')
    held.press('key', 'KeyA')
    held.press('key', 'ShiftLeft') // auto-repeat must not reorder
    t.equal(held.size, 3)
    t.same(held.drain(), [
      { kind: 'key', id: 'KeyA' },
      { kind: 'mouse', id: 'left' },
      { kind: 'key', id: 'ShiftLeft' }
    ])
    t.equal(held.size, 0)
    t.same(held.drain(), [])
  })

  t.test('a released input is not drained; releasing what was never held is harmless', async t => {
    const held = new HeldInput()
    held.press('mouse', 'left')
    held.press('key', 'KeyA')
    held.release('mouse', 'left')
    held.release('key', 'KeyZ')
    held.release('mouse', 'KeyA') // same id, other kind
    t.same(held.drain(), [{ kind: 'key', id: 'KeyA' }])
  })

  t.test('mouseButtons is the CDP buttons bitmask of held mouse buttons', async t => {
    const held = new HeldInput()
    t.equal(held.mouseButtons, 0)
    held.press('mouse', 'left')
    t.equal(held.mouseButtons, 1)
    held.press('mouse', 'right')
    held.press('mouse', 'middle')
    held.press('key', 'left') // a key id never counts as a button
    t.equal(held.mouseButtons, 1 | 2 | 4)
    held.press('mouse', 'back')
    held.press('mouse', 'forward')
    t.equal(held.mouseButtons, 31)
    held.release('mouse', 'left')
    t.equal(held.mouseButtons, 30)
  })

  t.test('a disconnect mid-drag releases what the holder held', async t => {
    const held = new HeldInput()
    let state = applyControl(initialControl(), { type: 'take', viewerId: 'A' }).state
    held.press('mouse', 'left')
    const result = applyControl(state, { type: 'disconnect', viewerId: 'A' })
    state = result.state
    t.ok(result.ok && result.effects.includes('release_held_input'))
    t.same(held.drain(), [{ kind: 'mouse', id: 'left' }])
    t.equal(state.controller, 'human_disconnected')
  })
})

// Deterministic PRNG (mulberry32) so a failing walk can be replayed.
function seeded(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let r = Math.imul(a ^ (a >>> 15), 1 | a)
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296
  }
}
