import t from 'tap'
import { recognitionDoc, type Outcome } from '../helpers/recognition-score.js'

// The report's held-out views (docs/recognition.md): each batch now, each batch as first scored
// blind, and the blind batches pooled. The numbers here are made up for the arithmetic only.

const gate = (file: string, batch: number, right: boolean, examined?: string): Outcome => ({
  file, batch, split: 'held_out', year: 2026, examined,
  expect: { page_kind: 'challenge', provider: 'datadome' },
  got: right ? { page_kind: 'challenge', provider: 'datadome' } : { page_kind: 'content', provider: null }
})
const other = (file: string, batch: number, flagged: boolean): Outcome => ({
  file, batch, split: 'held_out', year: 2025,
  expect: { page_kind: 'content', provider: null },
  got: flagged ? { page_kind: 'challenge', provider: 'generic' } : { page_kind: 'content', provider: null }
})

t.test('the held-out views: batches now, batches blind, and the blind batches pooled', async t => {
  const outcomes = [
    gate('a.html', 1, true), other('b.html', 1, false),
    gate('c.html', 2, true), gate('d.html', 2, true, 'looked at before rule X'), other('e.html', 2, false),
    gate('f.html', 3, false), other('g.html', 3, true)
  ]
  const firstScores = {
    2: { gates: 2, recognized: 1, provider_right: 1, other_pages: 1, false_positives: 0, rules_at: 'aaaaaaa' },
    3: { gates: 1, recognized: 0, provider_right: 0, other_pages: 1, false_positives: 1, rules_at: 'bbbbbbb' }
  }
  const doc = recognitionDoc({ outcomes, notFound: [], sources: [], heldOutRule: 'a rule', firstScores })
  t.match(doc, '- all 7 held-out pages (1 examined), with the rules as they are now: not reached (3/4 gates recognized, 3/4 = 75.0 % with the right provider, 1 false positive among 3 other pages)')
  t.match(doc, '  - batch 2 (3 pages, 1 examined), now: reached (2/2 gates recognized, 2/2 = 100.0 % with the right provider, 0 false positives among 1 other pages)')
  t.match(doc, '  - batch 2 blind, as first scored with the rules of commit aaaaaaa: 1/2 gates recognized, 1/2 = 50.0 % with the right provider, 0 false positives among 1 other pages')
  t.match(doc, '- the blind batches pooled: 1/3 gates recognized, 1/3 = 33.3 % with the right provider, 1 false positive among 2 other pages')
  t.match(doc, '- d.html: looked at before rule X', 'an examined page is listed with why')
})

t.test('a batch without gates is not said to miss the target', async t => {
  const doc = recognitionDoc({ outcomes: [gate('a.html', 1, true), other('b.html', 2, false), other('c.html', 2, false), other('d.html', 3, true)], notFound: [], sources: [], heldOutRule: 'a rule' })
  t.match(doc, '  - batch 2 (2 pages, 0 examined), now: no gates to recognize; no false positive among 2 other pages')
  t.match(doc, '  - batch 3 (1 pages, 0 examined), now: no gates to recognize; 1 false positive among 1 other pages')
})

t.test('one blind batch is not pooled', async t => {
  const outcomes = [gate('a.html', 1, true), gate('b.html', 2, true)]
  const firstScores = { 2: { gates: 1, recognized: 1, provider_right: 1, other_pages: 0, false_positives: 0, rules_at: 'ccccccc' } }
  const doc = recognitionDoc({ outcomes, notFound: [], sources: [], heldOutRule: 'a rule', firstScores })
  t.match(doc, 'batch 2 blind, as first scored')
  t.notMatch(doc, 'pooled')
})
