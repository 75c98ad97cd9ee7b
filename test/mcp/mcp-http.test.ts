// /mcp on the host (docs/spec.md section 18): the SDK's own client over Streamable HTTP, a gated page,
// a person in a second Chromium who opens the elicited link and gets through in the panel.
import t from 'tap'
import { startHost, TEST_TOKEN } from '../helpers/host.js'
import { launchViewerBrowser } from '../helpers/panel-browser.js'
import { until } from '../helpers/until.js'
import { mcpOverHttp, structured, toolError } from '../helpers/mcp-client.js'
import { passGate, startGateSite, warmHost } from './_gate.js'

t.test('/mcp refuses a request without the API token', async (t) => {
  const ops = 'ops-token-0123456789abcdef'
  const host = await startHost(t, { startBrowser: false, env: { AFHTTP_OPS_TOKEN: ops } })
  const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }
  for (const [auth, status, code] of [[undefined, 401, 'unauthorized'], ['Bearer wrong-token', 401, 'unauthorized'], [`Bearer ${ops}`, 403, 'forbidden']] as const) {
    const res = await fetch(`${host.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(auth ? { authorization: auth } : {}) }, body: JSON.stringify(init) })
    t.equal(res.status, status, `${auth === undefined ? 'no bearer' : auth.slice(0, 12)}: ${status}`)
    t.equal((await res.json()).error.code, code)
  }
  t.equal(host.app.mcpSessions.size, 0, 'no session was opened')
  await t.rejects(mcpOverHttp(t, host.url, 'wrong-token'), 'the SDK client cannot connect with a wrong token')
})

t.test('MCP over Streamable HTTP', async (t) => {
  const host = await warmHost(t)
  const site = await startGateSite(t)
  const browser = await launchViewerBrowser(t)

  t.test('tools are listed with the host\'s schemas', async (t) => {
    const mcp = await mcpOverHttp(t, host.url, TEST_TOKEN)
    const { tools } = await mcp.client.listTools()
    t.same(tools.map((x) => x.name).sort(), ['close_tab', 'fetch_page', 'list_tabs', 'snapshot', 'wait_for_person'])
    const fetchPage = tools.find((x) => x.name === 'fetch_page')!
    t.same(fetchPage.inputSchema.required, ['url'])
    t.match(fetchPage.inputSchema.properties, { url: { type: 'string', maxLength: 8192 }, instructions: { maxLength: 500 }, max_chars: { type: 'integer' }, takeover: { type: 'boolean' } })
    t.match(fetchPage.outputSchema?.properties, { ok: { type: 'boolean' }, page_kind: { enum: ['content', 'challenge', 'denied', 'http_error', 'empty'] }, handoff: {} })
  })

  t.test('a content page comes back as text, bounded by max_chars', async (t) => {
    const mcp = await mcpOverHttp(t, host.url, TEST_TOKEN)
    const page = structured(await mcp.call('fetch_page', { url: `${site.url}/plain`, max_chars: 40 }))
    t.match(page, { ok: true, status: 200, page_kind: 'content', title: 'Members & friends', text_truncated: true })
    t.equal(page.text.length, 40)
    t.ok(page.text_chars > 40)
    t.equal(page.person, undefined, 'nobody is needed')
  })

  t.test('bad arguments: a clear tool error, nothing opened', async (t) => {
    const mcp = await mcpOverHttp(t, host.url, TEST_TOKEN)
    const before = host.app.tabs.list().length
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'url'],
      [{ url: `${site.url}/plain`, max_chars: -1 }, 'max_chars'],
      [{ url: `${site.url}/plain`, colour: 'red' }, 'colour'],
      [{ url: `${site.url}/plain`, instructions: 'x'.repeat(501) }, 'instructions']
    ]
    for (const [args, field] of cases) {
      const err = toolError(await mcp.call('fetch_page', args))
      t.match(err, { code: 'invalid_request', details: { field } }, `${JSON.stringify(args).slice(0, 60)} → ${field}`)
    }
    t.match(toolError(await mcp.call('fetch_page', { url: 'file:///etc/passwd', takeover: false })), { code: 'url_not_allowed' }, 'the host\'s own code')
    t.match(toolError(await mcp.call('snapshot', { tab_id: 'tab_nosuchtab000000' })), { code: 'tab_not_found' })
    t.equal(host.app.tabs.list().length, before, 'no tab was opened')
  })

  t.test('a client without URL elicitation gets the link, then wait_for_person', async (t) => {
    const mcp = await mcpOverHttp(t, host.url, TEST_TOKEN)
    const first = structured(await mcp.call('fetch_page', { url: `${site.url}/members`, instructions: 'Press Continue.' }))
    t.match(first, { ok: false, page_kind: 'challenge', person: { needed: true, reason: 'challenge', outcome: 'waiting' }, handoff: { state: 'open' } })
    t.match(first.person.panel_url, /\/takeover\//, 'the link is in the result for such a client')
    t.equal(first.handoff.handoff_fence, undefined, 'no fence in the result')
    const waiting = mcp.call('wait_for_person', { tab_id: first.tab_id, timeout_s: 120 })
    await passGate(host, browser, first.person.panel_url)
    const after = structured(await waiting)
    t.match(after, { ok: true, page_kind: 'content', tab_id: first.tab_id, handoff: { state: 'finished', finish_reason: /^(auto_detected|human_done)$/ } })
    t.match(after.text, /Members area/)
    t.ok(mcp.progress.length >= 1, 'progress was reported while the person worked')
    t.notOk(host.logs.text().includes(first.person.panel_url.split('/takeover/')[1]), 'the link never reached a log')
  })

  t.test('URL elicitation: the person opens the elicited link and gets through', async (t) => {
    let passing: Promise<void> | undefined
    // A person who cannot get through ends the call (the client closes) rather than waiting out the hold.
    const mcp = await mcpOverHttp(t, host.url, TEST_TOKEN, {
      answer: (e) => { passing = passGate(host, browser, e.url).catch(async (err: unknown) => { await mcp.close(); throw err }); return 'accept' }
    })
    const result = await mcp.call('fetch_page', { url: `${site.url}/members`, instructions: 'Press Continue, please.' })
    await passing
    const page = structured(result)
    t.match(page, { ok: true, status: 200, page_kind: 'content', handoff: { state: 'finished', finish_reason: /^(auto_detected|human_done)$/ } })
    t.match(page.text, /Members area/)
    t.equal(mcp.elicited.length, 1)
    t.match(mcp.elicited[0].message, /needs a person: the page shows a bot check/)
    t.match(mcp.elicited[0].message, /Press Continue, please\./)
    t.same(mcp.completed, [mcp.elicited[0].elicitationId], 'notifications/elicitation/complete for that elicitation')
    t.ok(mcp.progress.length >= 1, 'progress while the person worked')
    const secret = mcp.elicited[0].url.split('/takeover/')[1]
    t.notOk(JSON.stringify(result).includes(secret) || JSON.stringify(result).includes('/takeover/'), 'the link is not in the tool result')
    t.notOk(host.logs.text().includes(secret), 'nor in a log')
  })

  for (const action of ['decline', 'cancel'] as const) {
    t.test(`an elicitation answered "${action}" ends the handoff human_declined`, async (t) => {
      const mcp = await mcpOverHttp(t, host.url, TEST_TOKEN, { answer: () => action })
      const page = structured(await mcp.call('fetch_page', { url: `${site.url}/members` }))
      t.match(page, { ok: false, person: { needed: true, outcome: 'declined' }, handoff: { state: 'finished', finish_reason: 'human_declined' } })
      t.equal(page.person.panel_url, undefined)
      const summary = await (await host.api(`/v1/tabs/${page.tab_id}/handoff`)).json()
      t.match(summary, { state: 'finished', finish_reason: 'human_declined' })
      t.ok(host.app.tabs.find(page.tab_id)?.retained, 'the tab stays retained for the agent')
      t.same(mcp.completed, [], 'nothing to complete: the person never started')
      t.match(structured(await mcp.call('close_tab', { tab_id: page.tab_id })), { closed: true, tab_id: page.tab_id })
    })
  }

  t.test('a client that goes away while the person works: the handoff stays, nothing leaks', async (t) => {
    let asked!: () => void
    const elicited = new Promise<void>((resolve) => { asked = resolve })
    const connections = (): Promise<number> => new Promise((resolve, reject) => host.app.server.getConnections((err, n) => err ? reject(err) : resolve(n)))
    // Settle first: idle keep-alive connections of the earlier tests close within seconds.
    const settleUntil = Date.now() + 15_000
    let baseline = await connections()
    while (baseline > 0 && Date.now() < settleUntil) { await new Promise((resolve) => setTimeout(resolve, 250)); baseline = await connections() }
    const mcp = await mcpOverHttp(t, host.url, TEST_TOKEN, { answer: () => { asked(); return 'accept' } })
    const call = mcp.call('fetch_page', { url: `${site.url}/members?who=leaver` }).catch((err: unknown) => err)
    await elicited
    await until(() => mcp.progress.length >= 1, 'a progress notification')
    const tab = host.app.tabs.list().find((x) => x.page.url().endsWith('?who=leaver'))
    t.ok(tab, 'the handoff is open')
    await mcp.close()
    t.type(await call, Error, 'the call ends on the client side')
    await until(() => host.app.mcpSessions.size === 0, 'the session to end', 15_000)
    const summary = await (await host.api(`/v1/tabs/${tab!.id}/handoff`)).json()
    t.match(summary, { state: 'open' }, 'the handoff stays for a person and wait_for_person')
    // The tools' own calls to the host (the event stream they waited on) are closed too: idle
    // keep-alive connections go within seconds, a leaked stream would stay.
    const end = Date.now() + 30_000
    let open = await connections()
    while (open > baseline && Date.now() < end) { await new Promise((resolve) => setTimeout(resolve, 250)); open = await connections() }
    t.ok(open <= baseline, `no connection to the host is left open (${open} now, ${baseline} before)`)

    // The agent comes back: wait_for_person asks its person again, with a fresh link for the same handoff.
    let passing: Promise<void> | undefined
    const again = await mcpOverHttp(t, host.url, TEST_TOKEN, {
      answer: (e) => { passing = passGate(host, browser, e.url).catch(async (err: unknown) => { await again.close(); throw err }); return 'accept' }
    })
    const result = await again.call('wait_for_person', { tab_id: tab!.id, timeout_s: 300 })
    await passing
    t.match(structured(result), { ok: true, page_kind: 'content', tab_id: tab!.id, handoff: { state: 'finished', handoff_fence: undefined } })
    t.equal(again.elicited.length, 1, 'the person was asked again')
    t.match(again.elicited[0].message, /still needs a person/)
    t.same(again.completed, [again.elicited[0].elicitationId])
    // A successful takeover re-fetch may recycle the tab (docs/spec.md section 6): close it if it is still there.
    await host.api(`/v1/tabs/${tab!.id}`, { method: 'DELETE', headers: { connection: 'close' } })
  })
})
