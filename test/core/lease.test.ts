import t from 'tap'
import { LEASE_MS, LeaseBook, leaseCookieName } from '../../src/panel/lease.js'
import { hashSecret } from '../../src/core/secrets.js'
import { SecretLedger } from '../../src/core/secret-ledger.js'

t.test('a lease is short, renewable, never past the hold, and bound to its tab', async (t) => {
  const book = new LeaseBook()
  const { token, lease } = book.issue('tab_a', 'hf_1', 1_000, 1_000 + 600_000)
  t.equal(lease.expiresAt, 1_000 + LEASE_MS)
  t.equal(book.find(token, 'tab_a', 2_000), lease)
  t.equal(book.find(token, 'tab_b', 2_000), undefined, 'another tab\'s lease opens nothing')
  t.equal(book.find(undefined, 'tab_a', 2_000), undefined)
  t.equal(book.find(token + 'x', 'tab_a', 2_000), undefined)
  book.renew(lease, 50_000, 1_000 + 600_000)
  t.equal(lease.expiresAt, 50_000 + LEASE_MS)
  book.renew(lease, 590_000, 600_000)
  t.equal(lease.expiresAt, 600_000, 'capped at the hold')
  t.equal(book.find(token, 'tab_a', 600_000), undefined, 'expired at the hold')
})

t.test('a renewal never shortens a lease', async (t) => {
  const book = new LeaseBook()
  const { lease } = book.issue('tab_a', 'hf_1', 0, 1_000_000)
  book.renew(lease, 10, 30_000)
  t.equal(lease.expiresAt, LEASE_MS)
})

t.test('tokens are unguessable and distinct; a tab\'s leases die together', async (t) => {
  const book = new LeaseBook()
  const a = book.issue('tab_a', 'hf_1', 0, 100_000)
  const b = book.issue('tab_a', 'hf_1', 0, 100_000)
  const c = book.issue('tab_c', 'hf_2', 0, 100_000)
  t.not(a.token, b.token)
  t.ok(a.token.length >= 43, '≥ 256 bits')
  book.revokeTab('tab_a')
  t.equal(book.find(a.token, 'tab_a', 1), undefined)
  t.equal(book.find(b.token, 'tab_a', 1), undefined)
  t.ok(book.find(c.token, 'tab_c', 1))
  t.equal(leaseCookieName('tab_x'), 'afhttp_lease_tab_x')
})

t.test('expired leases are pruned when new ones are issued', async (t) => {
  const book = new LeaseBook()
  book.issue('tab_a', 'hf', 0, 10)
  book.issue('tab_b', 'hf', 0, 100_000)
  book.issue('tab_c', 'hf', 50, 100_000)
  t.equal(book.size, 2)
})

t.test('the secret ledger keeps hashes only and says why a secret died', async (t) => {
  const ledger = new SecretLedger<string>()
  const hash = ledger.add('s1', 'owner')
  t.equal(hash, hashSecret('s1'))
  t.equal(ledger.get('s1'), 'owner')
  t.equal(ledger.retiredReason('s1'), undefined)
  ledger.retire(hash, 'used')
  t.equal(ledger.get('s1'), undefined)
  t.equal(ledger.retiredReason('s1'), 'used')
  ledger.retire(hash, 'revoked')
  t.equal(ledger.retiredReason('s1'), 'used', 'a dead secret keeps its first reason')
  t.equal(ledger.retiredReason('never'), undefined)
  for (let i = 0; i < 5000; i++) ledger.retire(ledger.add(`x${i}`, 'o'), 'revoked')
  t.equal(ledger.retiredReason('s1'), undefined, 'the memory of dead secrets is bounded')
  t.equal(ledger.retiredReason('x4999'), 'revoked')
})
