// Scores recognition against a corpus of expected answers: per-provider recognized / missed /
// false positive counts, precision and recall, and the table docs/recognition.md shows. Shared
// by the pure corpus test and the real-Chromium one so both report the same way.

export interface Expected { page_kind: string | null, provider: string | null }
export interface Outcome { file: string, expect: Expected, got: Expected }

export interface Score {
  rows: Array<{ provider: string, gates: number, recognized: number, missed: number, wrongProvider: number }>
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
  let recognized = 0; let providerRight = 0; let falsePositives = 0; let kindRight = 0; let nonGates = 0; let nonGateKind = 0
  for (const o of outcomes) {
    const kindOk = o.got.page_kind === o.expect.page_kind
    if (kindOk) kindRight++
    if (isGate(o.expect)) {
      const provider = o.expect.provider ?? 'generic'
      const row = byProvider.get(provider) ?? { provider, gates: 0, recognized: 0, missed: 0, wrongProvider: 0 }
      byProvider.set(provider, row)
      row.gates++
      if (isGate(o.got)) {
        recognized++
        row.recognized++
        if (o.got.provider === o.expect.provider) providerRight++
        else row.wrongProvider++
      } else {
        row.missed++
      }
    } else {
      nonGates++
      if (kindOk) nonGateKind++
      if (isGate(o.got) || o.got.provider !== null) falsePositives++
    }
  }
  const gates = outcomes.length - nonGates
  return {
    rows: [...byProvider.values()].sort((a, b) => a.provider.localeCompare(b.provider)),
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
    `gates recognized ${s.recognized}/${s.gates} (recall ${pct(s.recognized, s.gates)}), provider right ${s.providerRight}/${s.gates}`,
    `non-gates flagged ${s.falsePositives}/${s.nonGates.total} (precision ${pct(s.recognized, reported)}), page_kind right ${s.kindRight}/${s.total}`
  ]
}

export function markdownTable (s: Score, outcomes: Outcome[]): string {
  const lines = ['| provider | gates | recognized | provider right | missed | wrong provider |', '|---|---:|---:|---:|---:|---:|']
  for (const r of s.rows) lines.push(`| ${r.provider} | ${r.gates} | ${r.recognized} | ${r.recognized - r.wrongProvider} | ${r.missed} | ${r.wrongProvider} |`)
  lines.push(`| **not a gate** | ${s.nonGates.total} | — | — | — | false positives: ${s.nonGates.flagged} |`)
  lines.push('', '| page | expected kind / provider | recognized kind / provider |', '|---|---|---|')
  const show = (e: Expected): string => `${e.page_kind ?? '(absent)'} / ${e.provider ?? '—'}`
  for (const o of outcomes) {
    const same = show(o.expect) === show(o.got)
    lines.push(`| ${o.file} | ${show(o.expect)} | ${same ? 'same' : `**${show(o.got)}**`} |`)
  }
  return lines.join('\n')
}
