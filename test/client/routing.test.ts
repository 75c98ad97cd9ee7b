// Routing by profile over several hosts (docs/spec.md sections 11 and 14): rendezvous hashing in
// isolation, then three real hosts on 127.0.0.1 driven by the real client and CLI.
import t from 'tap'
import { AfhttpClient, type HostEvent } from '../../src/client/index.js'
import { until } from '../helpers/until.js'
import { hostForUrl, parseHostList, rendezvousPick, routeOf } from '../../src/client/routing.js'
import { startHost, type TestHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { runCli } from '../cli/_run.js'

const PROFILES = Array.from({ length: 30 }, (_, i) => `p${String(i).padStart(2, '0')}`)

t.test('rendezvous hashing', async (t) => {
  const hosts = ['http://a:1', 'http://b:2', 'http://c:3']
  const owners = new Map(PROFILES.map((p) => [p, rendezvousPick(p, hosts)]))
  t.same(new Set(owners.values()).size, 3, 'thirty profiles spread over all three hosts')
  for (const p of PROFILES) t.equal(rendezvousPick(p, [...hosts].reverse()), owners.get(p), `${p}: the order of the list does not matter`)
  const without = hosts.filter((h) => h !== 'http://b:2')
  for (const p of PROFILES) {
    const now = rendezvousPick(p, without)
    if (owners.get(p) !== 'http://b:2') t.equal(now, owners.get(p), `${p} stays where it was when another host leaves`)
    else t.not(now, 'http://b:2')
  }
  const added = [...hosts, 'http://d:4']
  for (const p of PROFILES) {
    const now = rendezvousPick(p, added)
    t.ok(now === owners.get(p) || now === 'http://d:4', `${p} moves only to the new host`)
  }
})

t.test('routes read from the call', async (t) => {
  t.same(routeOf('POST', '/v1/fetch', { url: 'http://x/', profile: 'shop' }), { kind: 'profile', profile: 'shop' })
  t.same(routeOf('POST', '/v1/fetch', { url: 'http://x/' }), { kind: 'profile', profile: 'default' }, 'no profile: the hosts\' default profile')
  t.same(routeOf('POST', '/v1/fetch', { tab_id: 'tab_x' }), { kind: 'tab', tabId: 'tab_x' })
  t.same(routeOf('POST', '/v1/cdp', { profile: 'shop', method: 'Browser.getVersion' }), { kind: 'profile', profile: 'shop' })
  t.same(routeOf('GET', '/v1/tabs/tab_abc/handoff', undefined), { kind: 'tab', tabId: 'tab_abc' })
  t.same(routeOf('PATCH', '/v1/profiles/shop', {}), { kind: 'profile', profile: 'shop' })
  t.same(routeOf('POST', '/v1/profiles', { name: 'new' }), { kind: 'profile', profile: 'new' })
  t.same(routeOf('GET', '/v1/profiles', undefined), { kind: 'all' })
  t.same(routeOf('GET', '/v1/tabs', undefined), { kind: 'all' })
  t.same(routeOf('GET', '/health', undefined), { kind: 'default' })
  t.same(parseHostList(' http://a:1/x/ ,http://b:2,,http://a:1/x'), ['http://a:1/x', 'http://b:2'])
  t.throws(() => parseHostList('ftp://a'), TypeError)
  t.equal(hostForUrl('https://ingress.example/r/afhttp-2/takeover/abc', ['https://ingress.example/r/afhttp-1', 'https://ingress.example/r/afhttp-2']), 'https://ingress.example/r/afhttp-2')
  t.equal(hostForUrl('https://ingress.example/r/afhttp-20/takeover/abc', ['https://ingress.example/r/afhttp-2']), undefined, 'a prefix matches whole path segments only')
})

t.test('three real hosts', async (t) => {
  const hosts: TestHost[] = []
  for (let i = 0; i < 3; i++) hosts.push(await startHost(t, { startBrowser: false, env: { AFHTTP_TAB_POOL: '0' } }))
  const urls = hosts.map((h) => h.url)
  const byUrl = new Map(hosts.map((h) => [h.url, h]))
  const token = hosts[0].token
  const client = new AfhttpClient({ url: urls.join(','), token })
  t.teardown(() => client.close())

  const placed = new Map<string, string>()
  for (const name of PROFILES) {
    await client.createProfile({ name })
    placed.set(name, await client.hostFor({ profile: name }))
  }
  // Every host also has its own `default` profile (created at start); only one host gets its calls.
  const onHost = async (h: TestHost): Promise<string[]> => ((await (await h.api('/v1/profiles')).json()).profiles as Array<{ name: string }>).map((p) => p.name).filter((n) => n !== 'default').sort()
  for (const h of hosts) {
    const mine = PROFILES.filter((p) => placed.get(p) === h.url)
    t.ok(mine.length > 0, `${h.url} owns some of the thirty profiles (${mine.length})`)
    t.same(await onHost(h), mine, `each profile was created on its own host only (${h.url})`)
  }
  t.same((await client.listProfiles()).profiles.map((p) => p.name).filter((n) => n !== 'default').sort(), PROFILES, 'listProfiles merges every host')

  // A second client, hosts in another order: every profile still reaches the same host.
  const again = new AfhttpClient({ hosts: [...urls].reverse(), token })
  t.teardown(() => again.close())
  for (const name of PROFILES) t.equal((await again.getProfile(name)).profile.name, name)
  for (const name of PROFILES) t.equal(await again.hostFor({ profile: name }), placed.get(name))

  // Losing a host moves only its profiles; the others keep theirs.
  const lost = urls[1]
  const two = new AfhttpClient({ hosts: urls.filter((u) => u !== lost), token })
  t.teardown(() => two.close())
  for (const name of PROFILES) {
    const now = await two.hostFor({ profile: name })
    if (placed.get(name) === lost) t.not(now, lost, `${name} moves off the lost host`)
    else t.equal(now, placed.get(name), `${name} stays`)
  }

  // A tab's follow-ups reach the host that owns it, even from a client that never saw it.
  const site = await startFixtureServer(t, { '/wall': { status: 403, body: '<!doctype html><title>Sign in</title><p>Please sign in to continue reading.</p>' } })
  // The default profile: /health (which the client checks before a takeover) watches its browser.
  const profile = 'default'
  const owner = byUrl.get(await client.hostFor({ profile }))!
  await owner.app.browsers.get(profile)
  // A just-started browser may need a moment before /health attests it (as test/e2e/health does).
  for (let i = 0; i < 40 && (await owner.api('/health')).status !== 200; i++) await new Promise((resolve) => setTimeout(resolve, 250))
  const res = await client.fetch({ url: `${site.url}/wall`, profile, takeover: true })
  t.equal(res.tab_retained, true, 'the takeover fetch kept its tab')
  const tabId = res.tab_id!
  t.ok(owner.app.tabs.find(tabId), 'on the profile\'s host')
  const panelUrl = res.actions![0].takeover_url_secret!
  t.equal(await client.hostFor({ panelUrl: String(panelUrl) }), owner.url, 'the panel URL names its host')
  const fresh = new AfhttpClient({ url: [...urls].reverse().join(','), token })
  t.teardown(() => fresh.close())
  t.equal((await fresh.getTab(tabId)).tab.tab_id, tabId, 'a fresh client finds the tab')
  t.equal((await fresh.handoffSummary(tabId)).state, 'open', 'and its handoff')
  t.equal((await fresh.snapshot(tabId, { capture: ['text'] })).tab_id, tabId)
  t.equal((await fresh.listTabs()).tabs.length, 1, 'listTabs merges every host')

  // Events over several hosts: one merged stream that follows every host, each event naming its
  // host; and waitForHandoff listens on the tab's own host even from a client that never saw it.
  const other = hosts.find((h) => h !== owner)!
  const seen: Array<HostEvent & { host?: string }> = []
  const stop = new AbortController()
  let opens = 0
  const collecting = (async () => {
    for await (const e of client.events({ signal: stop.signal, onOpen: () => { opens++ } })) seen.push(e)
  })()
  await until(() => opens === 3, 'a stream open on each of the three hosts')
  const waiter = new AfhttpClient({ url: [...urls].reverse().join(','), token })
  t.teardown(() => waiter.close())
  const waiting = waiter.waitForHandoff(tabId)
  await other.app.browsers.get(profile)
  const finished = await client.finishHandoff(tabId, String(res.actions![0].handoff_fence))
  t.equal(finished.state, 'finished')
  t.equal((await waiting).state, 'finished', 'waitForHandoff heard the ending on the tab\'s host')
  await until(() => seen.some((e) => e.host === other.url && e.type === 'browser.started') &&
    seen.some((e) => e.host === owner.url && e.type === 'handoff.finished' && e.tab_id === tabId), 'events from two hosts in one stream')
  t.pass('one stream carries events from every host, each naming it')
  stop.abort()
  await collecting
  t.throws(() => client.events({ lastEventId: 3 }), { code: 'invalid_request' }, 'one id cannot resume several hosts')
  t.throws(() => client.events({ host: 'http://127.0.0.1:1' }), { code: 'invalid_request' }, 'only a host of the list')
  const one = client.events({ host: owner.url, lastEventId: { [owner.url]: 0 } })
  const first = await one.next()
  t.equal(first.value?.host, owner.url, 'one host picked out of several, resumed from its own id')
  await one.return(undefined)
  const evCli = await runCli(['events', '--json', '--count', '1', '--host', owner.url, '--last-event-id', '1'], { AFHTTP_URL: urls.join(','), AFHTTP_TOKEN: token })
  t.equal(evCli.code, 0, evCli.stderr)
  t.equal(JSON.parse(evCli.stdout.trim().split('\n')[0]).host, owner.url, 'afhttp events --host follows one host of several')
  const ambiguous = await runCli(['events', '--count', '1', '--last-event-id', '1'], { AFHTTP_URL: urls.join(','), AFHTTP_TOKEN: token })
  t.not(ambiguous.code, 0, 'one id over several hosts is refused')
  t.match(ambiguous.stderr, /lastEventId|--host|several hosts/)
  const cli = await runCli(['tabs', '--json'], { AFHTTP_URL: urls.join(','), AFHTTP_TOKEN: token })
  t.equal(cli.code, 0, cli.stderr)
  t.same(JSON.parse(cli.stdout).tabs.map((x: { tab_id: string }) => x.tab_id), [tabId], 'the CLI routes over AFHTTP_URL too')
  const closeCli = await runCli(['close', tabId], { AFHTTP_URL: [...urls].reverse().join(','), AFHTTP_TOKEN: token })
  t.equal(closeCli.code, 0, closeCli.stderr)
  t.notOk(owner.app.tabs.find(tabId), 'the CLI closed the tab on its host')
  const gone = await fresh.getTab(tabId).catch((err: { code: string }) => err)
  t.equal((gone as { code: string }).code, 'tab_not_found', 'an unknown tab is tab_not_found, as with one host')
})
