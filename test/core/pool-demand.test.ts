import t from 'tap'
import { POOL_BURST_MAX, POOL_PEAK_MEMORY_MS, PoolDemand, refillRetryMs } from '../../src/core/pool-demand.js'

t.test('the pool target follows the recent peak of concurrent fetches, bounded, back to the floor when idle', async (t) => {
  const d = new PoolDemand(2)
  t.equal(d.target(0), 2, 'AFHTTP_TAB_POOL when nothing ran')
  for (let i = 1; i <= 5; i++) d.taken(10, i)
  t.equal(d.target(10), 5, 'five at once: keep five')
  d.taken(20, 1)
  t.equal(d.target(20 + POOL_PEAK_MEMORY_MS), 5, 'remembered for a while after the last fetch')
  t.equal(d.target(21 + POOL_PEAK_MEMORY_MS), 2, 'then back to the floor')
  d.taken(30 + POOL_PEAK_MEMORY_MS, 20)
  t.equal(d.target(30 + POOL_PEAK_MEMORY_MS), POOL_BURST_MAX, 'never past the bound')
})

t.test('a fetch after a long pause starts from the floor, not the old peak', async (t) => {
  const d = new PoolDemand(2)
  d.taken(0, 6)
  d.taken(1 + POOL_PEAK_MEMORY_MS, 1)
  t.equal(d.target(1 + POOL_PEAK_MEMORY_MS), 2)
})

t.test('a pool of 0 (AFHTTP_TAB_POOL=0 or an attached browser) stays 0', async (t) => {
  const d = new PoolDemand(0)
  d.taken(0, 8)
  t.equal(d.target(0), 0)
})

t.test('a floor above the bound is the operator\'s choice and is kept', async (t) => {
  const d = new PoolDemand(12)
  d.taken(0, 3)
  t.equal(d.target(0), 12)
})

t.test('after failed opens the pool tries again by itself: 1 s, doubling, never more than 30 s apart', async (t) => {
  t.same([1, 2, 3, 4, 5, 6, 7, 100].map(refillRetryMs), [1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000])
})
