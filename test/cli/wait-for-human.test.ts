import t from 'tap'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startHost, type TestHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { startCli } from './_run.js'

const GATE = '<!doctype html><title>Just a moment...</title><p>Hang tight! We are checking your browser</p>'
const CONTENT = '<!doctype html><title>Inside</title><main><h1>Members area</h1><p>Welcome back, the content is here.</p></main>'

/** Splits a command line printed by the CLI (POSIX single quotes only). */
function shellWords (line: string): string[] {
  const words: string[] = []
  for (const m of line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)) words.push(m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2])
  return words
}

async function summary (host: TestHost, tabId: string): Promise<{ state: string, handoff_fence: string }> {
  return (await host.api(`/v1/tabs/${tabId}/handoff`)).json() as Promise<{ state: string, handoff_fence: string }>
}

t.test('fetch --wait-for-human', async (t) => {
  const host = await startHost(t)
  let passed = false
  const site = await startFixtureServer(t, { '/members': { body: () => (passed ? CONTENT : GATE) } })
  const env = { AFHTTP_URL: host.url, AFHTTP_TOKEN: host.token }
  t.beforeEach(() => { passed = false })

  t.test('prints the URL, shows progress, and re-fetches the same tab when the handoff finishes', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'afhttp-wait-'))
    t.teardown(() => rm(dir, { recursive: true, force: true }))
    const cli = startCli(['fetch', `${site.url}/members`, '--wait-for-human', '--poll-ms', '100', '--capture', 'text', '--out', dir], env)
    const [, tabId] = await cli.waitFor(/^tab\s+(\S+) \(retained\)$/m)
    await cli.waitFor(/\/takeover\/\S+\n/)
    const [progress] = await cli.waitFor(/waiting for a person · \d+:\d\d elapsed · \d+:\d\d hold left · panel not opened yet · host checking for completion \(\d+ checks? left\)/)
    t.ok(progress, 'a progress line with elapsed, hold left and the completion checks')
    t.equal(cli.child.exitCode, null, 'still waiting while the handoff is open')

    // The person gets through (the site now lets this browser in) and the handoff ends.
    passed = true
    const { handoff_fence: fence } = await summary(host, tabId)
    const fin = await host.api(`/v1/tabs/${tabId}/handoff/finish`, { method: 'POST', body: JSON.stringify({ handoff_fence: fence }) })
    t.equal(fin.status, 200)

    const res = await cli.done
    t.equal(res.code, 0, res.stderr)
    t.match(res.stderr, `fetching tab ${tabId} again`)
    const final = res.stdout.slice(res.stdout.lastIndexOf('ok         '))
    t.match(final, /^ok\s+yes$/m)
    t.match(final, /^status\s+200\s+\(content\)$/m)
    t.match(final, new RegExp(`^tab\\s+${tabId}`, 'm'), 'the same tab was re-fetched')
    const written = JSON.parse(await readFile(join(dir, 'result.json'), 'utf8'))
    t.equal(written.ok, true, '--out holds the final result')
    t.match(await readFile(join(dir, 'page.txt'), 'utf8'), /Members area/)
  })

  t.test('with --json stdout carries only the final result; the URL goes to stderr', async (t) => {
    const cli = startCli(['fetch', `${site.url}/members`, '--wait-for-human', '--poll-ms', '100', '--json'], env)
    await cli.waitFor(/Open this panel URL:\nhttps?:\/\/\S+\/takeover\/\S+\n/)
    const tabs = await (await host.api('/v1/tabs')).json() as { tabs: Array<{ tab_id: string, handoff: { state: string } | null }> }
    const tabId = tabs.tabs.find((x) => x.handoff?.state === 'open')!.tab_id
    passed = true
    const { handoff_fence: fence } = await summary(host, tabId)
    await host.api(`/v1/tabs/${tabId}/handoff/finish`, { method: 'POST', body: JSON.stringify({ handoff_fence: fence }) })
    const res = await cli.done
    t.equal(res.code, 0, res.stderr)
    const result = JSON.parse(res.stdout)
    t.equal(result.ok, true)
    t.equal(result.tab_id, tabId)
    t.notMatch(res.stdout, /\/takeover\//)
  })

  t.test('Ctrl-C keeps the tab and prints how to resume; the resume command waits on the same handoff', async (t) => {
    const cli = startCli(['fetch', `${site.url}/members`, '--wait-for-human', '--poll-ms', '100', '--capture', 'text'], env)
    const [, tabId] = await cli.waitFor(/^tab\s+(\S+) \(retained\)$/m)
    await cli.waitFor(/waiting for a person/)
    cli.child.kill('SIGINT')
    const res = await cli.done
    t.equal(res.code, 3)
    t.match(res.stderr, `Tab ${tabId} stays retained with its handoff open`)
    const resume = /resume with:\n\s+(afhttp .+)\n/.exec(res.stderr)?.[1]
    t.ok(resume, 'prints a resume command')
    t.match(resume, `--tab ${tabId}`)
    t.match(resume, '--wait-for-human')
    t.match(resume, '--capture text')
    t.notMatch(res.stderr + res.stdout, host.token)
    t.equal((await summary(host, tabId)).state, 'open', 'the handoff is still open')
    t.ok(host.app.tabs.find(tabId), 'the tab is still there')

    const again = startCli([...shellWords(resume!).slice(1), '--poll-ms', '100'], env)
    await again.waitFor(new RegExp(`tab ${tabId} already has an open handoff; waiting on it`))
    await again.waitFor(/waiting for a person/)
    await host.api(`/v1/tabs/${tabId}`, { method: 'DELETE' })
    const gone = await again.done
    t.equal(gone.code, 3)
    t.match(gone.stderr, /no longer exists \(tab_not_found\)/)
  })
})

t.test('fetch --wait-for-human when the hold expires: exit 3 with a clear message', async (t) => {
  const host = await startHost(t, { env: { AFHTTP_HANDOFF_HOLD_MS: '2000' } })
  const site = await startFixtureServer(t, { '/gate': { body: GATE } })
  const cli = startCli(['fetch', `${site.url}/gate`, '--wait-for-human', '--poll-ms', '100', '--json'], { AFHTTP_URL: host.url, AFHTTP_TOKEN: host.token })
  const res = await cli.done
  t.equal(res.code, 3)
  t.match(res.stderr, /the handoff expired at \S+ before a person finished/)
  const first = JSON.parse(res.stdout)
  t.equal(first.ok, false, '--json ends with the result a person was needed for')
  t.equal(first.actions[0].kind, 'human_takeover')
})
