// Grows the corpus of real captures by a held-out batch, scored blind (docs/recognition-corpus.md).
// Run through the tests' TypeScript loader (`npm run corpus:batch -- …`): the split rule, the
// checks and the recognition are the pure corpus test's own (test/helpers/real-corpus.ts).
//
//   side OWNER/NAME…          which side of the split each repository is on, and whether the corpus has it
//   score DIR                 the batch's blind score with the rules as they are (DIR/meta.json and its pages)
//   add DIR --batch N         checks every page, scores the batch with the rules of the committed HEAD
//                             (src/ must be unchanged), copies the pages and records them and that first score
//
// --corpus DIR names another corpus directory (default test/fixtures/real); --rules-at SHA records
// the commit the caller scored with instead of HEAD.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { batchScore, corpusHolds, entryOf, heldOut, problemsOf, recognizeCapture } from '../test/helpers/real-corpus.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const { values, positionals } = parseArgs({ allowPositionals: true, options: { corpus: { type: 'string' }, batch: { type: 'string' }, 'rules-at': { type: 'string' } } })
const [command, ...rest] = positionals
const corpusDir = values.corpus ?? join(root, 'test/fixtures/real')
const indexPath = join(corpusDir, 'index.json')
const index = JSON.parse(readFileSync(indexPath, 'utf8'))

function fail (message) {
  console.error(message)
  process.exit(1)
}

function collected (dir) {
  const pages = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8'))
  if (!Array.isArray(pages) || pages.length === 0) fail(`${dir}/meta.json: a JSON array of collected pages`)
  return pages.map(page => ({ page, bytes: readFileSync(join(dir, page.file)), container: recordingOf(dir, page) }))
}

// A page taken out of a recording brings the recording, named by `container` inside the batch's
// directory; one that is missing or outside it is none, which the checks refuse.
function recordingOf (dir, page) {
  if (page.container === undefined) return undefined
  const path = resolve(dir, page.container)
  if (!path.startsWith(resolve(dir) + sep) || !existsSync(path)) return undefined
  return readFileSync(path)
}

function scored (pages) {
  return pages.map(({ page, bytes }) => ({ page, ...recognizeCapture(page, bytes.toString('utf8')) }))
}

function scoreOf (answers) {
  return batchScore(answers.map(({ page, got }) => ({ expect: page.expect, got })))
}

function printAnswers (answers) {
  for (const { page, got, evidence } of answers) {
    const same = got.page_kind === page.expect.page_kind && got.provider === page.expect.provider
    console.log(`${same ? 'same' : 'DIFF'}\t${page.file}\texpected ${page.expect.page_kind}/${page.expect.provider ?? '-'}\tgot ${got.page_kind ?? '(none)'}/${got.provider ?? '-'}${evidence ? `\t${evidence.join('; ')}` : ''}`)
  }
}

if (command === 'side') {
  for (const repository of rest) {
    const used = corpusHolds(index.fixtures, repository)
    console.log(`${repository}\t${heldOut(repository) ? 'held_out' : 'training'}\t${used ? 'in the corpus' : 'new'}`)
  }
} else if (command === 'score' && rest.length === 1) {
  const answers = scored(collected(rest[0]))
  printAnswers(answers)
  console.log(JSON.stringify(scoreOf(answers)))
} else if (command === 'add' && rest.length === 1 && /^\d+$/.test(values.batch ?? '')) {
  const batch = Number(values.batch)
  if (String(batch) in index.held_out_first_scores) fail(`batch ${batch} is already recorded`)
  let rulesAt = values['rules-at']
  if (rulesAt === undefined) {
    // The first score is blind only if the rules it used are a commit made before the pages were read.
    if (execFileSync('git', ['status', '--porcelain', '--', 'src'], { cwd: root, encoding: 'utf8' }).trim() !== '') fail('src/ has uncommitted changes: commit the rules first, then score with them')
    rulesAt = execFileSync('git', ['rev-parse', '--short=7', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim()
  }
  const pages = collected(rest[0])
  // The corpus's pages by their bytes: an extracted page's source.sha256 is its recording's.
  const pageHashes = new Set(index.fixtures.map(e => createHash('sha256').update(readFileSync(join(corpusDir, e.file))).digest('hex')))
  const problems = pages.flatMap(({ page, bytes, container }) => problemsOf(page, bytes, index.fixtures, container, pageHashes).map(p => `${page.file}: ${p}`))
  const names = pages.map(({ page }) => page.file)
  if (new Set(names).size !== names.length) problems.push('meta.json names a page twice')
  if (problems.length > 0) fail(problems.join('\n'))
  const answers = scored(pages)
  printAnswers(answers)
  const first = { ...scoreOf(answers), rules_at: rulesAt }
  for (const { page, bytes } of pages) {
    copyFileSync(join(rest[0], page.file), join(corpusDir, page.file))
    index.fixtures.push(entryOf(page, batch, bytes.toString('utf8')))
  }
  index.held_out_first_scores[String(batch)] = first
  writeFileSync(indexPath, JSON.stringify(index, null, 2) + '\n')
  console.log(`batch ${batch}: ${pages.length} pages added, first scored ${JSON.stringify(first)}`)
} else {
  fail('usage: corpus-batch side OWNER/NAME… | score DIR | add DIR --batch N [--rules-at SHA] [--corpus DIR]')
}
