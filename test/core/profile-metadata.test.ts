import t, { type Test } from 'tap'
import { AfhttpError } from '../../src/errors.js'
import {
  newMetadata, parseMetadata, serializeMetadata, cdpUrlProblem, labelsProblem, LIMITS, type ProfileMetadata
} from '../../src/core/profile-metadata.js'

const FILE = '/profiles/work/afhttp-profile.json'
const valid: ProfileMetadata = {
  schema_version: 1,
  name: 'work',
  backend: 'chromium',
  labels: { team: 'growth' },
  created_at: '2024-05-01T10:00:00.000Z',
  updated_at: '2024-05-02T10:00:00.000Z'
}
const json = (doc: unknown): string => JSON.stringify(doc)

/** Every rejection must carry the operator guidance of docs/spec.md section 4, not just the code. */
function assertGuidance (t: Test, err: unknown, problem: RegExp): void {
  t.ok(err instanceof AfhttpError, 'an AfhttpError')
  const e = err as AfhttpError
  t.equal(e.code, 'profile_metadata_invalid')
  t.match(e.message, FILE, 'names the metadata file')
  t.match(e.message, /browser data in this profile is not shown to be corrupt/)
  t.match(e.message, /Back up the profile directory \/profiles\/work/)
  t.match(e.message, /repair .* with its actual name "work" and backend/)
  t.match(e.details, { file: FILE, expected_name: 'work' })
  t.match(String(e.details.problem), problem)
}

function parseError (bytes: Uint8Array | string, dirBackend?: 'chromium'): unknown {
  try {
    parseMetadata(bytes, 'work', FILE, { directoryBackend: dirBackend })
  } catch (err) {
    return err
  }
  return undefined
}

const invalid: Array<[string, Uint8Array | string, RegExp]> = [
  ['empty file', new Uint8Array(0), /empty/],
  ['whitespace only', '  \n', /empty/],
  ['EOF in the middle (truncated)', serializeMetadata(valid).slice(0, 40), /truncated/],
  ['bad JSON', '{"schema_version": 1, name: work}', /not valid JSON/],
  ['not UTF-8', new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), /UTF-8/],
  ['a JSON array', '[]', /not a JSON object/],
  ['wrong schema_version', json({ ...valid, schema_version: 2 }), /schema_version is 2/],
  ['missing schema_version', json({ ...valid, schema_version: undefined }), /schema_version/],
  ['unknown field', json({ ...valid, colour: 'red' }), /unknown field "colour"/],
  ['name mismatch', json({ ...valid, name: 'personal' }), /name is "personal" but the directory is "work"/],
  ['unknown backend', json({ ...valid, backend: 'firefox' }), /backend is "firefox"/],
  ['cdp without cdp_url', json({ ...valid, backend: 'cdp' }), /cdp_url is missing/],
  ['cdp with a file: URL', json({ ...valid, backend: 'cdp', cdp_url: 'file:///etc/passwd' }), /cdp_url must be a ws/],
  ['chromium with cdp_url', json({ ...valid, cdp_url: 'ws://127.0.0.1:9222' }), /cdp_url is set/],
  ['labels not a map of strings', json({ ...valid, labels: { n: 1 } }), /labels "n" must be a string/],
  ['too many labels', json({ ...valid, labels: Object.fromEntries(Array.from({ length: LIMITS.labels + 1 }, (_, i) => [`k${i}`, 'v'])) }), /at most/],
  ['bad created_at', json({ ...valid, created_at: 'yesterday' }), /created_at/]
]

for (const [name, bytes, problem] of invalid) {
  t.test(`${name} is profile_metadata_invalid with guidance`, async (t) => {
    assertGuidance(t, parseError(bytes), problem)
  })
}

t.test('every cut of a valid file is reported as truncated, never as valid', async (t) => {
  const full = serializeMetadata(valid)
  const complete = full.trimEnd().length
  for (let cut = 1; cut < complete; cut++) {
    const err = parseError(full.slice(0, cut)) as AfhttpError | undefined
    if (err?.details.problem !== 'the file ends before the JSON is complete (truncated)') {
      t.fail(`cut at ${cut} gave ${err?.details.problem ?? 'no error'}`)
      return
    }
  }
  t.pass(`all ${complete - 1} cuts are truncated`)
})

t.test('backend mismatch with the directory (cdp metadata over Chromium browser data)', async (t) => {
  const doc = json({ ...valid, backend: 'cdp', cdp_url: 'http://127.0.0.1:9222' })
  const err = parseError(doc, 'chromium')
  assertGuidance(t, err, /backend is "cdp" but the directory holds chromium browser data/)
  t.match((err as AfhttpError).message, /backend "chromium"/, 'names the actual backend to put back')
  t.equal((err as AfhttpError).details.expected_backend, 'chromium')
  t.equal(parseError(doc), undefined, 'the same file is fine where the directory shows no backend')
})

t.test('valid metadata round-trips through serialize and parse', async (t) => {
  t.same(parseMetadata(serializeMetadata(valid), 'work', FILE), valid)
  const cdp = newMetadata({ name: 'work', backend: 'cdp', cdp_url: 'ws://127.0.0.1:9222/devtools/browser/x' }, new Date('2024-01-01T00:00:00Z'))
  t.same(parseMetadata(Buffer.from(serializeMetadata(cdp)), 'work', FILE), cdp)
  t.equal(cdp.created_at, '2024-01-01T00:00:00.000Z')
  t.ok(serializeMetadata(valid).endsWith('}\n'))
})

t.test('newMetadata defaults to chromium with empty labels', async (t) => {
  const meta = newMetadata({ name: 'fresh' })
  t.match(meta, { schema_version: 1, name: 'fresh', backend: 'chromium', labels: {} })
  t.equal(meta.created_at, meta.updated_at)
  t.notOk('cdp_url' in meta)
})

t.test('field checks used by the API', async (t) => {
  t.equal(cdpUrlProblem('wss://example.com/devtools'), undefined)
  t.equal(cdpUrlProblem('https://10.0.0.2:9222'), undefined)
  t.match(cdpUrlProblem('ftp://x'), /ws:\/\//)
  t.match(cdpUrlProblem('ws://'), /not a valid URL/)
  t.match(cdpUrlProblem('ws://x/' + 'a'.repeat(LIMITS.cdpUrl)), /at most/)
  t.equal(labelsProblem({ 'team/area': 'x' }), undefined)
  t.match(labelsProblem({ '__proto__x': 'x' }), /key/)
  t.match(labelsProblem({ k: 'v'.repeat(LIMITS.labelValue + 1) }), /at most/)
  t.match(labelsProblem(['a']), /object/)
})
