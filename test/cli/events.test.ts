import t from 'tap'
import { createServer } from 'node:net'
import { startHost, type TestHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { startCli } from './_run.js'
import { until } from '../helpers/until.js'

const GATE = '<!doctype html><title>Just a moment...</title><p>Hang tight! We are checking your browser</p>'

async function untilAsync (cond: () => Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms
  while (!await cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** GET reads of a tab's handoff summary, counted from the host's own request log. */
function summaryReads (host: TestHost, tabId: string): number {
  return host.logs.lines.filter((l) => l.msg === 'incoming request' && (l.req as { method?: string, url?: string } | undefined)?.method === 'GET' && (l.req as { url?: string }).url === `/v1/tabs/${tabId}/handoff`).length
}

t.test('afhttp events and --wait-for-human on events', async (t) => {
  const host = await startHost(t)
  let passed = false
  const site = await startFixtureServer(t, { '/gate': { body: () => (passed ? '<title>In</title><p>Members content is here</p>' : GATE) }, '/plain': { body: '<title>Plain</title><p>Plain page text</p>' } })
  const env = { AFHTTP_URL: host.url, AFHTTP_TOKEN: host.token }

  t.test('prints events as JSON lines and stops after --count', async (t) => {
    const cli = startCli(['events', '--count', '2', '--json'], env)
    await until(() => host.app.events.subscribers() >= 1, 'the CLI to connect')
    await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/plain` }) })
    const res = await cli.done
    t.equal(res.code, 0, res.stderr)
    const lines = res.stdout.trim().split('\n').map((l) => JSON.parse(l))
    t.same(lines.map((e) => e.type), ['tab.opened', 'tab.closed'])
    t.equal(lines[0].tab_id, lines[1].tab_id)
  })

  t.test('a human line per event; handoff.opened shows the panel URL; --tab filters', async (t) => {
    const fetched = await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/gate`, takeover: true }) })).json()
    const tabId = fetched.tab_id as string
    const from = host.app.events.journal.recent().find((e) => e.tab_id === tabId)!.id - 1
    const res = await startCli(['events', '--last-event-id', String(from), '--tab', tabId, '--count', '2'], env).done
    t.equal(res.code, 0, res.stderr)
    const [opened, handoff] = res.stdout.trim().split('\n')
    t.match(opened, new RegExp(`^\\d+ \\S+Z tab\\.opened tab=${tabId} profile=default`))
    t.match(handoff, new RegExp(`handoff\\.opened tab=${tabId} profile=default takeover_url_secret=\\S+/takeover/\\S+`))
    await host.api(`/v1/tabs/${tabId}`, { method: 'DELETE' })
  })

  t.test('a host that is not there: exit 4', async (t) => {
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as { port: number }).port
    await new Promise<void>((resolve) => server.close(() => resolve()))
    const res = await startCli(['events'], { AFHTTP_URL: `http://127.0.0.1:${port}`, AFHTTP_TOKEN: host.token }).done
    t.equal(res.code, 4, res.stderr)
  })

  t.test('--wait-for-human reads the summary on events instead of polling', async (t) => {
    // The CLI checks /health before a takeover fetch: start once the host says it is ready.
    await untilAsync(async () => ((await (await host.api('/health')).json()) as { status: { takeover_ready: boolean } }).status.takeover_ready, '/health to be ready')
    const cli = startCli(['fetch', `${site.url}/gate`, '--wait-for-human', '--poll-ms', '100', '--capture', 'text'], env)
    const [, tabId] = await cli.waitFor(/^tab\s+(\S+) \(retained\)$/m)
    await cli.waitFor(/waiting for a person · /)
    const before = summaryReads(host, tabId)
    // Polling at 100 ms would read the summary about 15 times in this while.
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    t.equal(summaryReads(host, tabId), before, 'no reads while nothing happens')
    passed = true
    const fence = host.app.handoffs.current(tabId)!.fence
    await host.api(`/v1/tabs/${tabId}/handoff/finish`, { method: 'POST', body: JSON.stringify({ handoff_fence: fence }) })
    const res = await cli.done
    t.equal(res.code, 0, res.stderr)
    t.match(res.stderr, `fetching tab ${tabId} again`)
    t.ok(summaryReads(host, tabId) - before <= 2, 'one read after the finish event')
  })
})
