import t from 'tap'
import type { Page } from 'puppeteer-core'
import { WindowReturnsLedger } from '../../src/browser/window-returns-ledger.js'

// A page as the ledger sees one: it can close, and says whether it has.
function fakePage (): Page & { close: () => void } {
  let closed = false
  const onClose: Array<() => void> = []
  return {
    isClosed: () => closed,
    once: (event: string, fn: () => void) => { if (event === 'close') onClose.push(fn) },
    close: () => { closed = true; onClose.splice(0).forEach((fn) => fn()) }
  } as unknown as Page & { close: () => void }
}

const A = 'http://a.test'
const B = 'http://b.test'

// Teaches the ledger a reset and an opening, and that windows of A come back.
function taught (): WindowReturnsLedger {
  const ledger = new WindowReturnsLedger()
  ledger.opened(10_000) // a window is dear: whatever comes back serves sooner
  const page = fakePage()
  ledger.held(page, A)
  t.equal(ledger.released(page, true, A), A, 'a fetch of A that ended on A hands its window back for A')
  ledger.resetStarted(page, A)
  t.equal(ledger.resetting, 1)
  ledger.resetEnded(page, true, A)
  t.equal(ledger.resetting, 0)
  return ledger
}

t.test('a window held by a fetch of a site whose windows come back serves a waiter of that site', async (t) => {
  const ledger = taught()
  const page = fakePage()
  ledger.held(page, A)
  t.same(ledger.toBuild([A], 1), [], 'the A fetch waits for the window coming back')
  t.same(ledger.toBuild([B], 1), [0], 'a B fetch gets one built')
  page.close()
  t.same(ledger.toBuild([A], 1), [0], 'a closed window comes back to nobody')
})

t.test('a site whose fetches end elsewhere, or whose windows are not reused, hands back nothing', async (t) => {
  const ledger = taught()
  const redirected = fakePage()
  ledger.held(redirected, A)
  t.equal(ledger.released(redirected, true, B), undefined, 'ended on B: its window serves no fetch of A')
  const next = fakePage()
  ledger.held(next, A)
  t.same(ledger.toBuild([A], 1), [0], 'A no longer counts as coming back')

  const again = taught()
  const kept = fakePage()
  again.held(kept, A)
  t.equal(again.released(kept, false, A), undefined, 'a window not offered back (a tab kept, sessionStorage written)')
  const later = fakePage()
  again.held(later, A)
  t.same(again.toBuild([A], 1), [0])
})

t.test('a reset that proves the window unclean stops the site counting as coming back', async (t) => {
  const ledger = taught()
  const page = fakePage()
  ledger.held(page, A)
  ledger.released(page, true, A)
  ledger.resetStarted(page, A)
  ledger.resetEnded(page, false, A)
  const next = fakePage()
  ledger.held(next, A)
  t.same(ledger.toBuild([A], 1), [0])
})

t.test('until it has seen a reset and an opening, every waiter gets a window', async (t) => {
  const ledger = new WindowReturnsLedger()
  ledger.held(fakePage(), A)
  t.same(ledger.toBuild([A, A], 1), [0, 1])
})

t.test('the end of a reset says how long it took: the one clock the pool adds to its stats', async (t) => {
  const ledger = new WindowReturnsLedger()
  const page = fakePage()
  ledger.resetStarted(page, A)
  await new Promise((resolve) => setTimeout(resolve, 30))
  const ms = ledger.resetEnded(page, true, A)
  t.ok(ms >= 20, `at least the time it waited (${ms.toFixed(1)} ms)`)
  t.equal(ledger.resetEnded(fakePage(), false, A), 0, 'a reset never started took no time')
})
