import t from 'tap'
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { batchScore, browserSkip, entryOf, fieldProblems, heldOut, problemsOf, type CollectedPage, type CorpusEntry } from '../helpers/real-corpus.js'

// scripts/corpus-batch.mjs and the pieces it shares with the pure corpus test
// (test/helpers/real-corpus.ts): a batch is checked, scored blind and recorded, or refused whole.

const root = fileURLToPath(new URL('../..', import.meta.url))
const REAL = join(root, 'test/fixtures/real')
const corpus = JSON.parse(readFileSync(join(REAL, 'index.json'), 'utf8')) as { fixtures: CorpusEntry[] }

// Two real held-out pages as a collector would hand them in: a firewall's block and an ordinary page.
function collectedFrom (file: string): CollectedPage {
  const e = corpus.fixtures.find(f => f.file === file)
  if (e === undefined) throw new Error(`${file} is not in the corpus`)
  const { about, status, status_basis: basis, headers, expect, year, note, source } = e
  return { file, about, status, status_basis: basis, headers, expect, year, note, source }
}
const GATE = 'ip-66-96-146-129-waf-blocked-2026.html'
const OTHER = 'ptit-qldt-portal-home-2019.html'
const GATE_REPOSITORY = collectedFrom(GATE).source.repository

function cli (...args: string[]): { status: number | null, stdout: string, stderr: string } {
  const run = spawnSync(process.execPath, ['--import=./test/loader/register.mjs', 'scripts/corpus-batch.mjs', ...args], { cwd: root, encoding: 'utf8' })
  return { status: run.status, stdout: run.stdout, stderr: run.stderr }
}

t.test('a page that can leave 127.0.0.1 by itself is kept out of the Chromium run', async t => {
  for (const markup of ['<script>location.href = "/x"</script>', '<script>window.location.replace("/x")</script>', '<script>document.forms[0].submit()</script>', '<meta http-equiv="refresh" content="0;url=https://elsewhere.test/">']) {
    t.match(browserSkip(markup), /^its markup can send the browser elsewhere by itself \('/, markup)
  }
  for (const markup of ['<p>Your location: Berlin</p>', '<meta http-equiv="refresh" content="30">', '<form action="/search"><button>Search</button></form>']) {
    t.equal(browserSkip(markup), undefined, markup)
  }
})

t.test('a page whose images retry their fallback for ever is kept out of the Chromium run', async t => {
  t.match(browserSkip(`<img src="/p/1.jpg" onerror="this.src='https://shop.example/static/no-photo.png'">`), /^an image's error handler sets its address again, to another host \(onerror="this\.src=/, 'a fallback that fails here too')
  t.match(browserSkip("<img src=\"/p/1.jpg\" onerror='this.src=\"//cdn.example/no-photo.png\"'>"), /^an image's error handler/, 'single quotes, a scheme-relative fallback')
  t.equal(browserSkip(`<img src="/p/1.jpg" onerror="this.src = &#39;/packs/nophoto.png&#39;">`), undefined, 'a fallback on the same host 404s here and lets the page load')
  t.equal(browserSkip(`<img src="/p/1.jpg" onerror="this.onerror=null;this.src='https://shop.example/no-photo.png'">`), undefined, 'a handler that removes itself tries once')
  t.equal(browserSkip(`<img src="/p/1.jpg" onerror="onerror=null;this.src='https://shop.example/no-photo.png'">`), undefined, 'so does one that says it without "this."')
  t.match(browserSkip(`<img onerror="this.onerror=null;this.src='https://a.example/x.png'"><img onerror="this.src='https://a.example/y.png'">`), /^an image's error handler/, 'any handler that retries, not only the first')
  t.equal(browserSkip('<img src="/p/1.jpg" onerror="this.style.display=\'none\'">'), undefined, 'a handler that hides the image')
})

t.test("a batch's score counts gates, the right provider and other pages taken for gates", async t => {
  const gate = { page_kind: 'challenge', provider: 'akamai' }
  const page = { page_kind: 'content', provider: null }
  t.same(batchScore([
    { expect: gate, got: gate },
    { expect: gate, got: { page_kind: 'challenge', provider: 'generic' } },
    { expect: gate, got: { page_kind: 'denied', provider: null } },
    { expect: page, got: page },
    { expect: page, got: { page_kind: 'challenge', provider: 'generic' } }
  ]), { gates: 3, recognized: 2, provider_right: 1, other_pages: 2, false_positives: 1 })
})

t.test('a collected page joins only from a new held-out source, byte for byte, with its fields', async t => {
  const page = { ...collectedFrom(GATE), file: 'waf-block-2026.html' }
  const bytes = readFileSync(join(REAL, GATE))
  t.same(problemsOf(page, bytes, []), [], 'a new page from a held-out source')
  t.match(problemsOf(page, Buffer.concat([bytes, Buffer.from('\n')]), []), [/^source\.sha256/], 'bytes that are not the source\'s')
  t.match(problemsOf(page, bytes, corpus.fixtures), [/already holds these bytes/, /already holds pages of/], 'a source the corpus already has (the page itself)')
  t.match(problemsOf({ ...page, file: GATE }, bytes, corpus.fixtures), [/a page of that name/, /already holds these bytes/, /already holds pages of/], 'a name the corpus already has')
  const training = 'VeNoMouS/cloudscraper'
  t.notOk(heldOut(training))
  t.match(problemsOf({ ...page, source: { ...page.source, repository: training } }, bytes, []), [/training side/], 'a training source')
  const first = entryOf({ ...page, file: 'other-name.html', source: { ...page.source, repository: 'OpenTermsArchive/GenAI-snapshots', sha256: '0'.repeat(64) } }, 3, '')
  t.match(problemsOf({ ...page, source: { ...page.source, repository: 'OpenTermsArchive/genai-contrib-snapshots' } }, bytes, [first]), [/already holds pages of/], 'a source the corpus holds under the name it had before')
  const held = entryOf({ ...page, file: 'other-name.html', source: { ...page.source, repository: 'someone/else' } }, 3, bytes.toString('utf8'))
  t.match(problemsOf(page, bytes, [held]), [/already holds these bytes/], 'bytes the corpus holds from another source')
  t.match(problemsOf({ ...page, expect: { page_kind: 'challenge', provider: null } }, bytes, []), [/expect\.provider/], 'a gate that names no provider')
  t.match(problemsOf({ ...page, expect: { page_kind: 'login', provider: null } }, bytes, []), [/expect\.page_kind/], 'a page kind the host has no name for')
  t.same(problemsOf({ ...page, url: 'https://66.96.146.129/' }, bytes, []), [], 'the address it was served at')
  t.match(problemsOf({ ...page, url: '66.96.146.129' }, bytes, []), [/^url:/], 'an address that is not one')
  t.same(fieldProblems({ ...page, status: 99, year: 1999, source: { ...page.source, commit: 'abc' } }), ['source.commit: 40 hex digits', 'status: an HTTP status', "year: the capture's year"], "a corpus entry's own fields, checked the same way")
  const entry = entryOf(page, 7, bytes.toString('utf8'))
  t.same([entry.split, entry.batch, entry.csp, entry.browser_skip], ['held_out', 7, "default-src 'self' 'unsafe-inline'", undefined], 'its entry: held out, in its batch')
})

t.test('a page taken out of a recording joins with the recording it came from, whose sha256 its source records', async t => {
  // Any bytes stand for the recording here: what is checked is that they are the ones named.
  const body = readFileSync(join(REAL, GATE))
  const recording = readFileSync(join(REAL, OTHER))
  const source = { ...collectedFrom(GATE).source, sha256: collectedFrom(OTHER).source.sha256, extracted: 'vcrpy YAML cassette: interactions[0].response.body.string, written as UTF-8' }
  const page = { ...collectedFrom(GATE), file: 'waf-block-2026.html', source }
  t.same(problemsOf(page, body, [], recording), [], "the body, with the recording whose sha256 the source records")
  t.match(problemsOf(page, body, [], body), [/^source\.sha256: not the recording's/], 'another recording')
  t.match(problemsOf(page, body, []), [/^container:/], 'no recording to check against')
  t.match(problemsOf({ ...page, source: { ...source, extracted: ' ' } }, body, [], recording), [/^source\.extracted/], 'not saying how it was taken out')
  t.match(problemsOf(page, body, corpus.fixtures.filter(e => e.file === GATE), recording), [/already holds these bytes/, /already holds pages of/], 'a body the corpus holds as a whole page')
  const extractedEntry = entryOf({ ...page, file: 'other-name.html', source: { ...source, repository: 'someone/else' } }, 7, body.toString('utf8'))
  t.same(problemsOf(page, body, [extractedEntry], recording), [], "without the corpus's page hashes, a body another recording gave is not seen")
  t.match(problemsOf(page, body, [extractedEntry], recording, new Set([collectedFrom(GATE).source.sha256])), [/^file: the corpus already holds these bytes/], 'with them it is')
  t.equal(entryOf(page, 7, body.toString('utf8')).source.extracted, source.extracted, 'its entry says how it was taken out')
  t.equal(entryOf(collectedFrom(GATE), 7, body.toString('utf8')).source.extracted, undefined, 'a whole page says nothing of it')
})

t.test('add: checks every page, scores the batch, copies it and records its first score; refuses a batch whole', async t => {
  const dir = t.testdir({ corpus: {}, batch: {}, bad: {} })
  const corpusDir = join(dir, 'corpus')
  const empty = { held_out_rule: 'a rule', not_found: [], fixtures: [], held_out_first_scores: {} }
  writeFileSync(join(corpusDir, 'index.json'), JSON.stringify(empty, null, 2) + '\n')
  const pages = [collectedFrom(GATE), collectedFrom(OTHER)]
  for (const page of pages) copyFileSync(join(REAL, page.file), join(dir, 'batch', page.file))
  writeFileSync(join(dir, 'batch', 'meta.json'), JSON.stringify(pages))

  const scoredOnly = cli('score', join(dir, 'batch'), '--corpus', corpusDir)
  t.equal(scoredOnly.status, 0, scoredOnly.stderr)
  t.match(scoredOnly.stdout, '{"gates":1,"recognized":1,"provider_right":1,"other_pages":1,"false_positives":0}', 'score prints the blind score')
  t.same(JSON.parse(readFileSync(join(corpusDir, 'index.json'), 'utf8')), empty, 'score writes nothing')

  const added = cli('add', join(dir, 'batch'), '--batch', '2', '--rules-at', 'abc1234', '--corpus', corpusDir)
  t.equal(added.status, 0, added.stderr)
  const index = JSON.parse(readFileSync(join(corpusDir, 'index.json'), 'utf8')) as { fixtures: CorpusEntry[], held_out_first_scores: Record<string, unknown> }
  t.same(index.held_out_first_scores['2'], { gates: 1, recognized: 1, provider_right: 1, other_pages: 1, false_positives: 0, rules_at: 'abc1234' }, 'the first score, with the rules it used')
  t.same(index.fixtures.map(e => [e.file, e.split, e.batch]), [[GATE, 'held_out', 2], [OTHER, 'held_out', 2]], 'both pages, held out, in batch 2')
  t.match(index.fixtures[1].browser_skip, /^its markup can send the browser elsewhere/, 'the portal page, whose script can leave, is scored by the pure test only')
  for (const page of pages) t.ok(readFileSync(join(corpusDir, page.file)).equals(readFileSync(join(REAL, page.file))), `${page.file} copied byte for byte`)

  const again = cli('add', join(dir, 'batch'), '--batch', '2', '--rules-at', 'abc1234', '--corpus', corpusDir)
  t.equal(again.status, 1, 'a batch number is recorded once')
  t.match(again.stderr, 'batch 2 is already recorded')

  // A batch with one page whose bytes are not its source's is refused whole: nothing is written.
  mkdirSync(join(dir, 'bad'), { recursive: true })
  const fresh = [{ ...collectedFrom(OTHER), file: 'portal-home.html', source: { ...collectedFrom(OTHER).source, repository: 'new-owner/new-portal-bot' } }]
  writeFileSync(join(dir, 'bad', 'portal-home.html'), readFileSync(join(REAL, OTHER), 'utf8').replace('</body>', '<p>edited</p></body>'))
  writeFileSync(join(dir, 'bad', 'meta.json'), JSON.stringify(fresh))
  const before = readFileSync(join(corpusDir, 'index.json'), 'utf8')
  const refused = cli('add', join(dir, 'bad'), '--batch', '3', '--rules-at', 'abc1234', '--corpus', corpusDir)
  t.equal(refused.status, 1)
  t.match(refused.stderr, "portal-home.html: source.sha256: not the collected bytes' sha256")
  t.equal(readFileSync(join(corpusDir, 'index.json'), 'utf8'), before, 'the index is unchanged')

  // A page taken out of a recording is checked against the recording the batch names for it.
  const extracted = { ...fresh[0], source: { ...fresh[0].source, extracted: 'HAR: log.entries[0].response.content.text' }, container: 'containers/portal.har' }
  mkdirSync(join(dir, 'bad', 'containers'))
  writeFileSync(join(dir, 'bad', 'containers', 'portal.har'), '{"log":{"entries":[]}}')
  writeFileSync(join(dir, 'bad', 'meta.json'), JSON.stringify([extracted]))
  const wrongRecording = cli('add', join(dir, 'bad'), '--batch', '3', '--rules-at', 'abc1234', '--corpus', corpusDir)
  t.equal(wrongRecording.status, 1)
  t.match(wrongRecording.stderr, "portal-home.html: source.sha256: not the recording's sha256")
  for (const container of ['containers/missing.har', '../bad/containers/portal.har/../../../elsewhere.har']) {
    writeFileSync(join(dir, 'bad', 'meta.json'), JSON.stringify([{ ...extracted, container }]))
    const none = cli('add', join(dir, 'bad'), '--batch', '3', '--rules-at', 'abc1234', '--corpus', corpusDir)
    t.equal(none.status, 1)
    t.match(none.stderr, 'portal-home.html: container: the recording', `a recording that is not in the batch (${container}) is none`)
  }
  t.equal(readFileSync(join(corpusDir, 'index.json'), 'utf8'), before, 'the index is unchanged')

  const side = cli('side', 'VeNoMouS/cloudscraper', GATE_REPOSITORY, '--corpus', corpusDir)
  t.match(side.stdout, 'VeNoMouS/cloudscraper\ttraining\tnew')
  t.match(side.stdout, `${GATE_REPOSITORY}\theld_out\tin the corpus`)
  t.equal(cli('unknown').status, 1, 'an unknown command is refused with its usage')
})

