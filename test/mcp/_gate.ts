// A gated page on 127.0.0.1 the host recognises as a bot check, and a person (a second, headless
// Chromium) who gets through it in the panel: a click on Continue, drawn and relayed by the panel.
import type { Browser } from 'puppeteer-core'
import { startHost, type HostOptions, type TestHost } from '../helpers/host.js'
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js'
import { clientPointOf, DESKTOP, onHost, openViewer, waitForControl, waitForFrames } from '../helpers/panel-browser.js'
import type { Teardown } from '../helpers/teardown.js'

export const GATE = `<!doctype html><html><head><title>Just a moment...</title><style>
body{margin:0;font:16px sans-serif}
#continue{position:absolute;left:60px;top:80px;width:220px;height:64px;font-size:20px}
</style></head><body>
<div class="cf-browser-verification">Checking your browser before you continue.</div>
<button id="continue" onclick="location.href='/members?passed=1'">Continue</button>
</body></html>`

export const CONTENT = '<!doctype html><title>Members &amp; friends</title><main><h1>Members area</h1><p>Welcome back, the content is here. ' + 'It has enough words to count as the page a driver wanted. '.repeat(4) + '</p></main>'

/** `/members` is the gate until the person pressed Continue (`?passed=1`); `/plain` is content. */
export async function startGateSite (t: Teardown): Promise<FixtureServer> {
  return startFixtureServer(t, {
    '/members': { body: (req) => (req.url?.includes('passed=1') ? CONTENT : GATE) },
    '/plain': { body: CONTENT }
  })
}

/** The person opens the link, takes control, and clicks Continue through the panel. */
export async function passGate (host: TestHost, browser: Browser, link: string): Promise<void> {
  const { page: panel, context } = await openViewer(browser, host, DESKTOP)
  try {
    await panel.goto(onHost(host, link))
    await waitForFrames(panel)
    await waitForControl(panel)
    // The middle of #continue, in page CSS pixels (fixed by the gate's own style).
    const p = await clientPointOf(panel, 60 + 110, 80 + 32)
    await panel.mouse.click(p.x, p.y)
    const finished = (): boolean => (window as any).afhttpPanelStats.state === 'finished'
    // The host notices the gate is gone by itself (auto_detected); on a loaded machine its finite
    // looks may all come too late, and then the person does what the panel offers: Done.
    const noticed = await panel.waitForFunction(finished, { timeout: 8_000 }).then(() => true, () => false)
    if (!noticed) {
      await panel.click('#afhttp-done')
      await panel.waitForFunction(finished, { timeout: 20_000 })
    }
  } finally {
    await context.close().catch(() => undefined)
  }
}

/**
 * A host whose browsers are up before the test uses it: started here rather than in the host's
 * onReady hook, whose fixed timeout a loaded machine can exceed. `profiles` are created and warmed too.
 */
export async function warmHost (t: Teardown, opts: HostOptions = {}): Promise<TestHost> {
  const host = await startHost(t, { ...opts, startBrowser: false })
  await host.app.browsers.get(host.config.defaultProfile)
  return host
}

/** Creates a profile on `host` and starts its browser. */
export async function warmProfile (host: TestHost, name: string): Promise<void> {
  const res = await host.api('/v1/profiles', { method: 'POST', body: JSON.stringify({ name }) })
  if (res.status !== 201) throw new Error(`creating profile ${name}: HTTP ${res.status} ${await res.text()}`)
  await host.app.browsers.get(name)
}
