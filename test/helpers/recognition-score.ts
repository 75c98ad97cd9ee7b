// Scores recognition against a corpus of expected answers: per-provider and per-year recognized /
// missed / false positive counts, precision and recall, for the pages the rules were written
// against (training) and for those from sources kept out of rule-writing (held out), and the
// tables docs/recognition.md shows. Shared by the pure corpus test and the real-Chromium one so
// both report the same way.

export interface Expected { page_kind: string | null, provider: string | null }
export type Split = 'training' | 'held_out'
export interface Outcome {
  file: string
  expect: Expected
  got: Expected
  split?: Split
  year?: number | null
  evidence?: string[]
  /** Held out pages only: why its answer is no longer blind (a rule was changed after its miss was seen). */
  examined?: string
  /** Held out pages only: the batch it joined in (index.json $comment). */
  batch?: number
}

export interface Row { key: string, gates: number, recognized: number, providerRight: number, missed: number, nonGates: number, falsePositives: number }

export interface Score {
  rows: Array<{ provider: string, gates: number, recognized: number, missed: number, wrongProvider: number }>
  byYear: Row[]
  nonGates: { total: number, flagged: number, kindRight: number }
  gates: number
  recognized: number
  providerRight: number
  falsePositives: number
  kindRight: number
  total: number
}

const isGate = (e: Expected): boolean => e.page_kind === 'challenge'

export function score (outcomes: Outcome[]): Score {
  const byProvider = new Map<string, Score['rows'][number]>()
  const byYear = new Map<string, Row>()
  let recognized = 0; let providerRight = 0; let falsePositives = 0; let kindRight = 0; let nonGates = 0; let nonGateKind = 0
  for (const o of outcomes) {
    const yearKey = o.year === undefined || o.year === null ? 'unknown' : String(o.year)
    const year = byYear.get(yearKey) ?? { key: yearKey, gates: 0, recognized: 0, providerRight: 0, missed: 0, nonGates: 0, falsePositives: 0 }
    byYear.set(yearKey, year)
    const kindOk = o.got.page_kind === o.expect.page_kind
    if (kindOk) kindRight++
    if (isGate(o.expect)) {
      const provider = o.expect.provider ?? 'generic'
      const row = byProvider.get(provider) ?? { provider, gates: 0, recognized: 0, missed: 0, wrongProvider: 0 }
      byProvider.set(provider, row)
      row.gates++
      year.gates++
      if (isGate(o.got)) {
        recognized++
        row.recognized++
        year.recognized++
        if (o.got.provider === o.expect.provider) { providerRight++; year.providerRight++ } else row.wrongProvider++
      } else {
        row.missed++
        year.missed++
      }
    } else {
      nonGates++
      year.nonGates++
      if (kindOk) nonGateKind++
      if (isGate(o.got) || o.got.provider !== null) { falsePositives++; year.falsePositives++ }
    }
  }
  const gates = outcomes.length - nonGates
  return {
    rows: [...byProvider.values()].sort((a, b) => a.provider.localeCompare(b.provider)),
    byYear: [...byYear.values()].sort((a, b) => a.key.localeCompare(b.key)),
    nonGates: { total: nonGates, flagged: falsePositives, kindRight: nonGateKind },
    gates, recognized, providerRight, falsePositives, kindRight, total: outcomes.length
  }
}

const pct = (n: number, d: number): string => d === 0 ? 'n/a' : `${(100 * n / d).toFixed(1)} %`

/** Precision: of the pages reported as gates, how many are gates. Recall: of the gates, how many were reported. */
export function summaryLines (s: Score): string[] {
  const reported = s.recognized + s.falsePositives
  return [
    `pages ${s.total}: gates ${s.gates}, not gates ${s.nonGates.total}`,
    `gates recognized ${s.recognized}/${s.gates} (recall ${pct(s.recognized, s.gates)}), provider right ${s.providerRight}/${s.gates} (${pct(s.providerRight, s.gates)})`,
    `non-gates flagged ${s.falsePositives}/${s.nonGates.total} (precision ${pct(s.recognized, reported)}), page_kind right ${s.kindRight}/${s.total}`
  ]
}

export function providerTable (s: Score): string {
  const lines = ['| provider | gates | recognized | provider right | missed | wrong provider | recall |', '|---|---:|---:|---:|---:|---:|---:|']
  for (const r of s.rows) lines.push(`| ${r.provider} | ${r.gates} | ${r.recognized} | ${r.recognized - r.wrongProvider} | ${r.missed} | ${r.wrongProvider} | ${pct(r.recognized, r.gates)} |`)
  lines.push(`| **not a gate** | ${s.nonGates.total} | — | — | — | false positives: ${s.nonGates.flagged} | — |`)
  return lines.join('\n')
}

export function yearTable (s: Score): string {
  const lines = ['| year | gates | recognized | provider right | missed | not gates | false positives | precision |', '|---|---:|---:|---:|---:|---:|---:|---:|']
  for (const r of s.byYear) {
    lines.push(`| ${r.key} | ${r.gates} | ${r.recognized} | ${r.providerRight} | ${r.missed} | ${r.nonGates} | ${r.falsePositives} | ${pct(r.recognized, r.recognized + r.falsePositives)} |`)
  }
  return lines.join('\n')
}

export function pageTable (outcomes: Outcome[]): string {
  const lines = ['| page | split | year | expected kind / provider | recognized kind / provider |', '|---|---|---|---|---|']
  const show = (e: Expected): string => `${e.page_kind ?? '(absent)'} / ${e.provider ?? '—'}`
  for (const o of outcomes) {
    const same = show(o.expect) === show(o.got)
    lines.push(`| ${o.file} | ${o.split === 'held_out' ? 'held out' : 'training'} | ${o.year ?? '?'} | ${show(o.expect)} | ${same ? 'same' : `**${show(o.got)}**`} |`)
  }
  return lines.join('\n')
}

/** Kept for callers that want the old single table: the provider table and the page table. */
export function markdownTable (s: Score, outcomes: Outcome[]): string {
  return `${providerTable(s)}\n\n${pageTable(outcomes)}`
}

export interface DocInput {
  outcomes: Outcome[]
  notFound: string[]
  /** One line per source: repository, commit, pages, split. */
  sources: string[]
  heldOutRule: string
  /** Each held-out batch's score when first scored (index.json held_out_first_scores). */
  firstScores?: Record<string, FirstScore>
}

function targetLine (s: Score): string {
  // A batch of ordinary pages only measures the half of the target it can: no false positive.
  const falsePositives = `${s.falsePositives} false positive${s.falsePositives === 1 ? '' : 's'} among ${s.nonGates.total} other pages`
  if (s.gates === 0) return `no gates to recognize; ${s.falsePositives === 0 ? `no false positive among ${s.nonGates.total} other pages` : falsePositives}`
  const met = s.providerRight / s.gates >= 0.95 && s.falsePositives === 0
  return `${met ? 'reached' : 'not reached'} (${s.recognized}/${s.gates} gates recognized, ${s.providerRight}/${s.gates} = ${pct(s.providerRight, s.gates)} with the right provider, ${falsePositives})`
}

/** A held-out batch's score when first scored, before any rule looked at its pages (index.json held_out_first_scores). */
export interface FirstScore { gates: number, recognized: number, provider_right: number, other_pages: number, false_positives: number, rules_at: string }

/**
 * The held-out pages scored whole and batch by batch, with each batch's first score (before any
 * rule looked at its pages) beside it: which number is blind is said, not implied.
 */
/** How many of the latest blind batches are pooled on their own. */
const LATEST_BATCHES = 4

function heldOutViews (outcomes: Outcome[], firstScores: Record<string, FirstScore>): string[] {
  const heldOut = outcomes.filter(o => o.split === 'held_out')
  const examined = heldOut.filter(o => o.examined !== undefined)
  const lines = [`- all ${heldOut.length} held-out pages (${examined.length} examined), with the rules as they are now: ${targetLine(score(heldOut))}`]
  const batches = [...new Set(heldOut.map(o => o.batch ?? 1))].sort((a, b) => a - b)
  if (batches.length > 1) {
    lines.push(`- by batch (batch 1: the first held-out sources, whose misses were read and listed; batches 2 to ${batches[batches.length - 1]}: new sources collected later, each scored blind first):`)
    for (const batch of batches) {
      const pages = heldOut.filter(o => (o.batch ?? 1) === batch)
      const seen = pages.filter(o => o.examined !== undefined).length
      lines.push(`  - batch ${batch} (${pages.length} pages, ${seen} examined), now: ${targetLine(score(pages))}`)
      const first = firstScores[String(batch)]
      if (first !== undefined) {
        lines.push(`  - batch ${batch} blind, as first scored with the rules of commit ${first.rules_at}: ${first.recognized}/${first.gates} gates recognized, ${first.provider_right}/${first.gates} = ${pct(first.provider_right, first.gates)} with the right provider, ${first.false_positives} false positive${first.false_positives === 1 ? '' : 's'} among ${first.other_pages} other pages`)
      }
    }
    // Pooled over all blind batches, and over the latest ones: rules grow batch by batch, so the
    // latest say how they do now on pages nobody here has seen.
    const blind = Object.entries(firstScores).sort(([a], [b]) => Number(a) - Number(b)).map(([, first]) => first)
    const pooled = (label: string, scores: FirstScore[]): string => {
      const sum = (key: keyof Omit<FirstScore, 'rules_at'>): number => scores.reduce((total, first) => total + first[key], 0)
      return `- ${label}: ${sum('recognized')}/${sum('gates')} gates recognized, ${sum('provider_right')}/${sum('gates')} = ${pct(sum('provider_right'), sum('gates'))} with the right provider, ${sum('false_positives')} false positive${sum('false_positives') === 1 ? '' : 's'} among ${sum('other_pages')} other pages`
    }
    if (blind.length > 1) lines.push(pooled('the blind batches pooled', blind))
    if (blind.length > LATEST_BATCHES) lines.push(pooled(`the latest ${LATEST_BATCHES} blind batches pooled`, blind.slice(-LATEST_BATCHES)))
  }
  if (examined.length > 0) {
    lines.push('', 'Examined held-out pages (a rule was changed after their wrong answer was seen, so their answers now are not blind; they stay scored above):', '')
    for (const o of examined) lines.push(`- ${o.file}: ${o.examined}`)
  }
  return lines
}

/** docs/recognition.md: written by scripts/recognition-report.mjs through the pure corpus test. */
export function recognitionDoc ({ outcomes, notFound, sources, heldOutRule, firstScores = {} }: DocInput): string {
  const all = score(outcomes)
  const training = score(outcomes.filter(o => o.split !== 'held_out'))
  const heldOut = score(outcomes.filter(o => o.split === 'held_out'))
  const section = (title: string, s: Score): string[] => [
    `### ${title}`, '', ...summaryLines(s).map(line => `- ${line}`), '', '#### By provider', '', providerTable(s), '', '#### By year', '', yearTable(s), ''
  ]
  return [
    '# Recognition on real pages',
    '',
    '<!-- Generated by `node scripts/recognition-report.mjs` from test/fixtures/real/index.json; do not edit by hand. -->',
    '',
    'How `page_kind` and `challenge.provider` (docs/spec.md section 6) fare on a corpus of real captures:',
    'provider challenge and block pages and ordinary pages, each stored in `test/fixtures/real/` exactly',
    'as its public source holds it, with repository, path, commit and sha256 in `index.json`.',
    'The corpus runs twice: `test/core/challenge-real.test.ts` (pure recognition, text derived from the',
    'HTML, every page) and `test/e2e/challenge-corpus.test.ts` (each page served on 127.0.0.1 at its',
    'status and fetched through real Chromium).',
    '',
    'The corpus is split by source repository. **Training** pages come from the sources the rules were',
    'worked out against; their score says the rules hold on them, and the tests assert every answer.',
    '**Held out** pages come from sources chosen before any of their pages was read, and no rule was',
    `written or changed after looking at them (${heldOutRule}), except where a page is listed below as examined. Their score is the honest one: how`,
    'recognition does on pages from sources it was not written against. The pure test scores every',
    'held-out page and holds the score to the floor measured when they were added, so a change that',
    'loses ground on them fails; no rule may be tuned to them. What each rule reads, and why, is in',
    'docs/decisions.md (Challenge recognition on real pages; Recognition by what a gate is).',
    '',
    'Target on held-out pages: at least 95 % of gates recognized with the right provider and no false positive.',
    '',
    ...heldOutViews(outcomes, firstScores),
    '',
    'A gate is a page whose expected `page_kind` is `challenge`; a false positive is a page that is',
    'not a gate but was reported with a challenge. Precision = gates reported / all pages reported as',
    'gates; recall = gates reported / all gates. The year is when the page was captured where the',
    'source records it, otherwise the year the source first committed it (an upper bound).',
    '',
    '## Summary',
    '',
    ...section('Held out (sources chosen by the split rule; examined pages are listed above)', heldOut),
    ...section('Training (sources the rules were written against)', training),
    ...section('All pages', all),
    '## Every page',
    '',
    pageTable(outcomes),
    '',
    '## Sources',
    '',
    ...sources.map(source => `- ${source}`),
    '',
    '## Looked for, not found as a real capture',
    '',
    ...notFound.map(item => `- ${item}`),
    ''
  ].join('\n')
}
