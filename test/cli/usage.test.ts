import t from 'tap'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { runCli } from './_run.js'

const TOKEN = 'cli-usage-token-0123456789'
const env = { AFHTTP_URL: 'http://127.0.0.1:9', AFHTTP_TOKEN: TOKEN }

t.test('usage errors exit 2 and point to --help', async (t) => {
  const cases: Array<[string, string[], RegExp]> = [
    ['no command', [], /usage: afhttp <command>/],
    ['unknown command', ['frobnicate'], /unknown command "frobnicate"/],
    ['unknown flag', ['tabs', '--frob'], /Unknown option '--frob'/],
    ['missing TAB', ['close'], /missing TAB/],
    ['extra argument', ['tabs', 'extra'], /unexpected argument "extra"/],
    ['fetch without URL or --tab', ['fetch'], /give a URL, or --tab/],
    ['relative URL', ['fetch', 'example.com'], /URL must be absolute/],
    ['bad --capture', ['fetch', 'https://example.com/', '--capture', 'html,pdf'], /"pdf" is not one/],
    ['bad --wait', ['fetch', 'https://example.com/', '--wait', 'forever'], /--wait must be/],
    ['bad --timeout', ['fetch', 'https://example.com/', '--timeout', '10s'], /--timeout must be a whole number/],
    ['finish without --fence', ['finish', 'tab_1'], /--fence FENCE is required/],
    ['cdp with bad JSON', ['cdp', 'Runtime.evaluate', '{nope'], /not valid JSON/],
    ['cdp with a non-object', ['cdp', 'Runtime.evaluate', '[1]'], /must be an object/],
    ['cdp with a bad method', ['cdp', 'getVersion'], /Domain\.method/],
    ['profiles with an unknown subcommand', ['profiles', 'delete', 'x'], /unknown profiles subcommand/],
    ['a bad --label', ['profiles', 'create', 'x', '--label', 'novalue'], /KEY=VALUE/],
    ['a bad --url', ['tabs', '--url', 'ftp://host/'], /must be an http\(s\) URL/]
  ]
  for (const [name, args, message] of cases) {
    t.test(name, async (t) => {
      const res = await runCli(args, env)
      t.equal(res.code, 2, 'exit 2')
      t.match(res.stderr, message)
      t.equal(res.stdout, '', 'nothing on stdout')
    })
  }
})

t.test('a missing token is a usage error that says how to set it', async (t) => {
  const res = await runCli(['tabs'], { AFHTTP_URL: 'http://127.0.0.1:9' })
  t.equal(res.code, 2)
  t.match(res.stderr, /no API token: set AFHTTP_TOKEN or pass --token/)
})

t.test('--help works on every command and exits 0', async (t) => {
  const top = await runCli(['--help'], {})
  t.equal(top.code, 0)
  const names = ['serve', 'fetch', 'health', 'capabilities', 'profiles', 'tabs', 'close', 'handoff', 'finish', 'cdp']
  for (const name of names) t.match(top.stdout, new RegExp(`\\n  ${name} `), `top-level help lists ${name}`)
  for (const name of names) {
    const res = await runCli([name, '--help'], {})
    t.equal(res.code, 0, `${name} --help exits 0`)
    t.match(res.stdout, new RegExp(`usage: afhttp ${name}`), `${name} --help shows its usage`)
  }
  const fetchHelp = await runCli(['fetch', '-h'], {})
  for (const flag of ['--profile', '--tab', '--takeover', '--wait', '--capture', '--timeout', '--out', '--json', '--wait-for-human']) {
    t.match(fetchHelp.stdout, flag, `fetch --help documents ${flag}`)
  }
})

t.test('a host that is down exits 4 with a clear message', async (t) => {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  for (const args of [['health'], ['tabs'], ['fetch', 'https://example.com/'], ['handoff', 'tab_1'], ['capabilities']]) {
    const res = await runCli(args, { AFHTTP_URL: `http://127.0.0.1:${port}`, AFHTTP_TOKEN: TOKEN })
    t.equal(res.code, 4, `${args[0]} exits 4`)
    t.match(res.stderr, /cannot reach the afhttp host at http:\/\/127\.0\.0\.1:\d+/)
    t.match(res.stderr, /afhttp serve/)
    t.notMatch(res.stdout + res.stderr, TOKEN, 'the token is never printed')
  }
  const json = await runCli(['tabs', '--json', '--url', `http://127.0.0.1:${port}`], { AFHTTP_TOKEN: TOKEN })
  t.equal(json.code, 4)
  t.equal(JSON.parse(json.stdout).error.code, 'host_unreachable', '--json prints the envelope on stdout')
})

t.test('an answer that is a 503 without the API envelope (a gateway) exits 4', async (t) => {
  const gateway = createServer((_req, res) => { res.writeHead(503); res.end('upstream down') })
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { gateway.closeAllConnections(); gateway.close() })
  const res = await runCli(['tabs'], { AFHTTP_URL: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`, AFHTTP_TOKEN: TOKEN })
  t.equal(res.code, 4)
  t.match(res.stderr, /invalid_response: HTTP 503/)
})
