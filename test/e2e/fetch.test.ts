import t from 'tap'
import { startHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'

const ARTICLE = '<!doctype html><title>Prices</title><main><h1>Widget prices</h1><p id="price">Forty two euros for the blue widget, shipped today.</p></main>'
const CLOUDFLARE = '<!doctype html><html><head><title>Just a moment...</title></head><body><div id="challenge-form"><p>Checking if the site connection is secure</p><div class="cf-turnstile" style="width:300px;height:65px"></div></div><script src="/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1"></script></body></html>'
const HANG_TIGHT = '<!doctype html><title>One moment</title><h2>Hang tight! We are checking your browser…</h2>'

t.test('POST /v1/fetch against real Chromium and pages on 127.0.0.1', async (t) => {
  const host = await startHost(t)
  const site = await startFixtureServer(t, {
    '/article': { body: ARTICLE },
    '/cf': { status: 403, headers: { 'cf-mitigated': 'challenge', server: 'cloudflare' }, body: CLOUDFLARE },
    '/hang': { status: 200, body: HANG_TIGHT },
    '/missing': { status: 404, body: '<!doctype html><title>Not found</title><h1>Page not found</h1><p>The page you asked for is not here.</p>' },
    '/empty': { body: '<!doctype html><html><head><script>/* spa shell */</script></head><body><div id="root"></div></body></html>' },
    '/redirect': { status: 302, headers: { location: '/article' }, body: '' },
    '/late-price': { body: '<!doctype html><title>Late</title><p>Loading the price for you now please</p><div id="price"></div><script>setTimeout(() => { document.getElementById("price").textContent = "Price: 42 EUR" }, 400)</script>' },
    '/never-price': { body: '<!doctype html><title>Never</title><p>This shop page never shows the price at all.</p><div id="price"></div>' },
    '/slow': { body: ARTICLE, delayMs: 5000 },
    '/cached': { headers: { 'cache-control': 'max-age=0, must-revalidate', etag: '"v1"' }, body: ARTICLE }
  })
  const post = async (body: unknown): Promise<{ status: number, json: Record<string, any> }> => {
    const res = await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify(body) })
    return { status: res.status, json: await res.json() as Record<string, any> }
  }

  t.test('a plain fetch of content is ok and closes its own tab', async (t) => {
    const { status, json } = await post({ url: `${site.url}/article` })
    t.equal(status, 200)
    t.equal(json.ok, true)
    t.equal(json.status, 200)
    t.equal(json.page_kind, 'content')
    t.match(json.artifacts.text, /Forty two euros/)
    t.match(json.artifacts.html, /<h1>Widget prices<\/h1>/)
    t.equal(json.tab_retained, false)
    t.same(json.actions, [])
    t.equal(host.app.tabs.find(json.tab_id), undefined, 'the tab was closed')
    t.equal(json.readiness.strategy, 'load')
  })

  t.test('redirects report the final URL and the final status', async (t) => {
    const { json } = await post({ url: `${site.url}/redirect` })
    t.equal(json.status, 200)
    t.equal(json.final_url, `${site.url}/article`)
    t.equal(json.url, `${site.url}/redirect`)
  })

  t.test('a re-fetch of a cacheable page is a fresh 200, never a 304', async (t) => {
    const tab = await host.app.tabs.open(host.config.defaultProfile)
    const first = await post({ tab_id: tab.id, url: `${site.url}/cached` })
    const second = await post({ tab_id: tab.id, url: `${site.url}/cached` })
    t.equal(first.json.status, 200)
    t.equal(second.json.status, 200)
    t.equal(second.json.ok, true)
    await host.app.tabs.close(tab.id, 'api')
  })

  t.test('a plain fetch still recognises a challenge and reports it', async (t) => {
    const { status, json } = await post({ url: `${site.url}/cf` })
    t.equal(status, 200, 'HTTP 200 whenever a page loaded')
    t.equal(json.ok, false)
    t.equal(json.status, 403)
    t.equal(json.page_kind, 'challenge')
    t.equal(json.challenge.provider, 'cloudflare')
    t.ok(json.challenge.evidence.length > 0)
    t.equal(json.tab_retained, false)
  })

  t.test('a takeover fetch of a challenge retains the tab and mints a panel URL', async (t) => {
    const { json } = await post({ url: `${site.url}/cf`, takeover: true, capture: ['html', 'text', 'screenshot'] })
    t.equal(json.ok, false)
    t.equal(json.tab_retained, true)
    t.equal(json.trace.retained_tab_id, json.tab_id)
    t.equal(json.actions.length, 1)
    const action = json.actions[0]
    t.equal(action.kind, 'human_takeover')
    t.equal(action.reason, 'challenge')
    t.match(action.takeover_url_secret, new RegExp(`^${host.url}/takeover/[A-Za-z0-9_-]{43}$`), 'the URL names the port actually bound')
    t.match(action.handoff_fence, /^hf_/)
    t.ok(Date.parse(action.expires_at) > Date.now())
    t.equal(json.artifacts.screenshot.mime, 'image/jpeg')
    t.ok(Buffer.from(json.artifacts.screenshot.base64, 'base64').subarray(0, 2).equals(Buffer.from([0xff, 0xd8])), 'a real JPEG')
    const tab = await (await host.api(`/v1/tabs/${json.tab_id}`)).json()
    t.equal(tab.tab.retained, true)
    t.equal(tab.tab.handoff.state, 'open')
    t.notMatch(host.logs.text(), action.takeover_url_secret.split('/').pop(), 'the secret is never logged')

    const again = await post({ tab_id: json.tab_id, takeover: true })
    t.equal(again.status, 409, 'a held tab refuses agent page effects')
    t.equal(again.json.error.code, 'tab_under_human_control')
    const snap = await host.api(`/v1/tabs/${json.tab_id}/snapshot`, { method: 'POST', body: JSON.stringify({ capture: ['text'] }) })
    t.equal(snap.status, 200, 'observations still work')
    t.equal((await snap.json()).page_kind, 'challenge')
  })

  t.test('the generic "Hang tight" document is a challenge', async (t) => {
    const { json } = await post({ url: `${site.url}/hang`, takeover: true })
    t.equal(json.page_kind, 'challenge')
    t.equal(json.challenge.provider, 'generic')
    t.equal(json.actions[0].reason, 'challenge')
  })

  t.test('a loaded 404 is never a successful takeover', async (t) => {
    const { json } = await post({ url: `${site.url}/missing`, takeover: true })
    t.equal(json.ok, false)
    t.equal(json.status, 404)
    t.equal(json.page_kind, 'http_error')
    t.equal(json.actions[0].reason, 'http_error')
  })

  t.test('an SPA shell with no visible text is empty and retained', async (t) => {
    const { json } = await post({ url: `${site.url}/empty`, takeover: true })
    t.equal(json.ok, false)
    t.equal(json.page_kind, 'empty')
    t.ok(json.warnings.some((w: { code: string }) => w.code === 'capture_empty'))
    t.equal(json.tab_retained, true)
  })

  t.test('a good page in takeover mode is reclaimed', async (t) => {
    const { json } = await post({ url: `${site.url}/article`, takeover: true, wait: 'selector-stable:#price' })
    t.equal(json.ok, true)
    t.equal(json.tab_retained, false)
    t.same(json.actions, [])
    t.equal(json.readiness.measured, true)
    t.equal(json.readiness.satisfied, true)
    t.equal(json.readiness.target_ready, true)
    t.ok(json.readiness.samples >= 3)
    t.equal(host.app.tabs.find(json.tab_id), undefined)
  })

  t.test('selector-stable waits for late content', async (t) => {
    const { json } = await post({ url: `${site.url}/late-price`, wait: 'selector-stable:#price', takeover: true })
    t.equal(json.ok, true)
    t.equal(json.readiness.satisfied, true)
    t.ok(json.readiness.elapsed_ms >= 400)
  })

  t.test('an unsatisfied scoped readiness is a result, retained for a person', async (t) => {
    const { status, json } = await post({ url: `${site.url}/never-price`, wait: 'selector:#price:not(:empty)', timeout_ms: 4000, takeover: true })
    t.equal(status, 200)
    t.equal(json.ok, false)
    t.equal(json.readiness.satisfied, false)
    t.equal(json.readiness.measured, true)
    t.equal(json.actions[0].reason, 'readiness_unsatisfied')
    t.ok(json.warnings.some((w: { code: string }) => w.code === 'readiness_timeout'))
  })

  t.test('a fetch with tab_id and no url captures without navigating and never closes the tab', async (t) => {
    const tab = await host.app.tabs.open(host.config.defaultProfile)
    await tab.page.goto(`${site.url}/article`)
    const hits = site.hits('/article')
    const { json } = await post({ tab_id: tab.id })
    t.equal(json.ok, true)
    t.equal(json.status, 200)
    t.equal(site.hits('/article'), hits, 'no navigation happened')
    t.ok(host.app.tabs.find(tab.id), 'the caller\'s tab stays open')
  })

  t.test('navigation failures and timeouts are error envelopes', async (t) => {
    const before = host.app.tabs.list().length
    const refused = await post({ url: 'http://127.0.0.1:9/nothing' })
    t.equal(refused.json.error.code, 'navigation_failed')
    t.equal(refused.json.trace, undefined, 'a plain fetch keeps no tab')
    t.equal(host.app.tabs.list().length, before, 'and closed the one it opened')
    const slow = await post({ url: `${site.url}/slow`, timeout_ms: 800, takeover: true })
    t.equal(slow.json.error.code, 'navigation_timeout')
    t.match(slow.json.trace.retained_tab_id, /^tab_/, 'a takeover fetch keeps the tab and says which')
  })

  t.test('bad input is invalid_request naming the field, or url_not_allowed', async (t) => {
    const cases: Array<[unknown, string, string?]> = [
      [{}, 'invalid_request', 'url'],
      [{ url: 'file:///etc/passwd' }, 'url_not_allowed', 'url'],
      [{ url: 'javascript:alert(1)' }, 'url_not_allowed', 'url'],
      [{ url: 'not a url' }, 'invalid_request', 'url'],
      [{ url: `${site.url}/article`, wait: 'sometime' }, 'invalid_request', 'wait'],
      [{ url: `${site.url}/article`, wait: 'selector:' }, 'invalid_request', 'wait'],
      [{ url: `${site.url}/article`, capture: ['pdf'] }, 'invalid_request', 'capture.0'],
      [{ url: `${site.url}/article`, timeout_ms: 999999 }, 'invalid_request', 'timeout_ms'],
      [{ url: `${site.url}/article`, bogus: true }, 'invalid_request', 'bogus'],
      [{ url: `${site.url}/article`, profile: '../etc' }, 'invalid_request', 'profile'],
      [{ tab_id: 'tab_doesnotexist00000' }, 'tab_not_found']
    ]
    for (const [body, code, field] of cases) {
      const { json } = await post(body)
      t.equal(json.error.code, code, JSON.stringify(body))
      if (field) t.equal(json.error.details.field, field, `names ${field}`)
    }
  })
})
