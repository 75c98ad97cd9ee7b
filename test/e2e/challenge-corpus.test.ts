import t from 'tap'
import { readFile } from 'node:fs/promises'
import { startHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { score, summaryLines, type Outcome } from '../helpers/recognition-score.js'
import type { CorpusEntry } from '../helpers/real-corpus.js'

// Both corpora: the hand-written pages (test/fixtures/challenges) and the real captures, whose
// entries test/helpers/real-corpus.ts describes.
type Entry = Pick<CorpusEntry, 'file' | 'status' | 'headers' | 'csp' | 'expect' | 'browser_skip' | 'browser_expect'> & Partial<Pick<CorpusEntry, 'split'>>
interface FetchBody { status: number, page_kind?: string, challenge?: { provider: string, evidence: string[] }, ok: boolean }

async function routesOf (dir: URL): Promise<{ fixtures: Entry[], routes: Record<string, { status: number, headers: Record<string, string>, body: string }> }> {
  const { fixtures } = JSON.parse(await readFile(new URL('index.json', dir), 'utf8')) as { fixtures: Entry[] }
  const routes = Object.fromEntries(await Promise.all(fixtures.map(async (f) => [
    `/${f.file}`,
    { status: f.status, headers: { ...f.headers, 'content-security-policy': f.csp }, body: await readFile(new URL(f.file, dir), 'utf8') }
  ])))
  return { fixtures, routes }
}

/** The recognition corpus again, this time rendered by real Chromium with the real status codes. */
t.test('every corpus page is recognised the same when fetched through Chromium', async (t) => {
  const { fixtures, routes } = await routesOf(new URL('../fixtures/challenges/', import.meta.url))
  const host = await startHost(t)
  const site = await startFixtureServer(t, routes)
  for (const f of fixtures) {
    const res = await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/${f.file}`, capture: ['text'] }) })
    const body = await res.json() as FetchBody
    t.equal(res.status, 200, `${f.file} loads`)
    t.equal(body.status, f.status, `${f.file} status`)
    t.equal(body.page_kind ?? null, f.expect.page_kind, `${f.file} page_kind`)
    t.equal(body.challenge?.provider ?? null, f.expect.provider, `${f.file} provider`)
    if (f.expect.provider) t.equal(body.ok, false, `${f.file} is never ok`)
  }
  t.same(host.app.tabs.list(), [], 'every plain fetch closed its tab')
})

// Real captures (test/fixtures/real), served at the status they were served with. Some keep
// running their own scripts (a Sucuri page reloads itself for ever here, as nothing honours its
// cookie): a fetch answers with the page as it stands at its deadline. The training pages are
// asserted one by one; the held-out ones are scored by the pure corpus test (all of them, with a
// floor) and only a sample of them runs here, recorded, to keep the suite's time reasonable.
t.test('every real capture is recognised through Chromium at its real status', async (t) => {
  const all = await routesOf(new URL('../fixtures/real/', import.meta.url))
  const heldOut = all.fixtures.filter(f => f.split === 'held_out')
  const sample = new Set(heldOut.filter((_, i) => i % 6 === 0).map(f => f.file))
  const fixtures = all.fixtures.filter(f => (f.split !== 'held_out' || sample.has(f.file)) && f.browser_skip === undefined)
  for (const f of all.fixtures) if (f.browser_skip !== undefined) t.comment(`not run through Chromium: ${f.file} (${f.browser_skip})`)
  const routes = all.routes
  const host = await startHost(t)
  const site = await startFixtureServer(t, routes)
  const outcomes: Outcome[] = []
  // Two fetches at a time (the host's pool keeps windows ready): the corpus is large. Each fetch's
  // deadline is generous: some captured pages are heavy (a rendered news or finance page takes
  // about 5 s here), and the deadline bounds a page that never settles, it times nothing.
  const answers = new Map<string, { status: number, body: FetchBody }>()
  const queue = [...fixtures]
  await Promise.all([0, 1].map(async () => {
    for (let f = queue.shift(); f !== undefined; f = queue.shift()) {
      const res = await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/${f.file}`, capture: ['text'], timeout_ms: 15000 }) })
      answers.set(f.file, { status: res.status, body: await res.json() as FetchBody })
    }
  }))
  for (const f of fixtures) {
    const { status, body } = answers.get(f.file)!
    t.equal(status, 200, `${f.file} loads`)
    if (f.split === 'held_out') {
      t.comment(`held out ${f.file}: expected ${f.expect.page_kind ?? '(absent)'} / ${f.expect.provider ?? '—'}, got ${body.page_kind ?? '(absent)'} / ${body.challenge?.provider ?? '—'}`)
      continue
    }
    const expect = f.browser_expect ?? f.expect
    outcomes.push({ file: f.file, expect, got: { page_kind: body.page_kind ?? null, provider: body.challenge?.provider ?? null } })
    t.equal(body.status, f.status, `${f.file} status`)
    t.equal(body.page_kind ?? null, expect.page_kind, `${f.file} page_kind${f.browser_expect ? ` (${f.browser_expect.why})` : ''}`)
    t.equal(body.challenge?.provider ?? null, expect.provider, `${f.file} provider${body.challenge ? ` (${body.challenge.evidence.join('; ')})` : ''}`)
    if (expect.page_kind !== 'content') t.equal(body.ok, false, `${f.file} is not ok`)
  }
  for (const line of summaryLines(score(outcomes))) t.comment(`through Chromium (training): ${line}`)
  t.same(host.app.tabs.list(), [], 'every plain fetch closed its tab')
})
