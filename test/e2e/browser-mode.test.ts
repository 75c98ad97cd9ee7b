import { readFileSync } from 'node:fs'
import t from 'tap'
import { startHost, type TestHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'

const PROBE = readFileSync(new URL('../fixtures/pages/what-a-site-sees.html', import.meta.url), 'utf8')

interface Seen {
  userAgent: string
  brands: string[] | null
  webdriver: boolean
  screen: { width: number, height: number }
  outer: { width: number, height: number }
  inner: { width: number, height: number }
  atParse: { width: number, height: number }
}

/** What a site's script reads about the browser, fetched through the host like any page. */
async function whatASiteSees (host: TestHost, url: string, tabId?: string): Promise<Seen> {
  const res = await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url, wait: 'selector:#probe-done', capture: ['text'], ...(tabId ? { tab_id: tabId } : {}) }) })
  const json = await res.json() as { ok: boolean, artifacts: { text: string } }
  const line = json.artifacts.text.split('\n').find((l) => l.startsWith('{'))
  if (!line) throw new Error(`the probe printed nothing: ${JSON.stringify(json).slice(0, 300)}`)
  return JSON.parse(line) as Seen
}

function pidRunning (pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return !/\) [ZX] /.test(stat)
  } catch {
    return false
  }
}

t.test('the default browser is an ordinary visible Chromium on an Xvfb the host owns', async (t) => {
  // No DISPLAY in the host's environment: it must start (and later stop) its own Xvfb.
  const host = await startHost(t)
  const site = await startFixtureServer(t, { '/probe': { body: PROBE } })

  const caps = await (await fetch(`${host.url}/capabilities`)).json() as Record<string, unknown>
  t.equal(caps.browser_mode, 'headful')
  t.equal(caps.browser_mode_configured, 'auto')
  const health = await (await host.api('/health')).json() as { build: { browser_mode: string }, warnings?: unknown }
  t.equal(health.build.browser_mode, 'headful')
  t.equal(health.warnings, undefined, 'no fallback warning when headful runs')

  const seen = await whatASiteSees(host, `${site.url}/probe`)
  t.notMatch(seen.userAgent, /Headless/i, 'the user agent does not say headless')
  t.match(seen.userAgent, /Chrome\/\d+/)
  t.ok(seen.brands && seen.brands.length > 0, 'navigator.userAgentData has brands (127.0.0.1 is a secure context)')
  t.notOk(seen.brands?.some((b) => /headless/i.test(b)), `no brand says headless: ${seen.brands?.join(', ')}`)
  t.equal(seen.webdriver, false, 'navigator.webdriver is false')
  t.ok(seen.screen.width >= seen.outer.width && seen.screen.height >= seen.outer.height, `screen ${JSON.stringify(seen.screen)} holds the window ${JSON.stringify(seen.outer)}`)
  t.ok(seen.outer.height > seen.inner.height, `the window has browser chrome: outer ${seen.outer.height} > inner ${seen.inner.height}`)
  t.equal(seen.inner.width, 1280, 'the page keeps the 1280 px wide viewport')

  // A script that runs while the page parses sees the window too: in a fetch's fresh window and
  // when a kept tab is fetched again on the same site (each used to read 0 now and then).
  const atParse: string[] = []
  for (let i = 0; i < 8; i++) atParse.push(JSON.stringify((await whatASiteSees(host, `${site.url}/probe?fresh=${i}`)).atParse))
  const kept = await host.app.tabs.open(host.config.defaultProfile)
  for (let i = 0; i < 6; i++) atParse.push(JSON.stringify((await whatASiteSees(host, `${site.url}/probe?again=${i}`, kept.id)).atParse))
  t.same(atParse.filter((s) => JSON.parse(s).width === 0), [], `the window's size while parsing, in 14 fetches: ${[...new Set(atParse)].join(' ')}`)
  t.ok(atParse.every((s) => JSON.parse(s).width === seen.outer.width), 'and it is the size the page sees after load')
  await host.app.tabs.close(kept.id, 'api')

  const started = host.logs.lines.find((l) => l.msg === 'started Xvfb for a headful Chromium')
  t.ok(started, 'the host logged the Xvfb it started')
  const xvfbPid = started?.pid as number
  t.ok(pidRunning(xvfbPid), 'its Xvfb runs while the host does')
  await host.close()
  t.notOk(pidRunning(xvfbPid), 'closing the host stopped its Xvfb')
})

t.test('headless stays an explicit choice', async (t) => {
  const host = await startHost(t, { env: { AFHTTP_BROWSER_MODE: 'headless' } })
  const site = await startFixtureServer(t, { '/probe': { body: PROBE } })
  const caps = await (await fetch(`${host.url}/capabilities`)).json() as Record<string, unknown>
  t.equal(caps.browser_mode, 'headless')
  const seen = await whatASiteSees(host, `${site.url}/probe`)
  t.match(seen.userAgent, /HeadlessChrome/, 'a headless Chromium says so, as it always does')
  t.equal(seen.webdriver, false, 'still no automation flag')
  t.notOk(host.logs.lines.some((l) => l.msg === 'started Xvfb for a headful Chromium'), 'no Xvfb for headless')
})

t.test('auto without a display or Xvfb falls back to headless, saying so in the log and /health', async (t) => {
  // PATH without Xvfb, Chromium named by its path.
  const host = await startHost(t, { env: { PATH: '/nonexistent', AFHTTP_CHROMIUM: '/usr/bin/chromium' } })
  const health = await (await host.api('/health')).json() as { build: { browser_mode: string }, warnings?: Array<{ code: string, message: string }> }
  t.equal(health.build.browser_mode, 'headless')
  t.equal(health.warnings?.[0]?.code, 'browser_headless_fallback')
  t.match(health.warnings?.[0]?.message, /xvfb/i)
  t.ok(host.logs.lines.some((l) => l.level === 40 && /running headless/.test(String(l.msg))), 'a warning in the log')
})

// The mode switch keeps the whole takeover working: a person clicks through a page in the panel.
const BUTTON_PAGE = '<!doctype html><title>Blocked</title><body style="margin:0;font:16px sans-serif"><p>Access denied. Press the button to continue.</p>' +
  '<button id="go" style="position:absolute;left:200px;top:150px;width:200px;height:60px" onclick="document.title=\'Pressed\'">Continue</button></body>'

for (const mode of ['headful', 'headless'] as const) {
  t.test(`a person works the page through the panel (${mode})`, async (t) => {
    const { launchViewerBrowser, openViewer, clientPointOf, onHost, waitForControl, waitForFrames } = await import('../helpers/panel-browser.js')
    const host = await startHost(t, { env: { AFHTTP_BROWSER_MODE: mode } })
    const site = await startFixtureServer(t, { '/blocked': { status: 403, body: BUTTON_PAGE } })
    const fetched = await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/blocked`, takeover: true }) })).json() as any
    t.equal(fetched.tab_retained, true)
    const viewer = await launchViewerBrowser(t)
    const { page: panel } = await openViewer(viewer, host)
    await panel.goto(onHost(host, fetched.actions[0].takeover_url_secret))
    await waitForFrames(panel)
    await waitForControl(panel)
    const p = await clientPointOf(panel, 300, 180)
    await panel.mouse.click(p.x, p.y)
    const tab = host.app.tabs.get(fetched.tab_id)
    await tab.page.waitForFunction(() => document.title === 'Pressed', { timeout: 10_000, polling: 50 })
    t.equal(await tab.page.title(), 'Pressed', 'the click landed on the button')
  })
}
