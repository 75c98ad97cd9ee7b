import t from 'tap'
import { readFile } from 'node:fs/promises'
import { setTimeout as sleep } from 'node:timers/promises'
import { startHost } from '../helpers/host.js'
import { startFixtureServer, type FixtureRoute } from '../helpers/fixture-server.js'

// Real captures that keep reloading themselves once a browser runs them: Sucuri's JS challenge
// (sets a cookie and reloads; nothing here honours the cookie, so it reloads for ever) and a
// Cloudflare 522 page (<meta http-equiv="refresh" content="0">). They used to end in
// navigation_timeout or page_unresponsive; a fetch now answers with the page as it stands.
const dir = new URL('../fixtures/real/', import.meta.url)
interface Entry { file: string, status: number, headers: Record<string, string>, csp: string }
const { fixtures } = JSON.parse(await readFile(new URL('index.json', dir), 'utf8')) as { fixtures: Entry[] }
async function route (file: string): Promise<FixtureRoute> {
  const f = fixtures.find(entry => entry.file === file)!
  return { status: f.status, headers: { ...f.headers, 'content-security-policy': f.csp }, body: await readFile(new URL(file, dir), 'utf8') }
}

t.test('a page that keeps reloading itself is observed, not timed out', async (t) => {
  const host = await startHost(t)
  const site = await startFixtureServer(t, {
    '/sucuri': await route('sucuri-js-reload-2016.html'),
    '/refresh-522': await route('cloudflare-522-pyszne.html')
  })
  const fetch = async (body: Record<string, unknown>): Promise<{ status: number, json: any }> => {
    const res = await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ capture: ['text'], timeout_ms: 3000, ...body }) })
    return { status: res.status, json: await res.json() }
  }

  t.test('a plain fetch returns the challenge it keeps coming back to', async (t) => {
    const { status, json } = await fetch({ url: `${site.url}/sucuri` })
    t.equal(status, 200, 'a result, not an error envelope')
    t.equal(json.error, undefined)
    t.equal(json.status, 200, 'the status of the document on screen')
    t.equal(json.page_kind, 'challenge')
    t.equal(json.challenge.provider, 'sucuri')
    t.equal(json.ok, false)
    t.ok(site.hits('/sucuri') >= 2, `the page really reloaded itself (${site.hits('/sucuri')} loads)`)
  })

  t.test('a takeover fetch retains it for a person, and the page carries on', async (t) => {
    const { json } = await fetch({ url: `${site.url}/sucuri`, takeover: true })
    t.equal(json.page_kind, 'challenge')
    t.equal(json.tab_retained, true)
    t.equal(json.actions[0].kind, 'human_takeover')
    t.equal(json.actions[0].reason, 'challenge')
    // Once the fetch is done with it, the page's own reload goes through as it would have.
    const loads = site.hits('/sucuri')
    const until = Date.now() + 15_000
    while (site.hits('/sucuri') === loads && Date.now() < until) await sleep(100)
    t.ok(site.hits('/sucuri') > loads, 'the deferred reload reached the site after the fetch')
    const closed = await host.api(`/v1/tabs/${json.tab_id}`, { method: 'DELETE' })
    t.equal(closed.status < 300, true, 'the retained tab closes')
  })

  t.test('an error page that refreshes itself stays an http_error', async (t) => {
    const { json } = await fetch({ url: `${site.url}/refresh-522` })
    t.equal(json.status, 522)
    t.equal(json.page_kind, 'http_error')
    t.equal(json.challenge, undefined)
    t.notOk(json.warnings.some((w: { code: string }) => w.code === 'page_unresponsive'), 'the page could be read')
    t.match(json.artifacts.text, /Connection timed out/)
  })
})
