import t from 'tap'
import { Listeners } from '../../src/core/listeners.js'

t.test('a throwing listener is reported and the others still hear the event', async (t) => {
  const errors: unknown[] = []
  const heard: number[] = []
  const l = new Listeners<[number]>((err) => errors.push(err))
  l.add((n) => heard.push(n))
  l.add(() => { throw new Error('boom') })
  l.add((n) => heard.push(n * 10))
  l.emit(2)
  t.same(heard, [2, 20])
  t.equal(errors.length, 1)
  t.match((errors[0] as Error).message, 'boom')
})
