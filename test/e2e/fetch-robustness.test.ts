import t from 'tap'
import { startHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'

const CHALLENGE = '<!doctype html><title>Just a moment...</title><div id="challenge-form">Checking your browser</div><script src="/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1"></script>'
const ARTICLE = '<!doctype html><title>Article</title><p>An ordinary article with enough words to count.</p>'

t.test('fetch stays bounded and safe against hostile or racing pages', async (t) => {
  const host = await startHost(t)
  const site = await startFixtureServer(t, {
    '/popups': { body: '<!doctype html><title>Popups</title><p>This page opens and closes popups all the time.</p><script>setInterval(() => { const w = window.open("about:blank"); if (w) w.close() }, 5)</script>' },
    '/hang': { body: '<!doctype html><title>Hang</title><p>This page hangs its main thread forever after loading.</p><script>setTimeout(() => { for (;;) {} }, 300)</script>' },
    '/slow': { body: ARTICLE, delayMs: 1500 },
    '/article': { body: ARTICLE },
    '/cf': { status: 403, headers: { 'cf-mitigated': 'challenge' }, body: CHALLENGE }
  })
  const post = async (body: unknown): Promise<Record<string, any>> =>
    (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify(body) })).json() as Promise<Record<string, any>>

  t.test('a page that opens and closes popups in a loop cannot crash the host', async (t) => {
    const tab = await host.app.tabs.open(host.config.defaultProfile)
    // Let the page open and close a good number of popups (counted, not timed) before judging.
    let opened = 0
    const count = (): void => { opened++ }
    const browser = tab.page.browser()
    browser.on('targetcreated', count)
    await post({ tab_id: tab.id, url: `${site.url}/popups` })
    const deadline = Date.now() + 30_000
    while (opened < 20 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
    browser.off('targetcreated', count)
    t.ok(opened >= 20, `the page opened ${opened} popups`)
    await host.app.tabs.close(tab.id, 'api')
    const health = await (await host.api('/health')).json()
    t.equal(health.status.running, true, 'the host still answers')
    t.equal(health.status.backend_connected, true)
    t.equal((await post({ url: `${site.url}/article` })).ok, true, 'and still fetches')
  })

  t.test('a page that hangs after loading answers near timeout_ms, with no invented page kind', async (t) => {
    const started = Date.now()
    const body = await post({ url: `${site.url}/hang`, wait: 'selector:#never-there', timeout_ms: 2000, capture: ['html', 'text'] })
    const elapsed = Date.now() - started
    t.ok(elapsed < 20_000, `answered in ${elapsed} ms, not after the 30 s protocol timeout`)
    t.equal(body.ok, false)
    t.equal(body.page_kind, undefined, 'an unobservable page is not "empty"')
    t.ok(body.warnings.some((w: { code: string }) => w.code === 'page_unresponsive'))
    t.ok(body.warnings.some((w: { code: string }) => w.code === 'capture_failed'))
  })

  t.test('two fetches cannot work one tab at once', async (t) => {
    const tab = await host.app.tabs.open(host.config.defaultProfile)
    const first = post({ tab_id: tab.id, url: `${site.url}/slow` })
    // The first fetch is working the tab once its navigation reached the site (which answers after 1.5 s).
    while (site.hits('/slow') === 0) await new Promise((resolve) => setTimeout(resolve, 10))
    const second = await post({ tab_id: tab.id, url: `${site.url}/article` })
    t.equal(second.error.code, 'tab_busy')
    t.equal(second.error.retryable, true)
    t.equal((await first).ok, true, 'the first fetch is unharmed')
    const third = await post({ tab_id: tab.id, url: `${site.url}/article` })
    t.equal(third.ok, true, 'the tab is free again afterwards')
    await host.app.tabs.close(tab.id, 'api')
  })

  t.test('automatic closes re-check the hold at the last moment; DELETE stays the escape path', async (t) => {
    const res = await post({ url: `${site.url}/cf`, takeover: true })
    const tabId = res.tab_id as string
    await t.rejects(host.app.tabs.close(tabId, 'reaper'), { code: 'tab_under_human_control' })
    await t.rejects(host.app.tabs.close(tabId, 'fetch_cleanup'), { code: 'tab_under_human_control' })
    t.ok(host.app.tabs.find(tabId), 'the held tab is still open')
    t.equal((await host.api(`/v1/tabs/${tabId}`, { method: 'DELETE' })).status, 200)
  })

  t.test('when minting fails the action stays, without a URL, and the warning carries the real error', async (t) => {
    const res = await post({ url: `${site.url}/cf`, takeover: true })
    const tabId = res.tab_id as string
    // A mint runs the live checks, which a loaded machine can fail for a moment
    // (takeover_unavailable, the answer a driver retries): retry those, so that exactly 64 end.
    const mint = async (): Promise<string> => {
      for (let attempt = 1; ; attempt++) {
        const minted = await host.api(`/v1/tabs/${tabId}/handoff`, { method: 'POST', body: '{}' })
        const body = await minted.json() as any
        if (minted.ok) return body.handoff_fence
        if (body.error?.code !== 'takeover_unavailable' || attempt === 5) throw new Error(`mint failed: ${JSON.stringify(body.error)}`)
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
    }
    let fence = res.actions[0].handoff_fence as string
    const unfinished: number[] = []
    for (let i = 0; i < 64; i++) {
      if (i > 0) fence = await mint()
      const finished = await host.api(`/v1/tabs/${tabId}/handoff/finish`, { method: 'POST', body: JSON.stringify({ handoff_fence: fence }) })
      if (finished.status !== 200) unfinished.push(i)
    }
    t.same(unfinished, [], '64 handoffs were minted and finished')
    const again = await post({ tab_id: tabId, url: `${site.url}/cf`, takeover: true })
    t.equal(again.ok, false)
    t.equal(again.tab_retained, true)
    t.equal(again.actions.length, 1)
    t.equal(again.actions[0].kind, 'human_takeover')
    t.notOk('takeover_url_secret' in again.actions[0], 'no URL when none could be minted')
    const warning = again.warnings.find((w: { code: string }) => w.code === 'takeover_url_unavailable')
    t.match(warning?.message, /handoff_capacity/, 'the warning carries the actual handoff error')
    t.match(again.artifacts.text, /Checking your browser/, 'artifacts are kept')
  })
})

t.test('a restarted host never recreates a hold', async (t) => {
  const site = await startFixtureServer(t, { '/cf': { status: 403, headers: { 'cf-mitigated': 'challenge' }, body: CHALLENGE } })
  const dir = t.testdir()
  const first = await startHost(t, { profilesDir: dir })
  const res = await (await first.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/cf`, takeover: true }) })).json()
  const secret = res.actions[0].takeover_url_secret.split('/').pop()
  await first.close()
  const second = await startHost(t, { profilesDir: dir })
  t.same((await (await second.api('/v1/tabs')).json()).tabs, [], 'no tab survives a restart')
  t.equal((await (await second.api(`/v1/tabs/${res.tab_id}/handoff`)).json()).error.code, 'tab_not_found')
  t.equal(second.app.handoffs.peekSecret(secret), undefined, 'the old panel secret is unknown')
})
