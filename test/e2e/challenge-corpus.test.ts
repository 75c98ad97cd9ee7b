import t from 'tap'
import { readFile } from 'node:fs/promises'
import { startHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'

interface Entry {
  file: string
  status: number
  headers: Record<string, string>
  csp: string
  expect: { page_kind: string | null, provider: string | null }
}

const dir = new URL('../fixtures/challenges/', import.meta.url)

/** The recognition corpus again, this time rendered by real Chromium with the real status codes. */
t.test('every corpus page is recognised the same when fetched through Chromium', async (t) => {
  const { fixtures } = JSON.parse(await readFile(new URL('index.json', dir), 'utf8')) as { fixtures: Entry[] }
  const routes = Object.fromEntries(await Promise.all(fixtures.map(async (f) => [
    `/${f.file}`,
    { status: f.status, headers: { ...f.headers, 'content-security-policy': f.csp }, body: await readFile(new URL(f.file, dir), 'utf8') }
  ])))
  const host = await startHost(t)
  const site = await startFixtureServer(t, routes)
  for (const f of fixtures) {
    const res = await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/${f.file}`, capture: ['text'] }) })
    const body = await res.json() as { status: number, page_kind?: string, challenge?: { provider: string }, ok: boolean }
    t.equal(res.status, 200, `${f.file} loads`)
    t.equal(body.status, f.status, `${f.file} status`)
    t.equal(body.page_kind ?? null, f.expect.page_kind, `${f.file} page_kind`)
    t.equal(body.challenge?.provider ?? null, f.expect.provider, `${f.file} provider`)
    if (f.expect.provider) t.equal(body.ok, false, `${f.file} is never ok`)
  }
  t.same(host.app.tabs.list(), [], 'every plain fetch closed its tab')
})
