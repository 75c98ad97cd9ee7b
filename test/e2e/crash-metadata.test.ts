// SIGKILL of a real host process while a stream of PATCHes is writing the metadata, repeated:
// the file is always whole and parseable, no acknowledged update is lost, and the next start
// removes what the killed writer left. The host is the built app in its own process, real HTTP,
// real files; it does not start a browser, because the metadata path never touches one.
import t from 'tap'
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseMetadata, METADATA_FILE } from '../../src/core/profile-metadata.js'
import { tempPattern } from '../../src/store/durable-write.js'
import { LOCK_FILE } from '../../src/store/profile-lock.js'
import { guardEnv } from '../helpers/guard.js'

const DIST = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist')
const TOKEN = 'crash-test-token-0123456789'
const ROUNDS = 5
const WRITERS = 4

/** The real app (dist/app.js) listening on 127.0.0.1; prints its port once ready. */
const HOST_SCRIPT = `
  const { buildApp } = await import(${JSON.stringify(pathToFileURL(join(DIST, 'app.js')).href)})
  const { loadConfig } = await import(${JSON.stringify(pathToFileURL(join(DIST, 'config.js')).href)})
  const { createLogger } = await import(${JSON.stringify(pathToFileURL(join(DIST, 'logger.js')).href)})
  const config = loadConfig(process.env)
  const app = await buildApp(config, { token: config.token, logger: createLogger('warn'), startBrowser: false })
  await app.listen({ host: '127.0.0.1', port: 0 })
  process.stdout.write('listening ' + app.server.address().port + '\\n')
  process.on('SIGTERM', () => app.close().then(() => process.exit(0)))`

interface Host { child: ChildProcess, port: number }

async function startHostProcess (profilesDir: string): Promise<Host> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', HOST_SCRIPT], {
    env: { PATH: process.env.PATH, AFHTTP_PROFILES_DIR: profilesDir, AFHTTP_TOKEN: TOKEN, AFHTTP_PORT: '0', ...guardEnv() },
    stdio: ['ignore', 'pipe', 'inherit']
  })
  const port = await new Promise<number>((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /listening (\d+)/.exec(out)
      if (m) resolve(Number(m[1]))
    })
    child.once('exit', (code) => reject(new Error(`host exited with ${code} before listening`)))
  })
  return { child, port }
}

const pad = 'p'.repeat(200)

/**
 * Writer `w` PATCHes label `w<w>` with an increasing sequence number until the host dies;
 * returns the last number the host acknowledged (200), i.e. promised durable.
 */
async function writer (port: number, w: number, round: number, onAck: () => void): Promise<number> {
  let acked = -1
  for (let seq = 0; ; seq++) {
    // Fill labels so each write is several KiB: more time spent inside write and fsync.
    const labels: Record<string, string> = { [`w${w}`]: `${round}:${seq}` }
    for (let i = 0; i < 6; i++) labels[`pad${w}-${i}`] = pad
    try {
      const res = await fetch(`http://127.0.0.1:${port}/v1/profiles/default`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ labels })
      })
      if (res.status !== 200) throw new Error(`PATCH answered ${res.status}: ${await res.text()}`)
      await res.arrayBuffer()
      acked = seq
      onAck()
    } catch (err) {
      if ((err as Error).message.startsWith('PATCH answered')) throw err
      return acked // the host is gone: connection reset or refused
    }
  }
}

function temps (dir: string): string[] {
  const meta = tempPattern(METADATA_FILE)
  const lock = tempPattern(LOCK_FILE)
  return readdirSync(dir).filter((n) => meta.test(n) || lock.test(n))
}

t.test('SIGKILL during a stream of metadata updates, repeated', async (t) => {
  if (!existsSync(join(DIST, 'app.js'))) throw new Error('dist/ is missing: run npm run build first')
  const profilesDir = mkdtempSync(join(tmpdir(), 'afhttp-crash-'))
  t.teardown(() => rmSync(profilesDir, { recursive: true, force: true }))
  const profileDir = join(profilesDir, 'default')
  const file = join(profileDir, METADATA_FILE)
  let tempsSeen = 0
  let staleLocks = 0

  for (let round = 0; round < ROUNDS; round++) {
    const leftBefore = existsSync(profileDir) ? temps(profileDir) : []
    tempsSeen += leftBefore.length
    const host = await startHostProcess(profilesDir)
    t.same(temps(profileDir), [], `round ${round}: the start removed ${leftBefore.length} stale temp file(s)`)

    // Kill after a varying number of acknowledged writes, so the kill lands at varying points.
    let acks = 0
    const killAfter = 5 + round * 11
    const exited = once(host.child, 'exit')
    const onAck = (): void => { if (++acks === killAfter) host.child.kill('SIGKILL') }
    const lastAcked = await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(host.port, w, round, onAck)))
    await exited

    // Whole and parseable, whatever instant the kill hit.
    const meta = parseMetadata(readFileSync(file), 'default', file)
    for (let w = 0; w < WRITERS; w++) {
      if (lastAcked[w] < 0) continue
      const [r, seq] = (meta.labels[`w${w}`] ?? '-1:-1').split(':').map(Number)
      t.ok(r === round && seq >= lastAcked[w], `round ${round} writer ${w}: acknowledged ${lastAcked[w]}, on disk ${meta.labels[`w${w}`]}`)
    }
    if (existsSync(join(profileDir, LOCK_FILE))) staleLocks++
  }

  // The last restart: clean directory, and the stale lock of a killed host does not block writes.
  const host = await startHostProcess(profilesDir)
  t.same(temps(profileDir), [])
  const res = await fetch(`http://127.0.0.1:${host.port}/v1/profiles/default`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ labels: { after: 'restart' } })
  })
  t.equal(res.status, 200, 'a write after the last kill succeeds')
  host.child.kill('SIGTERM')
  await once(host.child, 'exit')
  t.same(readdirSync(profileDir).sort(), [METADATA_FILE, 'browser'], 'a clean shutdown leaves no lock and no temp')
  t.comment(`${ROUNDS} kills: ${tempsSeen} stale temp file(s) and ${staleLocks} stale lock(s) found at restart`)
})
