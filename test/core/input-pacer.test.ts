import t from 'tap'
import { InputPacer, MOVE_INTERVAL_MS } from '../../src/panel/input-pacer.js'

type Ev = { kind: 'down' | 'move' | 'up' | 'key', n: number }
const isMove = (e: Ev): boolean => e.kind === 'move'

t.test('moves pass at most one per interval; the newest held move wins', async (t) => {
  const p = new InputPacer<Ev>(16)
  t.same(p.push({ kind: 'move', n: 1 }, true, 0).now, [{ kind: 'move', n: 1 }])
  const held = p.push({ kind: 'move', n: 2 }, true, 5)
  t.same(held, { now: [], flushAt: 16 })
  p.push({ kind: 'move', n: 3 }, true, 9)
  t.same(p.flush(10), { now: [], flushAt: 16 }, 'not yet')
  t.same(p.flush(16).now, [{ kind: 'move', n: 3 }])
  t.same(p.flush(40).now, [], 'nothing left')
})

t.test('presses, releases and keys are never dropped or reordered; a held move goes first', async (t) => {
  const p = new InputPacer<Ev>(16)
  p.push({ kind: 'move', n: 1 }, true, 0)
  p.push({ kind: 'move', n: 2 }, true, 4)
  t.same(p.push({ kind: 'up', n: 3 }, false, 6).now, [{ kind: 'move', n: 2 }, { kind: 'up', n: 3 }])
  t.same(p.push({ kind: 'down', n: 4 }, false, 7).now, [{ kind: 'down', n: 4 }])
  t.same(p.push({ kind: 'key', n: 5 }, false, 7).now, [{ kind: 'key', n: 5 }])
  t.notOk(p.holding)
})

t.test('drop forgets a held move (control moved on)', async (t) => {
  const p = new InputPacer<Ev>(16)
  p.push({ kind: 'move', n: 1 }, true, 0)
  p.push({ kind: 'move', n: 2 }, true, 1)
  t.ok(p.drop())
  t.notOk(p.drop())
  t.same(p.push({ kind: 'up', n: 3 }, false, 2).now, [{ kind: 'up', n: 3 }])
})

t.test('random streams: order kept, non-moves all delivered, moves ≤ 60 per second', async (t) => {
  let seed = 42
  const rand = (): number => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31 }
  for (let run = 0; run < 200; run++) {
    const p = new InputPacer<Ev>()
    const out: Array<{ e: Ev, at: number }> = []
    let now = 0
    let flushAt: number | undefined
    const sent: Ev[] = []
    for (let n = 0; n < 300; n++) {
      now += rand() * 12
      if (flushAt !== undefined && now >= flushAt) {
        const f = p.flush(flushAt)
        for (const e of f.now) out.push({ e, at: flushAt })
        flushAt = f.flushAt
      }
      const kind = rand() < 0.8 ? 'move' : (['down', 'up', 'key'] as const)[Math.floor(rand() * 3)]
      const e: Ev = { kind, n }
      sent.push(e)
      const r = p.push(e, isMove(e), now)
      for (const x of r.now) out.push({ e: x, at: now })
      if (r.flushAt !== undefined) flushAt = r.flushAt
      else if (!p.holding) flushAt = undefined
    }
    const ns = out.map((o) => o.e.n)
    if (!ns.every((v, i) => i === 0 || v > ns[i - 1])) { t.fail(`run ${run}: reordered`); return }
    const nonMoves = sent.filter((e) => !isMove(e)).map((e) => e.n)
    if (nonMoves.some((n) => !ns.includes(n))) { t.fail(`run ${run}: a non-move was dropped`); return }
    const moves = out.filter((o) => isMove(o.e)).map((o) => o.at)
    for (let i = 1; i < moves.length; i++) {
      if (moves[i] - moves[i - 1] < MOVE_INTERVAL_MS - 1e-9) {
        // A non-move flushes the held move early; that is the only allowed exception.
        const between = out.filter((o) => o.at >= moves[i - 1] && o.at <= moves[i] && !isMove(o.e))
        if (between.length === 0) { t.fail(`run ${run}: two moves ${moves[i] - moves[i - 1]} ms apart`); return }
      }
    }
  }
  t.pass('200 random streams hold the rules')
})
