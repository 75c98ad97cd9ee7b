import t from 'tap'
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { runCli } from './_run.js'

const GATE = '<!doctype html><title>Just a moment...</title><p>Hang tight! We are checking your browser</p>'
const ARTICLE = '<!doctype html><title>Article</title><main><h1>Prices</h1><p id="price">42 EUR</p><p>Shipping is free this week.</p></main>'

t.test('afhttp fetch against a real host', async (t) => {
  const host = await startHost(t)
  const site = await startFixtureServer(t, {
    '/article': { body: ARTICLE },
    '/gate': { body: GATE },
    '/missing': { status: 404, body: '<!doctype html><title>Not found</title><h1>Not found</h1><p>There is no page here.</p>' }
  })
  const env = { AFHTTP_URL: host.url, AFHTTP_TOKEN: host.token }

  t.test('verified content: summary on stdout, exit 0', async (t) => {
    const res = await runCli(['fetch', `${site.url}/article`], env)
    t.equal(res.code, 0, res.stderr)
    t.match(res.stdout, /^ok\s+yes$/m)
    t.match(res.stdout, /^status\s+200\s+\(content\)$/m)
    t.match(res.stdout, /^artifacts\s+html \d+ B, text \d+ B$/m)
    t.notMatch(res.stdout, /takeover/)
  })

  t.test('--json prints the exact result', async (t) => {
    const res = await runCli(['fetch', `${site.url}/article`, '--json', '--capture', 'text', '--wait', 'selector-stable:#price'], env)
    t.equal(res.code, 0, res.stderr)
    const result = JSON.parse(res.stdout)
    t.equal(result.ok, true)
    t.match(result.artifacts.text, /42 EUR/)
    t.notOk('html' in result.artifacts, 'only the requested capture')
    t.match(result.readiness, { strategy: 'selector-stable:#price', measured: true, satisfied: true })
  })

  t.test('--out writes page.html, page.txt, the decoded screenshot and result.json', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'afhttp-cli-out-'))
    t.teardown(() => rm(dir, { recursive: true, force: true }))
    const out = join(dir, 'nested', 'run1')
    const res = await runCli(['fetch', `${site.url}/article`, '--capture', 'html,text,screenshot', '--out', out], env)
    t.equal(res.code, 0, res.stderr)
    const files = (await readdir(out)).sort()
    const shot = files.find((f) => f.startsWith('screenshot.'))
    t.ok(shot, 'a screenshot file')
    t.same(files, ['page.html', 'page.txt', 'result.json', shot].sort())
    const result = JSON.parse(await readFile(join(out, 'result.json'), 'utf8'))
    t.equal(await readFile(join(out, 'page.html'), 'utf8'), result.artifacts.html)
    t.equal(await readFile(join(out, 'page.txt'), 'utf8'), result.artifacts.text)
    const image = await readFile(join(out, shot!))
    t.same(image, Buffer.from(result.artifacts.screenshot.base64, 'base64'), 'decoded from base64')
    const jpeg = image[0] === 0xff && image[1] === 0xd8
    const png = image.subarray(1, 4).toString() === 'PNG'
    t.ok(shot === 'screenshot.jpg' ? jpeg : png, `${shot} holds a real ${shot === 'screenshot.jpg' ? 'JPEG' : 'PNG'}`)
    t.match(res.stdout, new RegExp(`written\\s+.*${join(out, 'page.html').replace(/[.]/g, '\\.')}`))
  })

  t.test('a challenge without --takeover: exit 1 with advice, no URL', async (t) => {
    const res = await runCli(['fetch', `${site.url}/gate`], env)
    t.equal(res.code, 1)
    t.match(res.stdout, /^ok\s+no$/m)
    t.match(res.stdout, /\(challenge\)/)
    t.match(res.stdout, /rerun with --takeover/)
    t.notMatch(res.stdout, /\/takeover\//)
  })

  t.test('a challenge with --takeover: exit 3, the panel URL alone on the last line', async (t) => {
    const res = await runCli(['fetch', `${site.url}/gate`, '--takeover'], env)
    t.equal(res.code, 3, res.stderr)
    const lines = res.stdout.trimEnd().split('\n')
    // The origin is AFHTTP_PUBLIC_URL's; the test host derives it from port 0, so check the shape only.
    t.match(lines.at(-1), /^https?:\/\/[^\s/]+\/takeover\/[A-Za-z0-9_-]{22,}$/)
    t.match(lines.at(-2), /A person is needed \(challenge\)/)
    const tabId = /^tab\s+(\S+) \(retained\)$/m.exec(res.stdout)?.[1]
    t.ok(tabId, 'names the retained tab')

    t.test('tabs shows the open handoff', async (t) => {
      const tabs = await runCli(['tabs'], env)
      t.match(tabs.stdout, new RegExp(`^${tabId}\\s+default\\s+agent\\s+retained\\s+\\S+\\s+open\\s`, 'm'))
    })

    t.test('handoff TAB prints a fresh URL for the same fence; finish needs that fence', async (t) => {
      const minted = await runCli(['handoff', tabId!, '--json'], env)
      t.equal(minted.code, 0, minted.stderr)
      const mint = JSON.parse(minted.stdout)
      t.match(mint.takeover_url_secret, /\/takeover\//)
      t.same(mint.warnings, [])
      const human = await runCli(['handoff', tabId!], env)
      t.equal(human.stdout.trimEnd().split('\n').at(-1), human.stdout.match(/^http:\/\/\S+\/takeover\/\S+$/m)?.[0], 'URL on its own last line')
      t.match(human.stdout, new RegExp(`fence\\s+${mint.handoff_fence}`))

      const stale = await runCli(['finish', tabId!, '--fence', 'hf_stale'], env)
      t.equal(stale.code, 1)
      t.match(stale.stderr, /handoff_fence_stale/)
      const done = await runCli(['finish', tabId!, '--fence', mint.handoff_fence], env)
      t.equal(done.code, 0, done.stderr)
      t.match(done.stdout, /state finished, driver/)
      await runCli(['close', tabId!], env)
    })
  })

  t.test('a loaded 404 page with --takeover is never a success', async (t) => {
    const res = await runCli(['fetch', `${site.url}/missing`, '--takeover', '--json'], env)
    t.equal(res.code, 3)
    const result = JSON.parse(res.stdout)
    t.equal(result.ok, false)
    t.equal(result.status, 404)
    t.equal(result.actions[0].kind, 'human_takeover')
  })

  t.test('a navigation failure is an error: exit 1, coded', async (t) => {
    const res = await runCli(['fetch', 'http://127.0.0.1:1/', '--timeout', '5000'], env)
    t.equal(res.code, 1)
    t.match(res.stderr, /navigation_failed/)
  })

  t.test('an out-of-range --timeout is refused by the host, naming the field', async (t) => {
    const res = await runCli(['fetch', `${site.url}/article`, '--timeout', '999999999'], env)
    t.equal(res.code, 1)
    t.match(res.stderr, /invalid_request: timeout_ms/)
  })
})
