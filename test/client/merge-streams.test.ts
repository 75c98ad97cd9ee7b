import t from 'tap'
import { mergeTagged } from '../../src/client/merge-streams.js'

async function * ticks (name: string, n: number, closed: string[]): AsyncGenerator<string> {
  try {
    for (let i = 0; i < n; i++) { await new Promise((resolve) => setImmediate(resolve)); yield `${name}${i}` }
  } finally { closed.push(name) }
}

t.test('every item of every source arrives once, tagged with its source', async (t) => {
  const closed: string[] = []
  const got: string[] = []
  for await (const { key, value } of mergeTagged([{ key: 'a', stream: ticks('a', 3, closed) }, { key: 'b', stream: ticks('b', 2, closed) }])) {
    t.equal(value[0], key)
    got.push(value)
  }
  t.same(got.sort(), ['a0', 'a1', 'a2', 'b0', 'b1'])
  t.same(closed.sort(), ['a', 'b'])
})

t.test('breaking out closes every source', async (t) => {
  const closed: string[] = []
  for await (const _ of mergeTagged([{ key: 1, stream: ticks('x', 100, closed) }, { key: 2, stream: ticks('y', 100, closed) }])) break
  t.same(closed.sort(), ['x', 'y'])
})
