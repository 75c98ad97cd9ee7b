import t from 'tap'
import { spawn, execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { promisify } from 'node:util'
import '../helpers/guard.js'
import { startFixtureServer } from '../helpers/fixture-server.js'

/**
 * No Docker engine runs here, so this starts the host exactly as the image does:
 * the Dockerfile's ENV and CMD, read from the Dockerfile itself, with the
 * profiles volume and port swapped for temporary ones. Then it runs the image's
 * HEALTHCHECK command against it.
 */
function dockerfileEnv (dockerfile: string): Record<string, string> {
  const env: Record<string, string> = {}
  const joined = dockerfile.replace(/\\\n/g, ' ')
  for (const line of joined.split('\n')) {
    const m = /^ENV\s+(.*)$/.exec(line.trim())
    if (!m) continue
    for (const pair of m[1].matchAll(/(\w+)=("[^"]*"|\S+)/g)) env[pair[1]] = pair[2].replace(/^"|"$/g, '')
  }
  return env
}

function jsonArray (dockerfile: string, instruction: string): string[] {
  const line = dockerfile.split('\n').find((l) => l.startsWith(`${instruction} [`))
  if (!line) throw new Error(`no ${instruction} in the Dockerfile`)
  return JSON.parse(line.slice(instruction.length).trim()) as string[]
}

async function freePort (): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number }
      srv.close(() => resolve(port))
    })
  })
}

t.test('the container command and environment serve an authenticated /health', async (t) => {
  const dockerfile = await readFile(new URL('../../Dockerfile', import.meta.url), 'utf8')
  const env = dockerfileEnv(dockerfile)
  t.equal(env.AFHTTP_HOST, '0.0.0.0')
  t.equal(env.AFHTTP_PROFILES_DIR, '/profiles')
  const cmd = jsonArray(dockerfile, 'CMD')
  const healthcheck = jsonArray(dockerfile, '  CMD')
  t.same(cmd, ['node', 'dist/cli/index.js', 'serve'])

  const profiles = t.testdir()
  const port = await freePort()
  const runEnv: Record<string, string | undefined> = { ...process.env, ...env, AFHTTP_PROFILES_DIR: profiles, AFHTTP_PORT: String(port), AFHTTP_CHROMIUM: process.env.AFHTTP_CHROMIUM ?? '/usr/bin/chromium' }
  delete runEnv.AFHTTP_TOKEN
  runEnv.AFHTTP_OPS_TOKEN = 'ops-token-for-the-probe-0123'
  const root = new URL('../..', import.meta.url).pathname
  const child = spawn(cmd[0], cmd.slice(1), { cwd: root, env: runEnv, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (d) => { output += d })
  child.stderr.on('data', (d) => { output += d })
  t.teardown(() => { child.kill('SIGTERM') })

  // A cold start (node, a display, Chromium, its first frame) on a loaded machine: a hang
  // detector's deadline, as the other process-host tests use.
  let body: { status?: { takeover_ready?: boolean } } | undefined
  for (const end = Date.now() + 180_000; Date.now() < end && !body?.status?.takeover_ready;) {
    await new Promise((resolve) => setTimeout(resolve, 200))
    try {
      const token = (await readFile(`${profiles}/.afhttp-token`, 'utf8')).trim()
      const res = await fetch(`http://127.0.0.1:${port}/health`, { headers: { authorization: `Bearer ${token}` } })
      body = await res.json() as typeof body
    } catch { /* not up yet */ }
  }
  t.equal(body?.status?.takeover_ready, true, 'the host is ready')
  t.match(output, `${profiles}/.afhttp-token`, 'logs where the generated token is')
  const token = (await readFile(`${profiles}/.afhttp-token`, 'utf8')).trim()
  t.notMatch(output, token, 'but never its value')

  // Each probe is one /health, whose live checks can miss their bound for a moment on a loaded
  // machine: tried up to three times, as the image's HEALTHCHECK (--retries=3) does.
  const probe = async (env: NodeJS.ProcessEnv): Promise<{ stdout: string }> => {
    for (let attempt = 1; ; attempt++) {
      try { return await promisify(execFile)(healthcheck[0], healthcheck.slice(1), { cwd: root, env }) } catch (err) {
        if (attempt >= 3) throw err
        await new Promise((resolve) => setTimeout(resolve, 1000))
      }
    }
  }
  const { stdout } = await probe(runEnv)
  t.match(stdout, /takeover_ready=true/, 'the image HEALTHCHECK passes (with the ops token)')
  const wrongOps = await promisify(execFile)(healthcheck[0], healthcheck.slice(1), { cwd: root, env: { ...runEnv, AFHTTP_OPS_TOKEN: 'not-the-ops-token-0123456' } }).catch((e: { code: number }) => e)
  t.equal((wrongOps as { code?: number }).code, 1, 'the probe really sends the ops token: a wrong one fails')
  const { AFHTTP_OPS_TOKEN: _ops, ...withoutOps } = runEnv
  const fallback = await probe(withoutOps)
  t.match(fallback.stdout, /takeover_ready=true/, 'without an ops token it uses the generated API token')

  // A large page is recognized on a recognition thread, which the built host starts from its own
  // file (src/fetch/recognize.ts): a real capture of 0.9 MB, a Cloudflare block (test/fixtures/real).
  const large = await readFile(new URL('../fixtures/real/cloudflare-block-custom-branded-2024-indeed-dom.html', import.meta.url), 'utf8')
  const site = await startFixtureServer(t, { '/large-gate': { status: 403, body: large } })
  const fetched = await fetch(`http://127.0.0.1:${port}/v1/fetch`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ url: `${site.url}/large-gate` }) })
  const page = await fetched.json() as { page_kind?: string, challenge?: { provider: string } }
  t.equal(page.page_kind, 'challenge', 'the large page is recognized')
  t.equal(page.challenge?.provider, 'cloudflare')
  t.notMatch(output, 'recognition thread was lost', 'on its thread: none was lost, so none answered inline in its place')
  const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text()
  t.match(metrics, /^afhttp_recognitions_total\{where="thread"\} [1-9]/m, 'read by a thread')
  t.match(metrics, /^afhttp_recognitions_total\{where="fallback"\} 0$/m, 'and not inline in its place')

  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  t.equal(await exited, 0, 'a graceful shutdown exits 0')
})

t.test('the image builds in stages and runs production dependencies, unprivileged, under an init', async (t) => {
  const dockerfile = await readFile(new URL('../../Dockerfile', import.meta.url), 'utf8')
  const stages = dockerfile.split(/^FROM /m).slice(1).map((s) => ({ head: s.split('\n')[0], body: s }))
  t.ok(stages.length >= 2, 'more than one stage')
  const runtime = stages[stages.length - 1]
  const build = stages.find((s) => /RUN npm run build/.test(s.body))
  t.ok(build && build !== runtime, 'TypeScript is built in an earlier stage')
  t.notMatch(runtime.body, /npm ci(?![^\n]*--omit=dev)/, 'the runtime never installs dev dependencies')
  const from = [...runtime.body.matchAll(/COPY --from=(\S+) (\S+)/g)].map((m) => [m[1], m[2]])
  t.ok(from.some(([, path]) => path === '/app/dist'), 'the runtime copies the built dist/')
  const depsStage = from.find(([, path]) => path === '/app/node_modules')?.[0]
  t.ok(depsStage, 'and node_modules from another stage')
  t.match(stages.find((s) => s.head.includes(` AS ${depsStage!}`))?.body ?? '', /npm ci --omit=dev/, 'which installed production dependencies only')
  const apt = /apt-get install[^\n]*/.exec(runtime.body)?.[0] ?? ''
  for (const pkg of ['chromium', 'tini', 'xvfb']) t.match(apt, new RegExp(`\\b${pkg}\\b`), `the runtime installs ${pkg}`)
  t.match(runtime.body, /^USER node$/m, 'runs as the unprivileged node user')
  t.same(JSON.parse(/^ENTRYPOINT (.*)$/m.exec(runtime.body)![1]), ['/usr/bin/tini', '--'], 'under tini')
  t.match(runtime.body, /^HEALTHCHECK /m, 'with a HEALTHCHECK')

  const compose = await readFile(new URL('../../compose.yaml', import.meta.url), 'utf8')
  const { parse } = await import('yaml')
  const svc = (parse(compose) as { services: Record<string, any>, volumes: Record<string, unknown> }).services.afhttp
  t.ok(svc.shm_size, 'compose sets shm_size')
  t.ok(svc.volumes.includes('profiles:/profiles'), 'and a named volume at /profiles')
  t.ok('profiles' in (parse(compose) as { volumes: Record<string, unknown> }).volumes)
  t.equal(svc.environment.AFHTTP_TOKEN, '${AFHTTP_TOKEN:-}', 'the token comes from the environment or .env, never the file')
})

t.test('bad configuration fails at start with one line naming the variable', async (t) => {
  const root = new URL('../..', import.meta.url).pathname
  const run = promisify(execFile)
  const err = await run('node', ['dist/cli/index.js', 'serve'], { cwd: root, env: { ...process.env, AFHTTP_PORT: 'eighty' } }).catch((e: { code: number, stderr: string }) => e)
  t.equal((err as { code: number }).code, 2)
  t.match((err as { stderr: string }).stderr, /^afhttp: invalid configuration: AFHTTP_PORT .*\n$/)
})

t.test('a non-loopback bind without a token it can create is refused', async (t) => {
  const root = new URL('../..', import.meta.url).pathname
  const run = promisify(execFile)
  const env: Record<string, string | undefined> = { ...process.env, AFHTTP_HOST: '0.0.0.0', AFHTTP_PROFILES_DIR: '/dev/null/profiles' }
  delete env.AFHTTP_TOKEN
  const err = await run('node', ['dist/cli/index.js', 'serve'], { cwd: root, env }).catch((e: { code: number, stderr: string }) => e)
  t.equal((err as { code: number }).code, 2)
  t.match((err as { stderr: string }).stderr, /refusing to bind 0\.0\.0\.0 without a token/)
})

t.test('a port already in use stops the start instead of hanging with a browser open', async (t) => {
  const root = new URL('../..', import.meta.url).pathname
  const blocker = createServer().listen(0, '127.0.0.1')
  await new Promise((resolve) => blocker.once('listening', resolve))
  t.teardown(() => { blocker.close() })
  const port = (blocker.address() as { port: number }).port
  const env = { ...process.env, AFHTTP_PORT: String(port), AFHTTP_PROFILES_DIR: t.testdir(), AFHTTP_TOKEN: 'busy-port-token-0123456789' }
  const err = await promisify(execFile)('node', ['dist/cli/index.js', 'serve'], { cwd: root, env, timeout: 60_000 }).catch((e: { code: number, stderr: string, killed?: boolean }) => e)
  t.notOk((err as { killed?: boolean }).killed, 'the process exited by itself')
  t.equal((err as { code: number }).code, 1)
  t.match((err as { stderr: string }).stderr, /cannot listen on 127\.0\.0\.1:\d+/)
})
