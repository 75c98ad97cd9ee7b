// Property-based tests (fast-check) of the pure parsers that stand between hostile bytes and
// the host: panel messages, profile metadata files, and the durable writer's retry loop.
import t from 'tap'
import fc from 'fast-check'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { MAX_MESSAGE_BYTES, MAX_PASTE_CHARS, MAX_TEXT_CHARS, parsePanelMessage } from '../../src/panel/messages.js'
import { NAMED_KEYS } from '../../src/vocabulary/keys.js'
import { AfhttpError } from '../../src/errors.js'
import { LIMITS, parseMetadata, serializeMetadata, type ProfileMetadata } from '../../src/core/profile-metadata.js'
import { durableWrite, nodeFs, type DurableFileHandle, type DurableFs } from '../../src/store/durable-write.js'

/** Every field a parsed panel message may carry, per type: nothing else is ever passed on. */
const FIELDS: Record<string, string[]> = {
  mouse: ['t', 'g', 'type', 'x', 'y', 'button', 'clicks', 'mods'],
  wheel: ['t', 'g', 'x', 'y', 'dx', 'dy', 'mods'],
  key: ['t', 'g', 'type', 'key', 'mods'],
  shortcut: ['t', 'g', 'key', 'shift'],
  text: ['t', 'g', 'text'],
  paste: ['t', 'g', 'text'],
  size: ['t', 'width', 'height', 'dpr', 'whole'],
  take: ['t'],
  release: ['t'],
  done: ['t']
}

const num = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(1e308, -1e308, 100_001, -100_001, 20_001), fc.string({ maxLength: 5 }), fc.constant(null), fc.boolean())
const panelObject = fc.record({
  t: fc.oneof(fc.constantFrom(...Object.keys(FIELDS)), fc.string({ maxLength: 10 }), num),
  g: fc.oneof(fc.nat(), num),
  type: fc.oneof(fc.constantFrom('down', 'move', 'up', 'drag'), num),
  x: num,
  y: num,
  dx: num,
  dy: num,
  button: fc.oneof(fc.constantFrom('left', 'right', 'middle', 'none', 'back'), num),
  clicks: num,
  mods: num,
  key: fc.oneof(fc.constantFrom(...Object.keys(NAMED_KEYS), 'a', 'z', 'y', 'r', '__proto__', 'toString'), fc.string({ maxLength: 12 })),
  shift: fc.anything({ maxDepth: 1 }),
  text: fc.oneof(fc.string({ maxLength: 50 }), fc.constant('t'.repeat(MAX_TEXT_CHARS + 1)), fc.constant('p'.repeat(MAX_PASTE_CHARS + 1))),
  width: num,
  height: num,
  dpr: num,
  whole: fc.anything({ maxDepth: 1 }),
  extra: fc.anything({ maxDepth: 2 })
}, { requiredKeys: [] })

t.test('parsePanelMessage: any text is accepted within the limits, or refused with a reason; never a throw', async (t) => {
  const raw = fc.oneof(
    panelObject.map((o) => JSON.stringify(o)),
    fc.string({ maxLength: 200 }),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc.constantFrom('['.repeat(10_000), '{"t":"take"'.repeat(3), 'x'.repeat(MAX_MESSAGE_BYTES + 1))
  )
  fc.assert(fc.property(raw, (text) => {
    const res = parsePanelMessage(text)
    if (!res.ok) return typeof res.error === 'string' && res.error.length > 0 && res.error.length < 200
    const m = res.msg as Record<string, unknown>
    const allowed = FIELDS[m.t as string]
    if (!allowed) return false
    if (Object.keys(m).some((k) => !allowed.includes(k))) return false
    const finite = (k: string, limit: number): boolean => m[k] === undefined || (typeof m[k] === 'number' && Number.isFinite(m[k]) && Math.abs(m[k] as number) <= limit)
    if (!finite('x', 100_000) || !finite('y', 100_000) || !finite('dx', 100_000) || !finite('dy', 100_000)) return false
    if (!finite('width', 20_000) || !finite('height', 20_000) || !finite('dpr', 8)) return false
    if ('g' in m && !(Number.isSafeInteger(m.g) && (m.g as number) >= 0)) return false
    if (m.t === 'text' && (m.text as string).length > MAX_TEXT_CHARS) return false
    if (m.t === 'paste' && (m.text as string).length > MAX_PASTE_CHARS) return false
    if (m.t === 'key' && !Object.hasOwn(NAMED_KEYS, m.key as string)) return false
    return true
  }), { numRuns: 1500 })
  t.pass('1500 hostile panel messages')
})

const iso = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString())
const validMeta: fc.Arbitrary<ProfileMetadata> = fc.record({
  backend: fc.constantFrom('chromium' as const, 'cdp' as const),
  labels: fc.dictionary(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._/-]{0,20}$/), fc.string({ maxLength: LIMITS.labelValue }), { maxKeys: LIMITS.labels }),
  created_at: iso,
  updated_at: iso
}).map(({ backend, labels, created_at: c, updated_at: u }) => ({
  schema_version: 1 as const,
  name: 'work',
  backend,
  ...(backend === 'cdp' ? { cdp_url: 'ws://127.0.0.1:9222/devtools/browser/x' } : {}),
  labels,
  created_at: c,
  updated_at: u
}))

t.test('parseMetadata: what serializeMetadata writes reads back the same', async (t) => {
  fc.assert(fc.property(validMeta, (meta) => {
    const back = parseMetadata(serializeMetadata(meta), 'work', '/p/work/afhttp-profile.json')
    return JSON.stringify(back) === JSON.stringify(JSON.parse(serializeMetadata(meta)))
  }), { numRuns: 300 })
  t.pass('300 round trips')
})

t.test('parseMetadata: any bytes are valid metadata or profile_metadata_invalid, never another error', async (t) => {
  const bytes = fc.oneof(
    fc.uint8Array({ maxLength: 300 }),
    fc.string({ maxLength: 300 }).map((s) => new TextEncoder().encode(s)),
    fc.jsonValue().map((v) => new TextEncoder().encode(JSON.stringify(v))),
    // Valid files cut short or with one byte changed: what a crash or a bad disk leaves.
    fc.tuple(validMeta, fc.nat(), fc.integer({ min: 0, max: 255 })).map(([m, at, b]) => {
      const out = new TextEncoder().encode(serializeMetadata(m))
      const cut = out.subarray(0, at % (out.length + 1))
      if (cut.length && at % 3 === 0) cut[at % cut.length] = b
      return cut
    })
  )
  fc.assert(fc.property(bytes, (b) => {
    try {
      const meta = parseMetadata(b, 'work', '/p/work/afhttp-profile.json')
      return meta.name === 'work' && meta.schema_version === 1
    } catch (err) {
      return err instanceof AfhttpError && err.code === 'profile_metadata_invalid' && err.message.includes('/p/work/afhttp-profile.json')
    }
  }), { numRuns: 1500 })
  t.pass('1500 hostile metadata files')
})

t.test('durableWrite: any mix of short writes, EINTR and EAGAIN writes the exact bytes', async (t) => {
  const dir = t.testdir({})
  const target = join(dir, 'afhttp-profile.json')
  await fc.assert(fc.asyncProperty(
    fc.uint8Array({ minLength: 0, maxLength: 4096 }),
    // At least one step makes progress: a pattern of only errnos is the stall case, tested apart.
    fc.array(fc.oneof(fc.integer({ min: 1, max: 600 }), fc.constantFrom('EINTR', 'EAGAIN')), { minLength: 1, maxLength: 30 })
      .filter((p) => p.some((s) => typeof s === 'number')),
    async (data, pattern) => {
      let call = 0
      const fs: DurableFs = {
        ...nodeFs,
        async open (path, flags, mode): Promise<DurableFileHandle> {
          const fh = await nodeFs.open(path, flags, mode)
          return {
            write: async (buf, off, len, pos) => {
              const step = pattern[call++ % pattern.length]
              if (typeof step === 'string') throw Object.assign(new Error(step), { code: step })
              return fh.write(buf, off, Math.min(len, step), pos)
            },
            sync: () => fh.sync(),
            close: () => fh.close()
          }
        }
      }
      const res = await durableWrite(target, data, { fs })
      if (!res.durable) return false
      return Buffer.compare(readFileSync(target), Buffer.from(data)) === 0 && readdirSync(dir).length === 1
    }
  ), { numRuns: 100 })
  t.pass('100 write patterns')
})
