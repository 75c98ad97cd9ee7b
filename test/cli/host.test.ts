import t from 'tap'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { startHost } from '../helpers/host.js'
import { runCli, type CliRun } from './_run.js'

t.test('the CLI against a real host', async (t) => {
  const host = await startHost(t)
  const env = { AFHTTP_URL: host.url, AFHTTP_TOKEN: host.token }
  const outputs: CliRun[] = []
  const cli = async (args: string[], extra: Record<string, string | undefined> = env): Promise<CliRun> => {
    const res = await runCli(args, extra)
    outputs.push(res)
    return res
  }

  t.test('health: readable summary, exit 0 when ready', async (t) => {
    // A just-started browser on a busy machine may miss the first screencast check; wait for the host to say ready.
    for (let i = 0; i < 20 && !(await (await host.api('/health')).json()).status.takeover_ready; i++) await new Promise((resolve) => setTimeout(resolve, 250))
    const res = await cli(['health'])
    t.equal(res.code, 0, res.stderr)
    t.match(res.stdout, /takeover\s+ready/)
    t.match(res.stdout, /backend\s+connected \(profile default, chromium\)/)
    t.match(res.stdout, /screencast_frame\s+ok/)
  })

  t.test('health --json prints the exact body', async (t) => {
    const res = await cli(['health', '--json'])
    t.equal(res.code, 0)
    const body = JSON.parse(res.stdout)
    t.equal(body.status.takeover_ready, true)
    t.same(body.profile, { name: host.config.defaultProfile, backend: 'chromium' })
  })

  t.test('capabilities works without a token', async (t) => {
    const res = await cli(['capabilities'], { AFHTTP_URL: host.url })
    t.equal(res.code, 0, res.stderr)
    t.match(res.stdout, /service\s+afhttp/)
    t.match(res.stdout, /selector-stable:<css>/)
    const json = await cli(['capabilities', '--json'], { AFHTTP_URL: host.url })
    t.equal(JSON.parse(json.stdout).api_version, 'v1')
  })

  t.test('global flags may come before the command', async (t) => {
    const res = await cli(['--url', host.url, '--token', host.token, 'tabs', '--json'], {})
    t.equal(res.code, 0, res.stderr)
    t.same(JSON.parse(res.stdout), { tabs: [] })
  })

  t.test('profiles: list, create, show', async (t) => {
    const created = await cli(['profiles', 'create', 'shop', '--label', 'team=a', '--label', 'env=prod'])
    t.equal(created.code, 0, created.stderr)
    t.match(created.stdout, 'created profile shop (chromium)')
    const listed = await cli(['profiles'])
    t.equal(listed.code, 0)
    t.match(listed.stdout, /^NAME\s+BACKEND/m)
    t.match(listed.stdout, /^shop\s+chromium\s+\S+\s+team=a,env=prod$/m)
    t.match(listed.stdout, /^default\s+chromium/m)
    const json = await cli(['profiles', '--json'])
    t.ok(JSON.parse(json.stdout).profiles.some((p: { name: string }) => p.name === 'shop'))
    const shown = await cli(['profiles', 'show', 'shop'])
    t.equal(shown.code, 0)
    t.match(shown.stdout, /labels\s+team=a, env=prod/)
    const dup = await cli(['profiles', 'create', 'shop'])
    t.equal(dup.code, 1)
    t.match(dup.stderr, /profile_exists/)
    const bad = await cli(['profiles', 'create', 'Bad Name'])
    t.equal(bad.code, 1)
    t.match(bad.stderr, /invalid_request: name/)
  })

  t.test('profiles create takes a network identity; the proxy password never comes back', async (t) => {
    const created = await cli(['profiles', 'create', 'paris', '--proxy', 'http://user:s3cret-pass@127.0.0.1:3128', '--timezone', 'Europe/Paris', '--locale', 'fr-FR'])
    t.equal(created.code, 0, created.stderr)
    const shown = await cli(['profiles', 'show', 'paris'])
    t.equal(shown.code, 0, shown.stderr)
    t.match(shown.stdout, /^proxy\s+http:\/\/user:redacted@127\.0\.0\.1:3128\/?$/m)
    t.match(shown.stdout, /^timezone\s+Europe\/Paris$/m)
    t.match(shown.stdout, /^locale\s+fr-FR$/m)
    t.notMatch(created.stdout + created.stderr + shown.stdout + shown.stderr, /s3cret-pass/, 'the password is never printed')
    const meta = JSON.parse(await readFile(join(host.profilesDir, 'paris', 'afhttp-profile.json'), 'utf8'))
    t.equal(meta.proxy, 'http://user:s3cret-pass@127.0.0.1:3128', 'the file keeps it, for the browser')
    const wrong = await cli(['profiles', 'create', 'tokyo', '--timezone', 'Mars/Olympus'])
    t.equal(wrong.code, 1)
    t.match(wrong.stderr, /timezone/)
  })

  t.test('tabs lists an open tab', async (t) => {
    const tab = await host.app.tabs.open(host.config.defaultProfile)
    const res = await cli(['tabs'])
    t.equal(res.code, 0)
    t.match(res.stdout, /^TAB\s+PROFILE\s+CONTROLLER\s+RETAINED\s+IDLE\s+HANDOFF\s+URL$/m)
    t.match(res.stdout, new RegExp(`^${tab.id}\\s+default\\s+agent`, 'm'))
    const closed = await cli(['close', tab.id])
    t.equal(closed.code, 0)
    t.match(closed.stdout, `closed ${tab.id}`)
    t.notOk(host.app.tabs.find(tab.id), 'the tab is really gone')
  })

  t.test('close on a missing tab: exit 1, tab_not_found', async (t) => {
    const res = await cli(['close', 'tab_missing'])
    t.equal(res.code, 1)
    t.match(res.stderr, /tab_not_found/)
    t.match(res.stderr, /HTTP 404/)
    const json = await cli(['close', 'tab_missing', '--json'])
    t.equal(JSON.parse(json.stdout).error.code, 'tab_not_found')
  })

  t.test('cdp Browser.getVersion prints the result as JSON', async (t) => {
    const res = await cli(['cdp', 'Browser.getVersion'])
    t.equal(res.code, 0, res.stderr)
    t.match(JSON.parse(res.stdout), { product: /Chrome/ })
    const withParams = await cli(['cdp', 'Target.getTargets', '{}'])
    t.equal(withParams.code, 0, withParams.stderr)
    t.ok(Array.isArray(JSON.parse(withParams.stdout).targetInfos))
    const refused = await cli(['cdp', 'Nope.nothing'])
    t.equal(refused.code, 1)
    t.match(refused.stderr, /cdp_command_failed/)
  })

  t.test('a wrong token: exit 1, explained as a rejected token, never echoed', async (t) => {
    const wrong = 'wrong-token-abcdefghijklmnop'
    const res = await cli(['tabs'], { AFHTTP_URL: host.url, AFHTTP_TOKEN: wrong })
    t.equal(res.code, 1)
    t.match(res.stderr, /token rejected: the host answered 401 unauthorized/)
    t.notMatch(res.stdout + res.stderr, wrong)
    const flag = await cli(['health', '--token', wrong], { AFHTTP_URL: host.url })
    t.equal(flag.code, 1)
    t.notMatch(flag.stdout + flag.stderr, wrong)
  })

  t.test('handoff on a missing tab is tab_not_found after the health check', async (t) => {
    const res = await cli(['handoff', 'tab_missing'])
    t.equal(res.code, 1)
    t.match(res.stderr, /tab_not_found/)
  })

  t.test('health when the browser died: exit 4, says what is not ready', async (t) => {
    const profile = host.config.defaultProfile
    const gone = new Promise((resolve) => host.app.browsers.peek(profile)!.once('disconnected', resolve))
    process.kill(host.app.browsers.status(profile).pid!, 'SIGKILL')
    await gone
    const res = await cli(['health'])
    t.equal(res.code, 4)
    t.match(res.stdout, /backend\s+NOT connected/)
    t.match(res.stdout, /takeover\s+NOT ready \(unavailable\)/)
    const mint = await cli(['handoff', 'tab_any'])
    t.equal(mint.code, 4, 'handoff refuses before minting')
    t.match(mint.stderr, /takeover_unavailable: not minting a panel URL: \/health says/)
  })

  t.test('no output of any run contains the token', async (t) => {
    t.ok(outputs.length > 10)
    for (const o of outputs) t.notMatch(o.stdout + o.stderr, host.token)
  })
})
