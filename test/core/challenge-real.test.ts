import t from 'tap'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { fieldProblems, heldOut, recognizeCapture, type CorpusEntry } from '../helpers/real-corpus.js'
import { recognitionDoc, score, summaryLines, type FirstScore, type Outcome } from '../helpers/recognition-score.js'

// The corpus of real captures (test/fixtures/real/index.json): provider pages and ordinary
// pages exactly as their public sources hold them, with where each came from.
const DIR = fileURLToPath(new URL('../fixtures/real/', import.meta.url))
const index = JSON.parse(readFileSync(DIR + 'index.json', 'utf8')) as { fixtures: CorpusEntry[], not_found: string[], held_out_rule: string, held_out_first_scores: Record<string, FirstScore | string> }

// Each later held-out batch's blind score, as first scored (index.json held_out_first_scores).
const FIRST_SCORES = Object.fromEntries(Object.entries(index.held_out_first_scores).filter(([key]) => key !== '$comment')) as Record<string, FirstScore>

// The held-out pages' score with the current rules, examined pages included (their answers are
// listed as not blind in docs/recognition.md; the blind numbers are FIRST_SCORES). A floor, not a
// target: a change that loses ground on held-out pages fails here.
const HELD_OUT_FLOOR = { recognized: 407, providerRight: 406, falsePositives: 0 }

t.test('every real page is indexed with its source, and only real sources are indexed', async t => {
  const onDisk = readdirSync(DIR).filter(f => f.endsWith('.html')).sort()
  t.same(index.fixtures.map(f => f.file).sort(), onDisk, 'index.json lists exactly the HTML files')
  // The split is by source: every page of a repository is on the same side, and the rule that
  // put a repository on its side does not look at its pages.
  for (const f of index.fixtures) {
    t.equal(f.split, heldOut(f.source.repository) ? 'held_out' : 'training', `${f.file}: ${f.source.repository} is on its side of the split`)
  }
  for (const f of index.fixtures) {
    // Its source, status, address and year, as a collected page's are checked (fieldProblems).
    t.same(fieldProblems(f), [], `${f.file}: its fields`)
    t.match(f.csp, /^default-src 'self'/, `${f.file}: a CSP that keeps Chromium on 127.0.0.1`)
    t.ok(f.split === 'training' || f.split === 'held_out', `${f.file}: split`)
    // Only a held-out page can be examined (training pages are the ones rules are written from) or
    // belong to a held-out batch.
    if (f.examined !== undefined || f.batch !== undefined) t.equal(f.split, 'held_out', `${f.file}: examined and batch are for held-out pages`)
    if (f.batch !== undefined) t.ok(f.batch === 1 || String(f.batch) in FIRST_SCORES, `${f.file}: batch ${f.batch} has its blind first score recorded`)
    // Where the page is the source file itself, the stored bytes are the source's bytes.
    if (f.source.extracted === undefined) {
      t.equal(createHash('sha256').update(readFileSync(DIR + f.file)).digest('hex'), f.source.sha256, `${f.file}: unmodified`)
    }
  }
})

const outcomes: Outcome[] = []
for (const f of index.fixtures) {
  const side = f.split === 'held_out' ? 'held out' : 'training'
  t.test(`real (${side}) ${f.file} → ${f.expect.page_kind ?? '(absent)'} / ${f.expect.provider ?? 'no challenge'}`, async t => {
    const { got, evidence } = recognizeCapture(f, readFileSync(DIR + f.file, 'utf8'))
    outcomes.push({ file: f.file, expect: f.expect, got, split: f.split, year: f.year, evidence, examined: f.examined, batch: f.batch })
    if (evidence !== undefined) t.ok(evidence.length > 0, `evidence: ${evidence.join('; ')}`)
    if (f.split === 'held_out') {
      // Held-out pages are scored, not asserted one by one (see HELD_OUT_FLOOR).
      t.comment(`expected ${f.expect.page_kind ?? '(absent)'} / ${f.expect.provider ?? '—'}, recognized ${got.page_kind ?? '(absent)'} / ${got.provider ?? '—'}`)
      return
    }
    t.equal(got.page_kind, f.expect.page_kind, 'page_kind')
    t.equal(got.provider, f.expect.provider, 'provider')
  })
}

t.test('summary', async t => {
  const s = score(outcomes)
  for (const line of summaryLines(s)) t.comment(`all: ${line}`)
  const held = score(outcomes.filter(o => o.split === 'held_out'))
  for (const line of summaryLines(held)) t.comment(`held out: ${line}`)
  t.ok(held.recognized >= HELD_OUT_FLOOR.recognized, `held-out gates recognized ${held.recognized} ≥ ${HELD_OUT_FLOOR.recognized}`)
  t.ok(held.providerRight >= HELD_OUT_FLOOR.providerRight, `held-out provider right ${held.providerRight} ≥ ${HELD_OUT_FLOOR.providerRight}`)
  t.ok(held.falsePositives <= HELD_OUT_FLOOR.falsePositives, `held-out false positives ${held.falsePositives} ≤ ${HELD_OUT_FLOOR.falsePositives}`)
  // scripts/recognition-report.mjs sets this to regenerate docs/recognition.md.
  const doc = process.env.AFHTTP_RECOGNITION_DOC
  if (doc) {
    const repositories = [...new Set(index.fixtures.map(f => f.source.repository))]
    const sources = repositories.map(repository => {
      const pages = index.fixtures.filter(f => f.source.repository === repository)
      const commits = [...new Set(pages.map(f => f.source.commit.slice(0, 12)))]
      const at = commits.length === 1 ? `at ${commits[0]}` : `at ${commits.length} commits`
      return `${repository} ${at} (${pages.length} page${pages.length === 1 ? '' : 's'}, ${pages[0].split === 'held_out' ? 'held out' : 'training'})`
    })
    writeFileSync(doc, recognitionDoc({ outcomes, notFound: index.not_found, sources, heldOutRule: index.held_out_rule, firstScores: FIRST_SCORES }))
  }
  // A blind first score counts the batch's pages as they are in the corpus.
  for (const [batch, first] of Object.entries(FIRST_SCORES)) {
    const pages = outcomes.filter(o => o.split === 'held_out' && String(o.batch) === batch)
    const gates = pages.filter(o => o.expect.page_kind === 'challenge').length
    t.same([first.gates, first.other_pages], [gates, pages.length - gates], `batch ${batch}: its first score counts its ${pages.length} pages`)
    t.ok(first.recognized <= first.gates && first.provider_right <= first.recognized, `batch ${batch}: its first score adds up`)
  }
  t.equal(s.total, index.fixtures.length, 'every page was scored')
})
