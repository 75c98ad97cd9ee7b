// `afhttp mcp` over stdio (docs/spec.md section 18): the built CLI spawned by the SDK's own client, over
// one and over several hosts; a person in a second Chromium gets through the elicited link.
import t from 'tap'
import { rendezvousPick } from '../../src/client/routing.js'
import { TEST_TOKEN, type TestHost } from '../helpers/host.js'
import { launchViewerBrowser } from '../helpers/panel-browser.js'
import { until } from '../helpers/until.js'
import { mcpOverStdio, structured, toolError } from '../helpers/mcp-client.js'
import { passGate, startGateSite, warmHost, warmProfile } from './_gate.js'

t.test('over one host: elicitation, a person, the page after; a client that goes away', async (t) => {
  const host = await warmHost(t)
  const site = await startGateSite(t)
  const browser = await launchViewerBrowser(t)

  t.test('the person opens the elicited link and gets through', async (t) => {
    let passing: Promise<void> | undefined
    // A person who cannot get through ends the call (the client closes) rather than waiting out the hold.
    const mcp = await mcpOverStdio(t, { AFHTTP_URL: host.url, AFHTTP_TOKEN: TEST_TOKEN }, {
      answer: (e) => { passing = passGate(host, browser, e.url).catch(async (err: unknown) => { await mcp.close(); throw err }); return 'accept' }
    })
    const result = await mcp.call('fetch_page', { url: `${site.url}/members`, instructions: 'Press Continue.', max_chars: 1000 })
    await passing
    const page = structured(result)
    t.match(page, { ok: true, page_kind: 'content', title: 'Members & friends', handoff: { state: 'finished', finish_reason: /^(auto_detected|human_done)$/ } })
    t.match(page.text, /Members area/)
    t.same(mcp.completed, [mcp.elicited[0]?.elicitationId], 'the elicitation is completed')
    t.notOk(JSON.stringify(result).includes('/takeover/'), 'no link in the result')
    const secret = mcp.elicited[0].url.split('/takeover/')[1]
    t.notOk(mcp.stderr().includes(secret) || host.logs.text().includes(secret), 'no link in a log')
  })

  t.test('bad arguments are a tool error; nothing is opened', async (t) => {
    const mcp = await mcpOverStdio(t, { AFHTTP_URL: host.url, AFHTTP_TOKEN: TEST_TOKEN })
    const before = host.app.tabs.list().length
    t.match(toolError(await mcp.call('wait_for_person', { tab_id: 'tab_x', timeout_s: 0 })), { code: 'invalid_request', details: { field: 'timeout_s' } })
    t.match(toolError(await mcp.call('close_tab', {})), { code: 'invalid_request', details: { field: 'tab_id' } })
    t.match(toolError(await mcp.call('fetch_page', { url: `${site.url}/plain`, profile: '../etc' })), { code: 'invalid_request', details: { field: 'profile' } })
    t.equal(host.app.tabs.list().length, before)
  })

  t.test('a client that goes away while the person works: the handoff stays, the process ends', async (t) => {
    let asked!: () => void
    const elicited = new Promise<void>((resolve) => { asked = resolve })
    const mcp = await mcpOverStdio(t, { AFHTTP_URL: host.url, AFHTTP_TOKEN: TEST_TOKEN }, { answer: () => { asked(); return 'accept' } })
    const pid = (mcp.transport as unknown as { pid: number | null }).pid
    const call = mcp.call('fetch_page', { url: `${site.url}/members?who=leaver` }).catch((err: unknown) => err)
    await elicited
    await until(() => mcp.progress.length >= 1, 'a progress notification')
    const tab = host.app.tabs.list().find((x) => x.page.url().endsWith('?who=leaver'))
    t.ok(tab, 'the handoff is open')
    await mcp.close()
    t.type(await call, Error)
    const alive = (): boolean => { try { process.kill(pid!, 0); return true } catch { return false } }
    await until(() => !alive(), 'afhttp mcp to exit', 15_000)
    t.match(await (await host.api(`/v1/tabs/${tab!.id}/handoff`)).json(), { state: 'open' }, 'the handoff stays')
    await host.api(`/v1/tabs/${tab!.id}`, { method: 'DELETE' })
  })
})

/** A profile name rendezvous hashing puts on `want`, created there. */
async function profileOn (hosts: TestHost[], want: TestHost): Promise<string> {
  for (let i = 0; ; i++) {
    const name = `agent-${i}`
    if (rendezvousPick(name, hosts.map((h) => h.url)) === want.url) {
      await warmProfile(want, name)
      return name
    }
  }
}

t.test('over several hosts: calls go where the profile and the tab live', async (t) => {
  // A takeover fetch checks the host's /health (its default profile) first: both are warmed.
  const a = await warmHost(t)
  const b = await warmHost(t)
  const site = await startGateSite(t)
  const onA = await profileOn([a, b], a)
  const onB = await profileOn([a, b], b)
  const mcp = await mcpOverStdio(t, { AFHTTP_URL: `${a.url},${b.url}`, AFHTTP_TOKEN: TEST_TOKEN })
  const pa = structured(await mcp.call('fetch_page', { url: `${site.url}/members`, profile: onA }))
  const pb = structured(await mcp.call('fetch_page', { url: `${site.url}/members`, profile: onB }))
  t.ok(a.app.tabs.find(pa.tab_id) && !b.app.tabs.find(pa.tab_id), `${onA} was fetched on host A`)
  t.ok(b.app.tabs.find(pb.tab_id) && !a.app.tabs.find(pb.tab_id), `${onB} was fetched on host B`)
  for (const p of [pa, pb]) t.match(p.person, { needed: true, panel_url: /\/takeover\// }, 'no URL elicitation: the link is in the result')
  const listed = structured(await mcp.call('list_tabs', {}))
  t.same(listed.tabs.map((x: { tab_id: string }) => x.tab_id).sort(), [pa.tab_id, pb.tab_id].sort(), 'list_tabs asks every host')
  t.notOk(JSON.stringify(listed).includes('handoff_fence'), 'no fence in the list')
  const snap = structured(await mcp.call('snapshot', { tab_id: pb.tab_id }))
  t.match(snap, { tab_id: pb.tab_id, page_kind: 'challenge', handoff: { state: 'open' } }, 'a tab call goes to the host that has it')
  for (const p of [pa, pb]) t.match(structured(await mcp.call('close_tab', { tab_id: p.tab_id })), { closed: true })
  t.equal(a.app.tabs.list().length + b.app.tabs.list().length, 0, 'both tabs closed on their hosts')
})
