import t from 'tap'
import { POOL_BURST_MAX, POOL_PEAK_MEMORY_MS, PoolDemand } from '../../src/core/pool-demand.js'

t.test('the pool target follows the recent peak of concurrent fetches, bounded, back to the floor when idle', async (t) => {
  const d = new PoolDemand(2)
  t.equal(d.target(0), 2, 'AFHTTP_TAB_POOL when nothing ran')
  for (let i = 0; i < 5; i++) d.taken(10)
  t.equal(d.target(10), 5, 'five at once: keep five')
  for (let i = 0; i < 5; i++) d.done(20)
  t.equal(d.inUse, 0)
  t.equal(d.target(20 + POOL_PEAK_MEMORY_MS), 5, 'remembered for a while after the burst')
  t.equal(d.target(21 + POOL_PEAK_MEMORY_MS), 2, 'then back to the floor')
  for (let i = 0; i < 20; i++) d.taken(30 + POOL_PEAK_MEMORY_MS)
  t.equal(d.target(30 + POOL_PEAK_MEMORY_MS), POOL_BURST_MAX, 'never past the bound')
})

t.test('a fetch after a long pause starts from the floor, not the old peak', async (t) => {
  const d = new PoolDemand(2)
  for (let i = 0; i < 6; i++) d.taken(0)
  for (let i = 0; i < 6; i++) d.done(1)
  d.taken(2 + POOL_PEAK_MEMORY_MS)
  t.equal(d.target(2 + POOL_PEAK_MEMORY_MS), 2)
})

t.test('a held tab keeps counting as in use but lets the peak fall', async (t) => {
  const d = new PoolDemand(1)
  for (let i = 0; i < 4; i++) d.taken(0)
  for (let i = 0; i < 3; i++) d.done(1)
  t.equal(d.target(2 + POOL_PEAK_MEMORY_MS), 1, 'one window still held: the floor (1) covers it')
})

t.test('a pool of 0 (AFHTTP_TAB_POOL=0 or an attached browser) stays 0', async (t) => {
  const d = new PoolDemand(0)
  for (let i = 0; i < 8; i++) d.taken(0)
  t.equal(d.target(0), 0)
})

t.test('a floor above the bound is the operator\'s choice and is kept', async (t) => {
  const d = new PoolDemand(12)
  t.equal(d.target(0), 12)
})
