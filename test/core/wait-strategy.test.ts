import t from 'tap'
import {
  formatWaitStrategy, isScopedReadiness, MAX_SELECTOR_LENGTH, parseWaitStrategy, StabilityTracker, WAIT_STRATEGIES,
  type StabilitySample
} from '../../src/core/wait-strategy.js'

function thrownBy (fn: () => unknown): Error | undefined {
  try { fn() } catch (err) { return err as Error }
  return undefined
}

t.test('lifecycle strategies', async t => {
  for (const kind of ['load', 'domcontentloaded', 'networkidle'] as const) {
    t.same(parseWaitStrategy(kind), { kind })
    t.equal(isScopedReadiness(parseWaitStrategy(kind)), false, `${kind} is not scoped readiness`)
    t.equal(formatWaitStrategy(parseWaitStrategy(kind)), kind)
  }
  t.same(parseWaitStrategy('  load \n'), { kind: 'load' }, 'surrounding whitespace is ignored')
})

t.test('selector strategies keep everything after the first colon', async t => {
  t.same(parseWaitStrategy('selector:#price'), { kind: 'selector', selector: '#price' })
  t.same(parseWaitStrategy('selector-stable:#price'), { kind: 'selector-stable', selector: '#price' })
  t.same(parseWaitStrategy('selector: main .total '), { kind: 'selector', selector: 'main .total' }, 'selector is trimmed')
  t.same(parseWaitStrategy('selector-stable:a[href^="https://x"]:not(:hover)'),
    { kind: 'selector-stable', selector: 'a[href^="https://x"]:not(:hover)' }, 'colons inside the selector survive')
  const w = parseWaitStrategy('selector-stable:#price')
  t.equal(isScopedReadiness(w), true)
  t.equal(formatWaitStrategy(w), 'selector-stable:#price')
  t.equal(parseWaitStrategy('selector:' + 'a'.repeat(MAX_SELECTOR_LENGTH)).kind, 'selector', `a ${MAX_SELECTOR_LENGTH}-character selector is accepted`)
})

t.test('invalid strategies throw plain Errors that say what is wrong', async t => {
  const cases: Array<[string, RegExp]> = [
    ['', /unknown wait strategy ""/],
    ['idle', /unknown wait strategy "idle"; expected one of load, domcontentloaded, networkidle, selector:<css>, selector-stable:<css>/],
    ['LOAD', /unknown wait strategy "LOAD"/],
    ['networkidle0', /unknown wait strategy/],
    ['xpath://div', /unknown wait strategy "xpath:\/\/div"/],
    ['load:#x', /"load" takes no argument/],
    ['selector', /"selector" needs a CSS selector/],
    ['selector:', /"selector" needs a CSS selector/],
    ['selector-stable:   ', /"selector-stable" needs a CSS selector/],
    ['selector:' + 'a'.repeat(MAX_SELECTOR_LENGTH + 1), /1025 characters; the limit is 1024/]
  ]
  for (const [input, message] of cases) {
    const err = thrownBy(() => parseWaitStrategy(input))
    t.equal(err?.constructor, Error, `${JSON.stringify(input.slice(0, 40))} throws a plain Error`)
    t.match(err?.message, message)
  }
  const huge = thrownBy(() => parseWaitStrategy('x'.repeat(100_000)))
  t.ok(huge !== undefined && huge.message.length < 300, 'the message does not echo a huge input')
})

t.test('WAIT_STRATEGIES names every kind the parser accepts', async t => {
  for (const name of WAIT_STRATEGIES) t.doesNotThrow(() => parseWaitStrategy(name.replace('<css>', '#x')), name)
})

const ready = (text: string, at: number): StabilitySample => ({ present: true, visible: true, text, at })

t.test('stable after minSamples unchanged samples spanning settleMs', async t => {
  const s = new StabilityTracker(1000)
  t.same(s.observe(ready('€34.90', 0)), { stable: false, targetReady: true, samples: 1, streak: 1 })
  t.same(s.observe(ready('€34.90', 500)), { stable: false, targetReady: true, samples: 2, streak: 2 })
  t.same(s.observe(ready('€34.90', 1000)), { stable: true, targetReady: true, samples: 3, streak: 3 })
  t.same(s.observe(ready('€34.90', 1500)), { stable: true, targetReady: true, samples: 4, streak: 4 }, 'stays stable while unchanged')
})

t.test('enough samples are not enough without the settle window, and vice versa', async t => {
  const fast = new StabilityTracker(1000)
  for (const at of [0, 100, 200, 300, 400]) t.equal(fast.observe(ready('x', at)).stable, false, `sample at ${at} ms`)
  t.equal(fast.observe(ready('x', 999)).stable, false, '1 ms short of the window')
  t.equal(fast.observe(ready('x', 1000)).stable, true, 'window reached')

  const slow = new StabilityTracker(1000)
  slow.observe(ready('x', 0))
  t.equal(slow.observe(ready('x', 5000)).stable, false, 'two samples span the window but are too few')
  t.equal(slow.observe(ready('x', 5001)).stable, true)
})

t.test('any change starts over', async t => {
  const s = new StabilityTracker(1000)
  s.observe(ready('€34.90', 0))
  s.observe(ready('€34.90', 500))
  t.same(s.observe(ready('€35.90', 1000)), { stable: false, targetReady: true, samples: 3, streak: 1 }, 'text changed')
  s.observe(ready('€35.90', 1500))
  t.equal(s.observe(ready('€35.90', 1999)).stable, false, 'the window counts from the change')
  t.equal(s.observe(ready('€35.90', 2000)).stable, true)
  t.same(s.observe({ present: true, visible: false, text: '€35.90', at: 2100 }), { stable: false, targetReady: false, samples: 7, streak: 0 }, 'hidden')
  s.observe(ready('€35.90', 2200))
  s.observe(ready('€35.90', 2700))
  t.equal(s.observe({ present: false, visible: false, text: '', at: 3000 }).stable, false, 'detached just before it would have settled')
  t.equal(s.observe(ready('€35.90', 3200)).streak, 1, 'the same text again is a new streak')
})

t.test('the target must carry non-empty text', async t => {
  for (const text of ['', '   ', '\n\t']) {
    const s = new StabilityTracker(0, 1)
    t.same(s.observe(ready(text, 0)), { stable: false, targetReady: false, samples: 1, streak: 0 }, JSON.stringify(text))
  }
  t.equal(new StabilityTracker(0, 1).observe(ready('ok', 0)).stable, true, 'minSamples 1 and settle 0 settle at once')
})

t.test('whitespace reflow is not a change', async t => {
  const s = new StabilityTracker(100)
  s.observe(ready('Total:  €34.90', 0))
  s.observe(ready('Total:\n€34.90', 50))
  t.equal(s.observe(ready(' Total: €34.90 ', 100)).stable, true)
})

t.test('a sample from the past cannot prove the span', async t => {
  const s = new StabilityTracker(1000)
  s.observe(ready('x', 1000))
  s.observe(ready('x', 1500))
  t.equal(s.observe(ready('x', 200)).streak, 1, 'out-of-order sample restarts')
  t.equal(s.observe(ready('x', 1100)).streak, 1, 'still earlier than the latest sample seen')
  s.observe(ready('x', 1600))
  t.equal(s.observe(ready('x', 2099)).stable, false, 'the window counts from the restart')
  t.equal(s.observe(ready('x', 2100)).stable, true)
})

t.test('minSamples is honoured', async t => {
  const s = new StabilityTracker(0, 5)
  for (let i = 0; i < 4; i++) t.equal(s.observe(ready('x', i)).stable, false, `sample ${i + 1}`)
  t.equal(s.observe(ready('x', 4)).stable, true, 'fifth sample')
})

t.test('constructor rejects nonsense', async t => {
  t.throws(() => new StabilityTracker(-1), RangeError)
  t.throws(() => new StabilityTracker(Number.NaN), RangeError)
  t.throws(() => new StabilityTracker(Number.POSITIVE_INFINITY), RangeError)
  t.throws(() => new StabilityTracker(100, 0), RangeError)
  t.throws(() => new StabilityTracker(100, 1.5), RangeError)
  t.doesNotThrow(() => new StabilityTracker(0, 1))
})
