import t from 'tap'
import { parseUrlDeny, PRIVATE_RANGES } from '../../src/core/url-deny.js'

t.test('CIDRs and bare addresses deny exactly their range', async (t) => {
  const deny = parseUrlDeny('127.0.0.2/32, 10.1.0.0/16 2001:db8::/32 192.0.2.7')
  t.ok(deny.denies('127.0.0.2'))
  t.notOk(deny.denies('127.0.0.1'), 'the next address is allowed')
  t.ok(deny.denies('10.1.255.255'))
  t.notOk(deny.denies('10.2.0.1'))
  t.ok(deny.denies('2001:db8::1'))
  t.ok(deny.denies('192.0.2.7'), 'a bare address is a /32')
  t.notOk(deny.denies('192.0.2.8'))
  t.ok(deny.denies('::ffff:127.0.0.2'), 'an IPv4-mapped IPv6 address is its IPv4 address')
  t.ok(deny.denies('not-an-address'), 'what is not an address is never allowed')
})

t.test('private covers loopback, private, link-local, unique-local and the unspecified address', async (t) => {
  const deny = parseUrlDeny('private')
  t.equal(deny.ranges.length, PRIVATE_RANGES.length)
  for (const a of ['127.0.0.1', '127.9.9.9', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '0.0.0.0', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:192.168.0.1']) {
    t.ok(deny.denies(a), a)
  }
  for (const a of ['8.8.8.8', '172.32.0.1', '1.1.1.1', '2606:4700::1111', '100.64.0.1']) t.notOk(deny.denies(a), a)
})

t.test('bad ranges are refused with the reason', async (t) => {
  t.throws(() => parseUrlDeny(' , '), /names no range/)
  t.throws(() => parseUrlDeny('example.com'), /neither a CIDR nor "private"/)
  t.throws(() => parseUrlDeny('10.0.0.0/33'), /prefix length outside 0-32/)
  t.throws(() => parseUrlDeny('::/129'), /prefix length outside 0-128/)
  t.throws(() => parseUrlDeny('10.0.0.0/8/1'), /neither a CIDR/)
  t.throws(() => parseUrlDeny('10.0.0.0/x'), /prefix length/)
})
