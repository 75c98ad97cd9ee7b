import t from 'tap'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { recognizePage } from '../../src/core/challenge.js'
import { documentTitle, visibleText } from '../helpers/visible-text.js'
import { recognitionDoc, score, summaryLines, type Outcome } from '../helpers/recognition-score.js'

// The corpus of real captures (test/fixtures/real/index.json): provider pages and ordinary
// pages exactly as their public sources hold them, with where each came from.
const DIR = fileURLToPath(new URL('../fixtures/real/', import.meta.url))
interface Entry {
  file: string
  status: number
  headers: Record<string, string>
  csp: string
  expect: { page_kind: string | null, provider: string | null }
  source: { repository: string, path: string, commit: string, sha256: string, extracted?: string }
}
const index = JSON.parse(readFileSync(DIR + 'index.json', 'utf8')) as { fixtures: Entry[], not_found: string[] }

t.test('every real page is indexed with its source, and only real sources are indexed', async t => {
  const onDisk = readdirSync(DIR).filter(f => f.endsWith('.html')).sort()
  t.same(index.fixtures.map(f => f.file).sort(), onDisk, 'index.json lists exactly the HTML files')
  for (const f of index.fixtures) {
    t.match(f.source.repository, /^[\w.-]+\/[\w.-]+$/, `${f.file}: repository`)
    t.ok(f.source.path.length > 0, `${f.file}: path`)
    t.match(f.source.commit, /^[0-9a-f]{40}$/, `${f.file}: commit`)
    t.match(f.source.sha256, /^[0-9a-f]{64}$/, `${f.file}: sha256 of the source`)
    t.ok(Number.isInteger(f.status) && f.status >= 100 && f.status <= 599, `${f.file}: status`)
    t.match(f.csp, /^default-src 'self'/, `${f.file}: a CSP that keeps Chromium on 127.0.0.1`)
    // Where the page is the source file itself, the stored bytes are the source's bytes.
    if (f.source.extracted === undefined) {
      t.equal(createHash('sha256').update(readFileSync(DIR + f.file)).digest('hex'), f.source.sha256, `${f.file}: unmodified`)
    }
  }
})

const outcomes: Outcome[] = []
for (const f of index.fixtures) {
  t.test(`real ${f.file} → ${f.expect.page_kind ?? '(absent)'} / ${f.expect.provider ?? 'no challenge'}`, async t => {
    const html = readFileSync(DIR + f.file, 'utf8')
    const r = recognizePage({ status: f.status, url: 'http://127.0.0.1/page', title: documentTitle(html), html, text: visibleText(html), headers: f.headers })
    outcomes.push({ file: f.file, expect: f.expect, got: { page_kind: r.page_kind ?? null, provider: r.challenge?.provider ?? null } })
    t.equal(r.page_kind ?? null, f.expect.page_kind, 'page_kind')
    t.equal(r.challenge?.provider ?? null, f.expect.provider, 'provider')
    if (r.challenge !== undefined) t.ok(r.challenge.evidence.length > 0, `evidence: ${r.challenge.evidence.join('; ')}`)
  })
}

t.test('summary', async t => {
  const s = score(outcomes)
  for (const line of summaryLines(s)) t.comment(line)
  // scripts/recognition-report.mjs sets this to regenerate docs/recognition.md.
  const doc = process.env.AFHTTP_RECOGNITION_DOC
  if (doc) {
    const sources = [...new Set(index.fixtures.map(f => `${f.source.repository} at ${f.source.commit.slice(0, 12)}`))]
    const counts = sources.map(source => {
      const n = index.fixtures.filter(f => source.startsWith(f.source.repository + ' ')).length
      return `${source} (${n} page${n === 1 ? '' : 's'})`
    })
    writeFileSync(doc, recognitionDoc(s, outcomes, index.not_found, counts))
  }
  t.equal(s.total, index.fixtures.length, 'every page was scored')
})
