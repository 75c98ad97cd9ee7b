import t from 'tap'
import { mkdtemp, readFile, rm, stat, appendFile, open } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { AuditTrail, AUDIT_FILE, type AuditFs } from '../../src/audit/trail.js'
import { auditEntryOf, keepLastHandoffs, originOf, parseAuditLines, type AuditEntry } from '../../src/core/audit.js'

const log = pino({ level: 'silent' })
const entry = (fence: string, kind: AuditEntry['kind'] = 'minted', at = '2026-12-01T09:00:00.000Z'): AuditEntry => ({ at, handoff_fence: fence, kind, tab_id: `tab_${fence}`, profile: 'p' })

async function dir (t: { teardown: (fn: () => Promise<void>) => void }): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'afhttp-audit-'))
  t.teardown(() => rm(d, { recursive: true, force: true }))
  return d
}

t.test('origins only: never a path, query or fragment', async (t) => {
  t.equal(originOf('https://example.test:8443/login?token=SECRET#frag'), 'https://example.test:8443')
  t.equal(originOf('about:blank'), 'about:')
  t.equal(originOf('data:text/html,<b>SECRET</b>'), 'data:')
  t.equal(originOf('not a url SECRET'), 'invalid:')
})

t.test('transitions become entries without text, values or full URLs', async (t) => {
  const at = Date.parse('2026-12-01T09:00:00Z')
  const finished = auditEntryOf({ type: 'handoff.finished', at, tab_id: 'tab1', profile: 'p', data: { state: 'finished', finish_reason: 'human_declined', handoff_fence: 'f', expires_at: 'x', controller: 'agent', generation: 3, auto_done: false, will_check_again: false, checks_left: 0, human_note: 'typed SECRET', outcome: { final_url: 'https://site.test/done?session=SECRET', navigated: true, cookies_set: ['sid'] }, by: 'person', held_ms: 5 } })
  t.same(finished, { at: '2026-12-01T09:00:00.000Z', handoff_fence: 'f', tab_id: 'tab1', profile: 'p', kind: 'finished', reason: 'human_declined', by: 'person', outcome: { navigated: true, final_origin: 'https://site.test', cookies_set: ['sid'] } })
  t.notOk(JSON.stringify(finished).includes('SECRET'))
  t.match(auditEntryOf({ type: 'handoff.exchanged', at, tab_id: 'tab1', profile: 'p', data: { handoff_fence: 'f', mode: 'control', remote_address: '127.0.0.1', user_agent: 'UA' } }), { kind: 'exchanged', viewer: { remote_address: '127.0.0.1', user_agent: 'UA', mode: 'control' } })
  t.match(auditEntryOf({ type: 'handoff.control', at, tab_id: 'tab1', profile: 'p', data: { handoff_fence: 'f', controller: 'human', generation: 2, state: 'human', viewer_id: 'v_1' } }), { kind: 'control', to: 'human', generation: 2, viewer_id: 'v_1' })
  t.equal(auditEntryOf({ type: 'tab.opened', at, tab_id: 'tab1', profile: 'p', data: { url: 'https://x.test/?q=1', origin: 'host' } }), undefined, 'tabs are not handoffs')
  t.equal(auditEntryOf({ type: 'handoff.viewer_joined', at, tab_id: 'tab1', profile: 'p', data: { handoff_fence: 'f', viewers: 1, viewer_id: 'v', mode: 'view' } }), undefined, 'a join is told by exchanged and control')
})

t.test('a torn last line is skipped, never fatal; the bound keeps the newest handoffs', async (t) => {
  const text = `${JSON.stringify(entry('a'))}\n${JSON.stringify(entry('b'))}\n{"at":"2026-12-01T09:00:01.000Z","handoff_fe`
  t.same(parseAuditLines(text), { entries: [entry('a'), entry('b')], skipped: 1 })
  const many = ['a', 'b', 'a', 'c', 'd'].map((f) => entry(f, 'control'))
  t.same(keepLastHandoffs(many, 2).map((e) => e.handoff_fence), ['c', 'd'])
  t.same(keepLastHandoffs(many, 9), many)
})

t.test('appended within the flush interval as 0600, readable by a fresh trail (a restart), a torn tail mended', async (t) => {
  const d = await dir(t)
  const deps = { dirOf: () => d, profiles: async () => ['p'], keep: 1000, log, flushMs: 20 }
  const first = new AuditTrail(deps)
  first.record(entry('a'))
  first.record(entry('a', 'exchanged'))
  await new Promise((resolve) => setTimeout(resolve, 200))
  const file = join(d, AUDIT_FILE)
  t.equal((await readFile(file, 'utf8')).trim().split('\n').length, 2, 'on disk without a close: a SIGKILL now loses nothing')
  t.equal((await stat(file)).mode & 0o777, 0o600)
  // A crash in the middle of a line.
  await appendFile(file, '{"at":"2026-12-01T09:00:02.000Z","hand')
  const second = new AuditTrail(deps)
  t.same((await second.forTab('tab_a')).map((e) => e.kind), ['minted', 'exchanged'], 'read after a restart, the torn line skipped')
  second.record(entry('b'))
  await second.close()
  const lines = (await readFile(file, 'utf8')).split('\n')
  t.equal(lines[3], JSON.stringify(entry('b')), 'the next entry starts on its own line')
  t.same((await second.read('p')).map((e) => e.handoff_fence), ['a', 'a', 'b'])
})

t.test('a read while a batch is being written sees every entry once', async (t) => {
  const d = await dir(t)
  let writing: (() => void) | undefined
  const fs: AuditFs = {
    readFile,
    open: (async (path: string, flags: string, mode?: number) => {
      const fh = await open(path, flags, mode)
      return new Proxy(fh, { get (target, prop) {
        // The write waits for the test's word: the batch is in flight meanwhile.
        if (prop === 'write') return async (...args: unknown[]) => { await new Promise<void>((resolve) => { writing = resolve }); return (target.write as (...a: unknown[]) => unknown)(...args) }
        const v = Reflect.get(target, prop) as unknown
        return typeof v === 'function' ? v.bind(target) : v
      } })
    }) as AuditFs['open']
  }
  const trail = new AuditTrail({ dirOf: () => d, profiles: async () => ['p'], keep: 1000, log, fs, flushMs: 1 })
  trail.record(entry('a'))
  while (!writing) await new Promise((resolve) => setTimeout(resolve, 1))
  const read = trail.read('p')
  // The write lands only after a read beside it would have read the file and the queue.
  setTimeout(writing, 100)
  t.same((await read).map((e) => e.handoff_fence), ['a'], 'the in-flight entry, once')
  await trail.close()
})

t.test('a disk that refuses writes is reported and retried, never a crash; entries are kept in order', async (t) => {
  const d = await dir(t)
  let full = true
  const fs: AuditFs = {
    readFile,
    open: (async (path: string, flags: string, mode?: number) => {
      const fh = await open(path, flags, mode)
      if (!full) return fh
      return new Proxy(fh, { get (target, prop) {
        if (prop === 'write') return async () => { throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }) }
        const v = Reflect.get(target, prop) as unknown
        return typeof v === 'function' ? v.bind(target) : v
      } })
    }) as AuditFs['open']
  }
  const trail = new AuditTrail({ dirOf: () => d, profiles: async () => ['p'], keep: 1000, log, fs, flushMs: 10 })
  trail.record(entry('a'))
  await trail.flush()
  t.match(trail.warnings('p'), [{ code: 'audit_write_failed', message: /ENOSPC/ }])
  t.same((await trail.read('p')).map((e) => e.kind), ['minted'], 'still readable from memory')
  trail.record(entry('a', 'finished'))
  full = false
  await trail.flush()
  t.same(trail.warnings('p'), [], 'the disk took them once it could')
  t.same(parseAuditLines(await readFile(join(d, AUDIT_FILE), 'utf8')).entries.map((e) => e.kind), ['minted', 'finished'])
  await trail.close()
})

t.test('past AFHTTP_AUDIT_KEEP the oldest handoffs are dropped, from answers and (compacted) from the file', async (t) => {
  const d = await dir(t)
  const trail = new AuditTrail({ dirOf: () => d, profiles: async () => ['p'], keep: 3, log, flushMs: 5 })
  for (let i = 0; i < 15; i++) trail.record(entry(`h${String(i).padStart(2, '0')}`))
  t.same((await trail.read('p')).map((e) => e.handoff_fence), ['h12', 'h13', 'h14'])
  await trail.close()
  const onDisk = parseAuditLines(await readFile(join(d, AUDIT_FILE), 'utf8')).entries
  t.ok(onDisk.length <= 3 + 10, `the file was compacted (${onDisk.length} entries)`)
})
