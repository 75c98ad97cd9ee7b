import t from 'tap'
import type { TSchema } from 'typebox'
import * as S from '../../src/schemas/index.js'
import { startHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { strictProblems } from '../helpers/strict-schema.js'
import { until } from '../helpers/until.js'
import { retry503 } from '../helpers/retry-503.js'

// Real answers of a real host (real Chromium, pages on 127.0.0.1) against the route schemas,
// closed: a field the host sends that its schema does not declare fails, as does a wrong type
// or a missing required field. The schemas are what the client's types and docs/api.md are.

const ARTICLE = '<!doctype html><title>Prices</title><main><h1>Widget prices</h1><p id="price">Forty two euros for the blue widget, shipped today.</p></main>'
const CLOUDFLARE = '<!doctype html><html><head><title>Just a moment...</title></head><body><div id="challenge-form"><p>Checking if the site connection is secure</p><div class="cf-turnstile" style="width:300px;height:65px"></div></div><script src="/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1"></script></body></html>'

t.test('the strict check itself refuses an undeclared field and a wrong type', async (t) => {
  const summary = { tab_id: 'tab_1', state: 'open', handoff_fence: 'hf_1', expires_at: 'x', controller: 'agent', generation: 1, auto_done: false, will_check_again: true, checks_left: 12 }
  t.same(strictProblems(S.HandoffSummary, summary), [])
  t.match(strictProblems(S.HandoffSummary, { ...summary, surprise: 1 }).join('\n'), /surprise/)
  t.not(strictProblems(S.HandoffSummary, { ...summary, generation: '1' }).length, 0)
  t.not(strictProblems(S.FetchResult, { ok: true }).length, 0, 'missing required fields')
})

t.test('real answers fit their schemas exactly', async (t) => {
  const host = await startHost(t)
  const site = await startFixtureServer(t, {
    '/article': { body: ARTICLE },
    '/cf': { status: 403, headers: { 'cf-mitigated': 'challenge', server: 'cloudflare' }, body: CLOUDFLARE }
  })
  const call = async (schema: TSchema, path: string, init: RequestInit = {}, status = 200, api = true): Promise<Record<string, any>> => {
    const res = api ? await host.api(path, init) : await fetch(host.url + path, init)
    const body = await res.json() as Record<string, any>
    t.equal(res.status, status, `${init.method ?? 'GET'} ${path}: ${status}`)
    t.same(strictProblems(schema, body), [], `${init.method ?? 'GET'} ${path} fits its schema`)
    return body
  }
  const post = (schema: TSchema, path: string, body: unknown, status = 200): Promise<Record<string, any>> =>
    call(schema, path, { method: 'POST', body: JSON.stringify(body) }, status)

  await call(S.Capabilities, '/capabilities', {}, 200, false)
  // A live check can miss its budget for a moment on a loaded machine (503, the same body): ask
  // again, as a probe would (retry503), until the host answers ready; every answer's shape is checked.
  const healthRes = await retry503(async () => {
    const res = await host.api('/health')
    t.same(strictProblems(S.Health, await res.clone().json()), [], `GET /health (${res.status}) fits its schema`)
    return res
  })
  t.equal(healthRes.status, 200, 'GET /health: 200')
  t.equal((await healthRes.json() as Record<string, any>).status.takeover_ready, true, 'a ready host (the 200 shape, live checks and all)')

  const created = await post(S.ProfileWriteResult, '/v1/profiles', { name: 'shapes', labels: { team: 'ops' } }, 201)
  t.same(created.profile.labels, { team: 'ops' })
  await call(S.ProfileWriteResult, '/v1/profiles/shapes', { method: 'PATCH', body: JSON.stringify({ labels: { team: null } }) })
  await call(S.ProfileList, '/v1/profiles')
  const described = await call(S.ProfileDescription, `/v1/profiles/${host.config.defaultProfile}`)
  t.equal(described.profile.running.running, true, 'running state with the browser up')

  const plain = await post(S.FetchResult, '/v1/fetch', { url: `${site.url}/article`, capture: ['html', 'text', 'screenshot'] })
  t.equal(plain.ok, true)
  t.equal(plain.artifacts.screenshot.mime, 'image/jpeg', 'the screenshot survived serialization')

  const gate = await post(S.FetchResult, '/v1/fetch', { url: `${site.url}/cf`, takeover: true, instructions: 'Pass the check, please.' })
  t.equal(gate.ok, false)
  t.equal(gate.challenge.provider, 'cloudflare')
  t.ok(gate.actions[0].takeover_url_secret, 'the takeover action with its panel URL')
  const tabId = gate.tab_id as string

  // A tab's document captured in place: the host saw no response for it, so status is null.
  const opened = await host.app.tabs.open(host.config.defaultProfile)
  await opened.page.setContent('<!doctype html><title>In place</title><p>Written into the page without any navigation at all.</p>')
  const inPlace = await post(S.FetchResult, '/v1/fetch', { tab_id: opened.id })
  t.equal(inPlace.status, null, 'status: null is sent as null, not dropped or turned into 0')

  const list = await call(S.TabList, '/v1/tabs')
  const row = list.tabs.find((v: { tab_id: string }) => v.tab_id === tabId)
  t.equal(row?.handoff?.state, 'open', 'the inventory carries the handoff summary')
  await call(S.TabDescription, `/v1/tabs/${tabId}`)
  const snap = await post(S.SnapshotResult, `/v1/tabs/${tabId}/snapshot`, { capture: ['text'] })
  t.equal(snap.title, 'Just a moment...')
  t.equal(snap.status, 403)
  t.equal(snap.handoff.instructions, 'Pass the check, please.')

  const summary = await call(S.HandoffSummary, `/v1/tabs/${tabId}/handoff`)
  const again = await post(S.HandoffMint, `/v1/tabs/${tabId}/handoff`, { region: '#challenge-form' })
  t.equal(again.handoff_fence, summary.handoff_fence, 'a second mint keeps the fence')
  const finished = await post(S.HandoffSummary, `/v1/tabs/${tabId}/handoff/finish`, { handoff_fence: summary.handoff_fence })
  t.equal(finished.state, 'finished')
  t.ok(finished.outcome, 'the outcome survived serialization')

  await post(S.CdpResult, '/v1/cdp', { method: 'Browser.getVersion' })
  await call(S.ErrorEnvelope, '/v1/tabs/tab_missing', {}, 404)
  await post(S.ErrorEnvelope, '/v1/fetch', { url: `${site.url}/article`, surprise: true }, 400)
  await call(S.TabCloseResult, `/v1/tabs/${tabId}`, { method: 'DELETE' })
  // A tab closed under an open handoff (here by the page itself) still answers its last summary.
  await post(S.HandoffMint, `/v1/tabs/${opened.id}/handoff`, null)
  await opened.page.close()
  await until(() => host.app.tabs.find(opened.id) === undefined, 'the closed tab to leave the inventory')
  const closed = await call(S.HandoffSummary, `/v1/tabs/${opened.id}/handoff`)
  t.equal(closed.state, 'revoked')
  t.equal(closed.tab_closed, true, 'a closed tab still answers its last handoff')
})
