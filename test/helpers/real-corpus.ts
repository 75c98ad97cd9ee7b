// The corpus of real captures (test/fixtures/real/index.json, docs/recognition-corpus.md): what an
// entry holds, which side of the split a source is on, how a capture is recognized without a
// browser, and how a collected batch is checked, scored blind and turned into entries. Shared by
// the pure corpus test and scripts/corpus-batch.mjs, so the split rule and the recognition the
// test scores are the ones a new batch is first scored with.
import { createHash } from 'node:crypto'
import { recognizePage } from '../../src/core/challenge.js'
import { documentTitle, visibleText } from './visible-text.js'
import type { Expected, FirstScore, Split } from './recognition-score.js'

/**
 * Where a page came from. `sha256` is the source file's. A page taken out of a recording (a
 * cassette, a HAR, a WARC) is not the file itself: `extracted` says which entry and how it was
 * decoded, and `sha256` is then the recording's.
 */
export interface Source { repository: string, path: string, commit: string, sha256: string, extracted?: string }

/** One page of the corpus, as index.json lists it. */
export interface CorpusEntry {
  file: string
  about: string
  status: number
  status_basis: string
  /**
   * The address the page was served at, where its source records it (the address its scraper
   * asked for, which the page's own script returns to). Recognition reads the address: a check
   * that sends the browser back to it with a mark is one only there. Without it, a neutral one.
   */
  url?: string
  headers: Record<string, string>
  csp: string
  expect: Expected
  split: Split
  year: number | null
  /** Held out pages only: why its answer is no longer blind (a rule was changed after its miss was seen). */
  examined?: string
  /** Held out pages only: the batch it joined in. */
  batch?: number
  /** Why the page is not run through Chromium (it would leave 127.0.0.1); the pure test scores it. */
  browser_skip?: string
  /** What the host reports through Chromium when it differs from the markup's verdict, and why. */
  browser_expect?: Expected & { why: string }
  source: Source
  note?: string
}

/** A page as a collector hands it in (a batch directory's meta.json): an entry before it joins. */
/**
 * A page as a collector writes it in a batch's meta.json. `container` names, inside the batch's
 * directory, the recording an extracted page was taken out of (docs/recognition-corpus.md).
 */
export type CollectedPage = Pick<CorpusEntry, 'file' | 'about' | 'status' | 'status_basis' | 'url' | 'expect' | 'year' | 'note'> & { headers?: Record<string, string>, source: Source, container?: string }

// Sources used before issue 26: training, whatever their hash.
const PRE_ISSUE_26 = new Set(['bbsetup/public-bugbounty-data', 'codemanki/cloudscraper', 'VeNoMouS/cloudscraper', 'Anorov/cloudflare-scrape', 'campo1312/DataDome', 'microlinkhq/is-antibot'])
// A repository that carries on another's history under a new name holds that repository's pages,
// so it is the same source and takes the first name's side of the split (index.json held_out_rule).
const CONTINUES = new Map([['OpenTermsArchive/genai-contrib-snapshots', 'OpenTermsArchive/GenAI-snapshots']])

/** The source a repository's pages belong to: itself, or the repository it carries on under a new name. */
export function sourceNamed (repository: string): string {
  return CONTINUES.get(repository) ?? repository
}

/** Whether the corpus already holds pages of `repository`'s source (under either name). */
export function corpusHolds (corpus: readonly CorpusEntry[], repository: string): boolean {
  const source = sourceNamed(repository).toLowerCase()
  return corpus.some(e => sourceNamed(e.source.repository).toLowerCase() === source)
}

/** The pre-registered rule (index.json held_out_rule): a source is held out when the first hex
 * digit of sha256(owner/name) is a multiple of 3. Sources used before issue 26 are training; a
 * repository that continues another under a new name is judged by the first name. */
export function heldOut (named: string): boolean {
  const repository = sourceNamed(named)
  if (PRE_ISSUE_26.has(repository)) return false
  return parseInt(createHash('sha256').update(repository).digest('hex')[0], 16) % 3 === 0
}

/** Where a capture is taken to have been served when its source does not say. */
const NEUTRAL_URL = 'http://127.0.0.1/page'

/** What the host answers for a capture, read without a browser (the stand-in for innerText). */
export function recognizeCapture (page: { status: number, url?: string, headers?: Record<string, string> }, html: string): { got: Expected, evidence?: string[] } {
  const r = recognizePage({ status: page.status, url: page.url ?? NEUTRAL_URL, title: documentTitle(html), html, text: visibleText(html), headers: page.headers ?? {} })
  return { got: { page_kind: r.page_kind ?? null, provider: r.challenge?.provider ?? null }, evidence: r.challenge?.evidence }
}

// Markup that can send a browser elsewhere by itself: a script that sets, replaces or builds on the
// location (a read of location.href is taken too: it is how such scripts build where they go), opens
// a window or submits a form, and a refresh to an address. The Chromium corpus run serves pages on
// 127.0.0.1 and nothing in a test may leave it, so such a page is scored by the pure test only.
const LEAVES_BY_ITSELF = /(?:window\.|document\.|top\.|self\.)?location(?:\.href)?\s*=|location\.(?:href|replace|assign)\b|\.submit\(|window\.open\(|<meta[^>]*http-equiv=["']?refresh["']?[^>]*url/i

// An image whose error handler sets its address again, to the site's own host, and does not
// remove itself (onerror="this.src='https://…/no-photo.png'"): served here, the fallback is off
// 127.0.0.1 and refused, so the image loads for ever and the page never reaches "load"
// (brain.com.ua's 135 product pictures, batch 107). A relative fallback 404s here and lets the page load.
const RELOADS_FOR_EVER = /\bonerror\s*=\s*(["'])(?:(?!\1)[\s\S])*?\bthis\.src\s*=\s*(?:&#39;|&quot;|['"])(?:https?:)?\/\/(?:(?!\1)[\s\S])*\1/gi
const STOPS_ITSELF = /\b(?:this\.)?onerror\s*=\s*null\b/

/** Why a capture is not run through Chromium: its markup can leave 127.0.0.1, or keep loading, by itself. */
export function browserSkip (html: string): string | undefined {
  const hit = LEAVES_BY_ITSELF.exec(html)
  if (hit !== null) return `its markup can send the browser elsewhere by itself ('${hit[0].slice(0, 40)}'), and nothing in a test may leave 127.0.0.1: scored by the pure corpus test only`
  const reloads = [...html.matchAll(RELOADS_FOR_EVER)].find(handler => !STOPS_ITSELF.test(handler[0]))
  if (reloads !== undefined) return `an image's error handler sets its address again, to another host (${reloads[0].slice(0, 60)}), which a test may not reach, so the image retries for ever and the page never reaches "load": scored by the pure corpus test only`
  return undefined
}

/** A batch's score: gates recognized and with the right provider, other pages taken for gates. */
export function batchScore (pages: Array<{ expect: Expected, got: Expected }>): Omit<FirstScore, 'rules_at'> {
  const gates = pages.filter(p => p.expect.page_kind === 'challenge')
  const recognized = gates.filter(p => p.got.page_kind === 'challenge')
  const others = pages.filter(p => p.expect.page_kind !== 'challenge')
  return {
    gates: gates.length,
    recognized: recognized.length,
    provider_right: recognized.filter(p => p.got.provider === p.expect.provider).length,
    other_pages: others.length,
    false_positives: others.filter(p => p.got.page_kind === 'challenge').length
  }
}

const PAGE_KINDS = new Set(['challenge', 'denied', 'http_error', 'empty', 'content'])
const FILE_NAME = /^[a-z0-9][a-z0-9.-]*\.html$/

/**
 * What is malformed in a page's own fields, whether it is in the corpus or only collected: its
 * source (owner/name, a path, a commit, a sha256), its status, the address it was served at and its
 * year. Empty when nothing is.
 */
export function fieldProblems (page: Pick<CorpusEntry, 'status' | 'url' | 'year' | 'source'>): string[] {
  const problems: string[] = []
  const { repository, commit, sha256, path } = page.source
  if (!/^[\w.-]+\/[\w.-]+$/.test(repository)) problems.push('source.repository: owner/name')
  if (path === '') problems.push('source.path: empty')
  if (!/^[0-9a-f]{40}$/.test(commit)) problems.push('source.commit: 40 hex digits')
  if (!/^[0-9a-f]{64}$/.test(sha256)) problems.push('source.sha256: 64 hex digits')
  if (!Number.isInteger(page.status) || page.status < 100 || page.status > 599) problems.push('status: an HTTP status')
  if (page.url !== undefined && !/^https?:\/\/[^/\s]+\/\S*$/.test(page.url)) problems.push('url: the http(s) address the page was served at')
  if (page.year !== null && (!Number.isInteger(page.year) || page.year < 2000 || page.year > 2100)) problems.push('year: the capture\'s year')
  return problems
}

const sha256Of = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex')

/**
 * Whether the collected bytes are their source's: the file itself, or, for a page taken out of a
 * recording, a body of that recording as collected (whose own sha256 `source.sha256` is). Bytes the
 * corpus already holds are refused: a vendor's stub served byte for byte to many sites says
 * nothing new. `pageHashes`, the sha256 of every page file the corpus holds, also sees pages taken
 * out of recordings, whose `source.sha256` is the recording's; without it, the entries' own say.
 */
function bytesProblems (source: Source, bytes: Buffer, corpus: readonly CorpusEntry[], container?: Buffer, pageHashes?: ReadonlySet<string>): string[] {
  const held = pageHashes?.has(sha256Of(bytes)) ?? corpus.some(e => e.source.extracted === undefined && e.source.sha256 === sha256Of(bytes))
  if (source.extracted === undefined) {
    if (sha256Of(bytes) !== source.sha256) return ["source.sha256: not the collected bytes' sha256"]
    return held ? ['source.sha256: the corpus already holds these bytes'] : []
  }
  const problems: string[] = []
  if (source.extracted.trim() === '') problems.push('source.extracted: say which entry of the recording and how it was decoded')
  if (container === undefined) problems.push('container: the recording the page was taken out of, to check source.sha256 against')
  else if (sha256Of(container) !== source.sha256) problems.push("source.sha256: not the recording's sha256")
  if (held) problems.push('file: the corpus already holds these bytes')
  return problems
}

/**
 * Why a collected page cannot join the corpus: a malformed field (fieldProblems), bytes that are
 * not its source's or that the corpus already holds, a source on the training side or already in the corpus, a name that is taken,
 * a label the host has no name for. Empty when it can. `bytes` is the page as collected; `corpus`
 * the entries already there; `container` the recording an extracted page was taken out of;
 * `pageHashes` the sha256 of the corpus's page files (see bytesProblems).
 */
export function problemsOf (page: CollectedPage, bytes: Buffer, corpus: readonly CorpusEntry[], container?: Buffer, pageHashes?: ReadonlySet<string>): string[] {
  const problems = fieldProblems(page)
  const { repository } = page.source
  if (!FILE_NAME.test(page.file)) problems.push('file: lower case, digits, dots and hyphens, ending .html')
  if (corpus.some(e => e.file === page.file)) problems.push('file: the corpus has a page of that name')
  problems.push(...bytesProblems(page.source, bytes, corpus, container, pageHashes))
  if (!heldOut(repository)) problems.push(`source.repository: ${repository} is on the training side of the split`)
  if (corpusHolds(corpus, repository)) problems.push(`source.repository: the corpus already holds pages of ${repository}'s source`)
  if (page.about.trim() === '' || page.status_basis.trim() === '') problems.push('about and status_basis: say what the page is and how its status is known')
  if (page.expect.page_kind === null || !PAGE_KINDS.has(page.expect.page_kind)) problems.push(`expect.page_kind: one of ${[...PAGE_KINDS].join(', ')}`)
  if ((page.expect.page_kind === 'challenge') !== (page.expect.provider !== null)) problems.push('expect.provider: a gate names one, any other page none')
  return problems
}

/** The corpus entry a collected page becomes in held-out batch `batch`. */
export function entryOf (page: CollectedPage, batch: number, html: string): CorpusEntry {
  const skip = browserSkip(html)
  return {
    file: page.file,
    about: page.about,
    status: page.status,
    status_basis: page.status_basis,
    ...(page.url !== undefined && { url: page.url }),
    headers: page.headers ?? {},
    csp: "default-src 'self' 'unsafe-inline'",
    expect: page.expect,
    split: 'held_out',
    year: page.year,
    batch,
    ...(skip !== undefined && { browser_skip: skip }),
    source: { repository: page.source.repository, path: page.source.path, commit: page.source.commit, sha256: page.source.sha256, ...(page.source.extracted !== undefined && { extracted: page.source.extracted }) },
    note: page.note ?? ''
  }
}
