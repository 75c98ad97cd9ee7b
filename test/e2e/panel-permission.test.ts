// A person allows a site permission through the panel (docs/spec.md section 16, section 19): the
// page asks for the location, which every profile denies up front; the person, in a second
// headless Chromium, presses "Allow…" and "Know your location". The page's own permission
// state turns to granted at once, the audit trail says who allowed what for which origin, the
// profile keeps it, and a host started again on the same profiles grants it from the start.
import t from 'tap'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { launchViewerBrowser, onHost, openViewer, waitForControl, waitForFrames } from '../helpers/panel-browser.js'

const MAP = `<!doctype html><title>Stores near you</title><body style="margin:0;font:16px sans-serif">
<p id="state">asking…</p>
<script>
window.geo = () => navigator.permissions.query({ name: 'geolocation' }).then((s) => s.state)
geo().then((s) => {
  document.getElementById('state').textContent = 'geolocation=' + s
  const done = document.createElement('i'); done.id = 'done'; document.body.append(done)
})
</script>`

t.test('a person allows the location for the shown origin: in force at once, on the trail, kept in the profile', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'afhttp-panel-perm-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const site = await startFixtureServer(t, { '/stores': { status: 403, body: MAP } })
  const host = await startHost(t, { profilesDir: dir })
  const viewer = await launchViewerBrowser(t)

  const fetched = await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/stores`, takeover: true }) })).json() as any
  const tabId: string = fetched.tab_id
  t.type(fetched.actions[0].handoff_fence, 'string', 'the 403 is handed to a person')
  const page = host.app.tabs.get(tabId).page
  t.equal(await page.evaluate(() => (window as any).geo()), 'denied', 'denied before anyone allowed it')

  const { page: panel } = await openViewer(viewer, host)
  await panel.goto(onHost(host, fetched.actions[0].takeover_url_secret))
  await waitForFrames(panel)
  await waitForControl(panel)
  await panel.click('#afhttp-perm')
  await panel.waitForSelector('#afhttp-perm-box:not([hidden])', { timeout: 5_000 })
  t.equal(await panel.$eval('#afhttp-perm-what', (el) => el.textContent), `Let ${site.url} …`, 'the box names the origin it allows')
  await panel.click('#afhttp-perm-list [data-permission=geolocation]')

  await page.waitForFunction(() => (window as any).geo().then((s: string) => s === 'granted'), { timeout: 10_000, polling: 100 })
  t.pass('the page sees geolocation granted')
  await panel.waitForFunction(() => document.getElementById('afhttp-note')?.textContent?.startsWith('Allowed for'), { timeout: 20_000 })
  t.match(await panel.$eval('#afhttp-note', (el) => el.textContent), `Allowed for ${site.url}: know your location`, 'the person is told what was allowed, and for whom')
  t.equal(await panel.$eval('#afhttp-perm-box', (el) => (el as HTMLElement).hidden), true, 'the box closes')

  // The trail: who (the handoff), what, for which origin — never a path or a query.
  let granted: Record<string, unknown> | undefined
  for (let i = 0; i < 50 && !granted; i++) {
    const trail = await (await host.api(`/v1/tabs/${tabId}/handoff/audit`)).json() as { entries: Array<Record<string, unknown>> }
    granted = trail.entries.find((e) => e.kind === 'permission_granted')
    if (!granted) await new Promise((resolve) => setTimeout(resolve, 100))
  }
  t.match(granted, { kind: 'permission_granted', permission: 'geolocation', origin: site.url, handoff_fence: fetched.actions[0].handoff_fence }, 'the audit trail records the grant')
  t.same((await host.app.profiles.get('default')).permissions, { [site.url]: ['geolocation'] }, 'the profile keeps it')

  // Only a person in control can allow: the same message from a taken-over panel is refused.
  await panel.evaluate(() => { (document.getElementById('afhttp-control') as HTMLButtonElement).click() })
  await waitForControl(panel, false)
  await panel.click('#afhttp-perm')
  await panel.click('#afhttp-perm-list [data-permission=camera]')
  t.match(await panel.$eval('#afhttp-note', (el) => el.textContent), /Take control/, 'without control the panel says why nothing was allowed')
  t.equal(await page.evaluate(() => navigator.permissions.query({ name: 'camera' as PermissionName }).then((s) => s.state)), 'denied', 'and the camera stays denied')

  // A host started again on the same profiles grants it before any page asks.
  await host.close()
  const again = await startHost(t, { profilesDir: dir })
  const res = await again.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/stores`, wait: 'selector:#done', capture: ['text'] }) })
  const body = await res.json() as { artifacts: { text: string } }
  t.match(body.artifacts.text, /geolocation=granted/, 'the next browser of the profile has it from the start')
})
