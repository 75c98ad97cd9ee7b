import t from 'tap'
import { egressVerdict, targetKey, targetOfUrl, type EgressRefusal, type LoadOutcome } from '../../src/core/egress-verdict.js'

const base: LoadOutcome = { navigationTargets: ['127.0.0.1:8080'], refusals: [], hasUpstream: true }
const refusal = (kind: EgressRefusal['kind'], target: string, seq = 1): EgressRefusal => ({ seq, kind, target })

t.test('targets are spelled one way on both sides', async (t) => {
  t.equal(targetOfUrl('http://Example.COM/x'), 'example.com:80')
  t.equal(targetOfUrl('https://example.com/'), 'example.com:443')
  t.equal(targetOfUrl('http://[::1]:81/'), '::1:81')
  t.equal(targetKey('[::1]', 81), '::1:81')
  t.equal(targetOfUrl('data:text/html,x'), undefined)
  t.equal(targetOfUrl('nonsense'), undefined)
})

t.test('a refused first URL or redirect is url_not_allowed; a refused subresource is not the page', async (t) => {
  t.match(egressVerdict({ ...base, status: 403, marker: 'url_not_allowed' }), { code: 'url_not_allowed', details: { field: 'url' } })
  t.match(egressVerdict({ ...base, netError: 'net::ERR_TUNNEL_CONNECTION_FAILED at https://x', navigationTargets: ['a:80', 'x:443'], refusals: [refusal('url_not_allowed', 'x:443')] }),
    { code: 'url_not_allowed', details: { target: 'x:443' } }, 'a refused tunnel (https) is recognised by its target')
  t.equal(egressVerdict({ ...base, netError: 'net::ERR_ABORTED', refusals: [refusal('url_not_allowed', 'other:80')] }), undefined, 'another target\'s refusal says nothing about this page')
  t.equal(egressVerdict({ ...base, status: 403 }), undefined, 'a site\'s own 403 is the site\'s')
})

t.test('a proxy that does not carry the request is proxy_unreachable', async (t) => {
  t.match(egressVerdict({ ...base, status: 594, marker: 'proxy_unreachable' }), { code: 'proxy_unreachable' })
  t.match(egressVerdict({ ...base, netError: 'net::ERR_TUNNEL_CONNECTION_FAILED at https://x' }), { code: 'proxy_unreachable', details: { net_error: 'ERR_TUNNEL_CONNECTION_FAILED' } })
  t.match(egressVerdict({ ...base, netError: 'net::ERR_PROXY_CONNECTION_FAILED' }), { code: 'proxy_unreachable' })
  t.match(egressVerdict({ ...base, status: 597, refusals: [refusal('proxy_unreachable', 'a:80')] }), { code: 'proxy_unreachable' })
  t.equal(egressVerdict({ ...base, status: 599 }), undefined, 'a 599 the forwarder did not make is the site\'s')
  t.equal(egressVerdict({ ...base, netError: 'net::ERR_CONNECTION_REFUSED' }), undefined, 'not a proxy error')
})

t.test('without an upstream, a connection the forwarder could not make is an ordinary navigation failure', async (t) => {
  t.match(egressVerdict({ ...base, hasUpstream: false, status: 594, marker: 'unreachable' }), { code: 'navigation_failed' })
  t.match(egressVerdict({ ...base, hasUpstream: false, netError: 'net::ERR_TUNNEL_CONNECTION_FAILED', refusals: [refusal('unreachable', 'x:443')] }), { code: 'navigation_failed' })
})
