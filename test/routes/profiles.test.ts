import t, { type Test } from 'tap'
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import pino from 'pino'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import type { Config } from '../../src/config.js'
import errorEnvelope from '../../src/plugins/error-envelope.js'
import profiles from '../../src/plugins/profiles.js'
import profileRoutes from '../../src/routes/profiles.js'
import { nodeFs, type DurableFileHandle, type DurableFs } from '../../src/store/durable-write.js'
import { LOCK_FILE } from '../../src/store/profile-lock.js'

const META = 'afhttp-profile.json'

function configFor (profilesDir: string): Config {
  return Object.freeze({
    host: '127.0.0.1', port: 0, token: undefined, profilesDir, publicUrl: 'http://127.0.0.1:0', publicUrlExplicit: false,
    chromiumPath: '/usr/bin/chromium', chromiumExplicit: false, defaultProfile: 'default',
    tabIdleMs: 600_000, handoffHoldMs: 600_000, logLevel: 'info',
    browserModeConfigured: 'headless', browser: { mode: 'headless' as const }, tabPool: 0, auditKeep: 1000
  })
}

/** Errno faults at the fs boundary only; everything else is the real filesystem. */
interface Faults { write?: string, dirSync?: string }
function faultyFs (faults: Faults): DurableFs {
  const fail = (code: string): never => { throw Object.assign(new Error(`${code}: injected`), { code }) }
  return {
    ...nodeFs,
    async open (path: string, flags: string, mode?: number): Promise<DurableFileHandle> {
      const fh = await nodeFs.open(path, flags, mode)
      return {
        write: (buf, off, len, pos) => faults.write ? fail(faults.write) : fh.write(buf, off, len, pos),
        sync: () => flags === 'r' && faults.dirSync ? fail(faults.dirSync) : fh.sync(),
        close: () => fh.close()
      }
    }
  }
}

interface Built { app: FastifyInstance, root: string, logs: Array<Record<string, unknown>> }
interface BuildOptions { root?: string, fs?: DurableFs, browsers?: { status: (name: string) => unknown } }

/** The same ajv options as src/app.ts: unknown fields must be rejected, not stripped. */
async function build (t: Test, opts: BuildOptions = {}): Promise<Built> {
  const root = opts.root ?? t.testdir({})
  const logs: Array<Record<string, unknown>> = []
  const stream = new Writable({ write (chunk: Buffer, _enc, cb) { logs.push(JSON.parse(chunk.toString())); cb() } })
  const app = Fastify({
    loggerInstance: pino({ level: 'info' }, stream) as FastifyBaseLogger,
    ajv: { customOptions: { removeAdditional: false, allErrors: false, coerceTypes: false } }
  })
  app.decorate('config', configFor(root))
  if (opts.browsers) app.decorate('browsers', opts.browsers as never)
  await app.register(errorEnvelope)
  await app.register(profiles, { fs: opts.fs })
  await app.register(profileRoutes)
  t.teardown(() => app.close())
  await app.ready()
  return { app, root, logs }
}

const valid = (name: string, extra: Record<string, unknown> = {}): string => JSON.stringify({
  schema_version: 1, name, backend: 'chromium', labels: {}, created_at: '2024-01-01T00:00:00.000Z', updated_at: '2024-01-01T00:00:00.000Z', ...extra
})

t.test('the default profile exists after ready, with a browser dir', async (t) => {
  const { app, root } = await build(t)
  t.ok(existsSync(join(root, 'default', META)))
  t.ok(statSync(join(root, 'default', 'browser')).isDirectory())
  t.notOk(existsSync(join(root, 'default', LOCK_FILE)), 'the write lock was released')
  const res = await app.inject({ method: 'GET', url: '/v1/profiles' })
  t.equal(res.statusCode, 200)
  t.match(res.json(), { profiles: [{ name: 'default', backend: 'chromium', schema_version: 1 }] })
})

t.test('create, list, describe and patch', async (t) => {
  const { app, root } = await build(t)
  const created = await app.inject({ method: 'POST', url: '/v1/profiles', payload: { name: 'work', labels: { team: 'growth', tier: 'a' } } })
  t.equal(created.statusCode, 201)
  t.match(created.json(), { profile: { name: 'work', backend: 'chromium', labels: { team: 'growth' } }, warnings: [] })
  t.same(JSON.parse(readFileSync(join(root, 'work', META), 'utf8')), created.json().profile, 'the response is what is on disk')

  const cdp = await app.inject({ method: 'POST', url: '/v1/profiles', payload: { name: 'remote', backend: 'cdp', cdp_url: 'ws://127.0.0.1:9222/devtools/browser/x' } })
  t.equal(cdp.statusCode, 201)
  t.notOk(existsSync(join(root, 'remote', 'browser')), 'a cdp profile has no local browser data')

  const list = await app.inject({ method: 'GET', url: '/v1/profiles' })
  t.same(list.json().profiles.map((p: { name: string }) => p.name), ['default', 'remote', 'work'])

  const described = await app.inject({ method: 'GET', url: '/v1/profiles/work' })
  t.equal(described.statusCode, 200)
  t.match(described.json(), { profile: { name: 'work', running: null } })

  const patched = await app.inject({ method: 'PATCH', url: '/v1/profiles/work', payload: { labels: { tier: null, owner: 'ops' } } })
  t.equal(patched.statusCode, 200)
  const after = patched.json().profile
  t.same(after.labels, { team: 'growth', owner: 'ops' }, 'merge patch: null removes, strings set')
  t.equal(after.created_at, created.json().profile.created_at)
  t.ok(after.updated_at >= after.created_at)
  t.same(JSON.parse(readFileSync(join(root, 'work', META), 'utf8')), after)

  const url = await app.inject({ method: 'PATCH', url: '/v1/profiles/remote', payload: { cdp_url: 'http://10.0.0.2:9222' } })
  t.equal(url.json().profile.cdp_url, 'http://10.0.0.2:9222')
})

t.test('describe carries the running state from the browsers decorator', async (t) => {
  const { app } = await build(t, { browsers: { status: (name: string) => ({ running: name === 'default', connected: true }) } })
  const res = await app.inject({ method: 'GET', url: '/v1/profiles/default' })
  t.match(res.json(), { profile: { name: 'default', running: { running: true, connected: true } } })
})

t.test('invalid names are invalid_request and touch nothing', async (t) => {
  const parent = t.testdir({ profiles: {} })
  const { app, root } = await build(t, { root: join(parent, 'profiles') })
  for (const name of ['../x', 'A', '.hidden', 'a'.repeat(64), '', 'a/b']) {
    const res = await app.inject({ method: 'POST', url: '/v1/profiles', payload: { name } })
    t.equal(res.statusCode, 400, `POST ${JSON.stringify(name)}`)
    t.match(res.json(), { error: { code: 'invalid_request', details: { field: 'name' } } })
  }
  for (const path of ['..%2Fx', 'A', '.hidden', 'a'.repeat(64)]) {
    for (const method of ['GET', 'PATCH'] as const) {
      const res = await app.inject({ method, url: `/v1/profiles/${path}`, ...(method === 'PATCH' ? { payload: { labels: {} } } : {}) })
      t.equal(res.statusCode, 400, `${method} ${path}`)
      t.match(res.json(), { error: { code: 'invalid_request', details: { field: 'name' } } })
    }
  }
  t.same(readdirSync(parent), ['profiles'], 'nothing was created beside the profiles dir')
  t.same(readdirSync(root), ['default'])
  t.throws(() => app.profiles.dir('../x'), { code: 'invalid_request' }, 'the service refuses too, not only the routes')
})

t.test('unknown or oversized fields are invalid_request naming the field', async (t) => {
  const { app } = await build(t)
  const cases: Array<[string, string, Record<string, unknown>, string]> = [
    ['POST', '/v1/profiles', { name: 'x', colour: 'red' }, 'colour'],
    ['PATCH', '/v1/profiles/default', { backend: 'cdp' }, 'backend'],
    ['PATCH', '/v1/profiles/default', { name: 'other' }, 'name'],
    ['POST', '/v1/profiles', { name: 'x', backend: 'firefox' }, 'backend'],
    ['POST', '/v1/profiles', { name: 'x', labels: { k: 'v'.repeat(257) } }, 'labels.k'],
    ['POST', '/v1/profiles', { name: 'x', backend: 'cdp', cdp_url: 'file:///etc/passwd' }, 'cdp_url'],
    ['POST', '/v1/profiles', { name: 'x', backend: 'cdp' }, 'cdp_url'],
    ['POST', '/v1/profiles', { name: 'x', cdp_url: 'ws://127.0.0.1:1' }, 'cdp_url'],
    ['PATCH', '/v1/profiles/default', { cdp_url: 'ws://127.0.0.1:1' }, 'cdp_url']
  ]
  for (const [method, url, payload, field] of cases) {
    const res = await app.inject({ method: method as 'POST', url, payload })
    t.equal(res.statusCode, 400, `${method} ${JSON.stringify(payload)}`)
    t.match(res.json(), { error: { code: 'invalid_request', message: new RegExp(field.split('.').pop() as string), details: { field } } })
  }
  const tooMany = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, 'v']))
  const res = await app.inject({ method: 'POST', url: '/v1/profiles', payload: { name: 'x', labels: tooMany } })
  t.match(res.json(), { error: { code: 'invalid_request', details: { field: 'labels' } } })
  t.notOk(existsSync(join(app.profiles.root, 'x')))
})

t.test('a duplicate is profile_exists and the original is untouched', async (t) => {
  const { app, root } = await build(t)
  const before = readFileSync(join(root, 'default', META))
  const res = await app.inject({ method: 'POST', url: '/v1/profiles', payload: { name: 'default', labels: { a: 'b' } } })
  t.equal(res.statusCode, 409)
  t.match(res.json(), { error: { code: 'profile_exists' } })
  t.same(readFileSync(join(root, 'default', META)), before)
})

t.test('unknown profiles are profile_not_found', async (t) => {
  const { app } = await build(t)
  const get = await app.inject({ method: 'GET', url: '/v1/profiles/nope' })
  t.match(get.json(), { error: { code: 'profile_not_found' } })
  t.equal(get.statusCode, 404)
  const patch = await app.inject({ method: 'PATCH', url: '/v1/profiles/nope', payload: { labels: { a: 'b' } } })
  t.match(patch.json(), { error: { code: 'profile_not_found' } })
  t.notOk(existsSync(join(app.profiles.root, 'nope')))
})

const corruptions: Array<[string, string, RegExp]> = [
  ['truncated', '{"schema_version": 1, "name": "bro', /truncated/],
  ['empty', '', /empty/],
  ['bad JSON', '{"schema_version": 1, name: broken}', /not valid JSON/],
  ['wrong schema', valid('broken', { schema_version: 2 }), /schema_version is 2/],
  ['name mismatch', valid('other'), /name is "other" but the directory is "broken"/],
  ['backend mismatch', valid('broken', { backend: 'cdp', cdp_url: 'ws://127.0.0.1:9/x' }), /holds chromium browser data/]
]

for (const [kind, metaText, problem] of corruptions) {
  t.test(`${kind} metadata is profile_metadata_invalid, listed, and nothing in the profile is touched`, async (t) => {
    const root = t.testdir({
      broken: { [META]: metaText, browser: { Cookies: 'cookie-bytes', 'Local State': '{}' } }
    })
    const { app } = await build(t, { root })
    const snapshot = (): unknown => ({
      entries: readdirSync(join(root, 'broken')).sort(),
      meta: readFileSync(join(root, 'broken', META), 'utf8'),
      metaMtime: statSync(join(root, 'broken', META)).mtimeMs,
      browser: readdirSync(join(root, 'broken', 'browser')).sort(),
      cookies: readFileSync(join(root, 'broken', 'browser', 'Cookies'), 'utf8'),
      cookiesMtime: statSync(join(root, 'broken', 'browser', 'Cookies')).mtimeMs
    })
    const before = snapshot()

    const get = await app.inject({ method: 'GET', url: '/v1/profiles/broken' })
    t.equal(get.statusCode, 409)
    const error = get.json().error
    t.equal(error.code, 'profile_metadata_invalid')
    t.match(error.message, join(root, 'broken', META))
    t.match(error.message, /not shown to be corrupt/)
    t.match(error.message, /Back up the profile directory/)
    t.match(error.details, { expected_name: 'broken', expected_backend: 'chromium', problem })

    const patch = await app.inject({ method: 'PATCH', url: '/v1/profiles/broken', payload: { labels: { a: 'b' } } })
    t.match(patch.json(), { error: { code: 'profile_metadata_invalid' } }, 'PATCH never "repairs" by overwriting')
    const create = await app.inject({ method: 'POST', url: '/v1/profiles', payload: { name: 'broken' } })
    t.match(create.json(), { error: { code: 'profile_exists' } }, 'POST never recreates it either')
    await t.rejects(app.profiles.acquire('broken'), { code: 'profile_metadata_invalid' }, 'nor can a browser be launched on it')

    const list = await app.inject({ method: 'GET', url: '/v1/profiles' })
    t.match(list.json().profiles, [{ name: 'broken', error: { code: 'profile_metadata_invalid' } }, { name: 'default' }])
    t.same(snapshot(), before)
  })
}

t.test('PATCH with ENOSPC is profile_metadata_write_failed and the old file is byte-identical', async (t) => {
  const faults: Faults = {}
  const { app, root } = await build(t, { fs: faultyFs(faults) })
  const file = join(root, 'default', META)
  const before = readFileSync(file)
  faults.write = 'ENOSPC'
  const res = await app.inject({ method: 'PATCH', url: '/v1/profiles/default', payload: { labels: { a: 'b' } } })
  t.equal(res.statusCode, 507)
  t.match(res.json(), { error: { code: 'profile_metadata_write_failed', retryable: true, details: { errno: 'ENOSPC', step: 'write', temp_removed: true } } })
  t.same(readFileSync(file), before)
  t.same(readdirSync(join(root, 'default')).sort(), [META, 'browser'], 'no temp file and no lock left')
})

t.test('a failed directory fsync keeps the new file and warns metadata_durability_unconfirmed', async (t) => {
  const faults: Faults = {}
  const { app, root } = await build(t, { fs: faultyFs(faults) })
  faults.dirSync = 'EIO'
  const res = await app.inject({ method: 'PATCH', url: '/v1/profiles/default', payload: { labels: { a: 'b' } } })
  t.equal(res.statusCode, 200)
  t.match(res.json(), { profile: { labels: { a: 'b' } }, warnings: [{ code: 'metadata_durability_unconfirmed', message: /EIO/ }] })
  t.same(JSON.parse(readFileSync(join(root, 'default', META), 'utf8')), res.json().profile)
  const created = await app.inject({ method: 'POST', url: '/v1/profiles', payload: { name: 'fresh' } })
  t.equal(created.statusCode, 201, 'a create whose directory sync failed still created the profile')
  t.match(created.json(), { warnings: [{ code: 'metadata_durability_unconfirmed' }] })
  t.same(JSON.parse(readFileSync(join(root, 'fresh', META), 'utf8')), created.json().profile)
})

t.test('the host starts with an invalid default profile and leaves it alone', async (t) => {
  const root = t.testdir({ default: { [META]: '' } })
  const { app, logs } = await build(t, { root })
  t.equal(readFileSync(join(root, 'default', META), 'utf8'), '')
  t.notOk(existsSync(join(root, 'default', 'browser')))
  t.ok(logs.some((l) => l.level === 50 && l.code === 'profile_metadata_invalid'), 'the problem is logged as an error')
  const res = await app.inject({ method: 'GET', url: '/v1/profiles' })
  t.match(res.json(), { profiles: [{ name: 'default', error: { code: 'profile_metadata_invalid', message: /empty/ } }] })
})

t.test('stale temp files are removed at start; a live writer\'s temp is kept', async (t) => {
  const dead = spawn('true')
  await once(dead, 'exit')
  const sleeper = spawn('sleep', ['30'])
  t.teardown(() => { sleeper.kill('SIGKILL') })
  const root = t.testdir({
    default: {
      [META]: valid('default'),
      [`.${META}.${dead.pid}.00ff.tmp`]: 'partial',
      [`.${META}.${process.pid}.01ab.tmp`]: 'from an earlier run with our pid',
      [`.${META}.${sleeper.pid}.beef.tmp`]: 'in flight elsewhere',
      [`.${LOCK_FILE}.${dead.pid}.0a0b.tmp`]: 'a lock record never linked',
      [`${LOCK_FILE}.stale.${dead.pid}.0c0d`]: 'a stale lock moved aside by a host killed mid-takeover'
    }
  })
  const { logs } = await build(t, { root })
  t.same(readdirSync(join(root, 'default')).sort(), [`.${META}.${sleeper.pid}.beef.tmp`, META])
  t.equal(readFileSync(join(root, 'default', META), 'utf8'), valid('default'))
  t.ok(logs.some((l) => l.msg === 'removed stale metadata temp files'))
})

t.test('a profile owned by another live process refuses PATCH with profile_locked', async (t) => {
  const sleeper = spawn('sleep', ['30'])
  t.teardown(() => { sleeper.kill('SIGKILL') })
  const lock = JSON.stringify({ pid: sleeper.pid, started_at: '2024-01-01T00:00:00.000Z', hostname: 'other', acquired_at: '2024-01-01T00:00:00.000Z' })
  const root = t.testdir({ default: { [META]: valid('default'), [LOCK_FILE]: lock } })
  const { app } = await build(t, { root })
  const res = await app.inject({ method: 'PATCH', url: '/v1/profiles/default', payload: { labels: { a: 'b' } } })
  t.equal(res.statusCode, 423)
  t.match(res.json(), { error: { code: 'profile_locked', details: { pid: sleeper.pid } } })
  t.equal(readFileSync(join(root, 'default', META), 'utf8'), valid('default'))
  t.equal(readFileSync(join(root, 'default', LOCK_FILE), 'utf8'), lock)
})

t.test('acquire takes over a stale lock, logs it, and releases on close', async (t) => {
  const dead = spawn('true')
  await once(dead, 'exit')
  const root = t.testdir({ default: { [META]: valid('default'), [LOCK_FILE]: JSON.stringify({ pid: dead.pid, started_at: 'x', hostname: 'gone', acquired_at: 'x' }) } })
  const { app, logs } = await build(t, { root })
  await app.profiles.acquire('default')
  await app.profiles.acquire('default')
  t.equal(JSON.parse(readFileSync(join(root, 'default', LOCK_FILE), 'utf8')).pid, process.pid)
  const warned = logs.filter((l) => l.msg === 'took over a stale profile lock')
  t.equal(warned.length, 1, 'logged once; the second acquire is a no-op')
  t.match(warned[0], { level: 40, profile: 'default', reason: 'dead_pid', previous_lock: { pid: dead.pid } })

  // While owned, writes reuse the process lock instead of taking a second one.
  const res = await app.inject({ method: 'PATCH', url: '/v1/profiles/default', payload: { labels: { a: 'b' } } })
  t.equal(res.statusCode, 200)
  t.ok(existsSync(join(root, 'default', LOCK_FILE)))
  await app.close()
  t.notOk(existsSync(join(root, 'default', LOCK_FILE)), 'released on close')
})

t.test('concurrent label patches are serialized, none lost', async (t) => {
  const { app } = await build(t)
  const results = await Promise.all(Array.from({ length: 8 }, (_, i) =>
    app.inject({ method: 'PATCH', url: '/v1/profiles/default', payload: { labels: { [`k${i}`]: String(i) } } })))
  t.same(results.map((r) => r.statusCode), Array(8).fill(200))
  const final = (await app.inject({ method: 'GET', url: '/v1/profiles/default' })).json().profile
  t.same(Object.keys(final.labels).sort(), ['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7'])
})

t.test('a directory without metadata is not a profile and can be adopted by create', async (t) => {
  const root = t.testdir({ loose: { browser: { Cookies: 'keep' } } })
  mkdirSync(join(root, 'Not-A-Profile'))
  writeFileSync(join(root, '.afhttp-token'), 'secret')
  const { app } = await build(t, { root })
  const list = await app.inject({ method: 'GET', url: '/v1/profiles' })
  t.same(list.json().profiles.map((p: { name: string }) => p.name), ['default'])
  const res = await app.inject({ method: 'POST', url: '/v1/profiles', payload: { name: 'loose' } })
  t.equal(res.statusCode, 201)
  t.equal(readFileSync(join(root, 'loose', 'browser', 'Cookies'), 'utf8'), 'keep')
})
