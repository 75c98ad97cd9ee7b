// A person answers what the browser draws outside the page (docs/spec.md section 16) through the
// panel, in a second headless Chromium that works the panel by its hooks and pixels:
// a confirm answered OK and a prompt answered with non-ASCII text; "Belgium" chosen from a
// 30-country select (the page's change handler sees a trusted change) and a dismissed list
// that leaves the value; a 2 MB file uploaded (name, size and SHA-256 seen by the page) and
// an oversized one refused with a clear message.
import t from 'tap'
import { createHash, randomBytes } from 'node:crypto'
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'puppeteer-core'
import { startHost, type TestHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { mintPanelLink } from '../helpers/mint.js'
import { clientPointOf, DESKTOP, launchViewerBrowser, onHost, openViewer, PHONE, waitForControl } from '../helpers/panel-browser.js'
import { UPLOAD_FILE_BYTES_MAX } from '../../src/core/page-ui.js'

const DIALOGS = `<!doctype html><title>Newsletter</title><body style="font:18px sans-serif">
<p>Before you read on, two questions.</p><p id="out">waiting</p>
<script>
const kept = confirm('Keep the newsletter?')
const name = prompt('Your name, please', 'anonymous')
document.getElementById('out').textContent = 'confirm=' + kept + ' prompt=' + name
</script>`

const COUNTRIES = ['Albania', 'Andorra', 'Austria', 'Belarus', 'Belgium', 'Bosnia', 'Bulgaria', 'Croatia', 'Cyprus', 'Czechia',
  'Denmark', 'Estonia', 'Finland', 'France', 'Germany', 'Greece', 'Hungary', 'Iceland', 'Ireland', 'Italy',
  'Latvia', 'Liechtenstein', 'Lithuania', 'Luxembourg', 'Malta', 'Moldova', 'Monaco', 'Montenegro', 'Netherlands', 'Norway']
const SIGNUP = `<!doctype html><title>Sign up</title><body style="font:16px sans-serif;margin:0">
<label style="position:absolute;left:40px;top:40px">Country
<select id="country" name="country" style="width:260px;height:32px">
<option value="">Choose…</option>
<optgroup label="A–B">${COUNTRIES.slice(0, 7).map((c) => `<option${c === 'Belarus' ? ' disabled' : ''}>${c}</option>`).join('')}</optgroup>
<optgroup label="C–N">${COUNTRIES.slice(7).map((c) => `<option>${c}</option>`).join('')}</optgroup>
</select></label>
<p id="log" style="position:absolute;left:40px;top:120px"></p>
<script>
window.changes = []
const sel = document.getElementById('country')
sel.addEventListener('change', (e) => { changes.push(sel.value + ':' + e.isTrusted); document.getElementById('log').textContent = 'changed to ' + sel.value })
</script>`

const UPLOAD = `<!doctype html><title>Identity</title><body style="font:16px sans-serif;margin:0">
<input id="doc" type="file" accept=".bin,application/octet-stream" style="position:absolute;left:40px;top:40px;width:300px;height:40px">
<p id="got" style="position:absolute;left:40px;top:120px">no file</p>
<script>
window.downs = []
addEventListener('mousedown', (e) => downs.push([e.clientX, e.clientY, e.target.id]), true)
document.getElementById('doc').addEventListener('change', async (e) => {
  const f = e.target.files[0]
  if (!f) { document.getElementById('got').textContent = 'no file'; return }
  const hash = await crypto.subtle.digest('SHA-256', await f.arrayBuffer())
  const hex = [...new Uint8Array(hash)].map((b) => b.toString(16).padStart(2, '0')).join('')
  document.getElementById('got').textContent = f.name + ' ' + f.size + ' ' + hex
})
</script>`

const BOOKING = `<!doctype html><title>Booking</title><body style="font:16px sans-serif;margin:0">
<label style="position:absolute;left:20px;top:30px">Arrival <input id="arrive" type="date" style="width:200px;height:36px"></label>
<label style="position:absolute;left:20px;top:100px">At <input id="at" type="time" style="width:200px;height:36px"></label>
<p id="log" style="position:absolute;left:20px;top:160px"></p>
<script>
window.changes = []
for (const id of ['arrive', 'at']) document.getElementById(id).addEventListener('change', (e) => { changes.push(id + '=' + e.target.value + ':' + e.isTrusted) })
</script>`

const DRAFT = `<!doctype html><title>Draft</title><body style="font:18px sans-serif;margin:0">
<a id="away" href="/booking" style="position:absolute;left:40px;top:40px;display:block;width:200px;height:40px">Leave the draft</a>
<script>addEventListener('beforeunload', (e) => { e.preventDefault(); e.returnValue = '' })</script>`

async function mintPanel (host: TestHost, url: string): Promise<{ tabId: string, panelUrl: string, fence: string }> {
  const tab = await host.app.tabs.open(host.config.defaultProfile)
  tab.retained = true
  await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ tab_id: tab.id, url, timeout_ms: 5000 }) })
  const minted = await mint(host, tab.id)
  return { tabId: tab.id, panelUrl: onHost(host, minted.takeover_url_secret), fence: minted.handoff_fence }
}

/** A mint's answer, or a failure that carries the host's refusal (which live check, and why). */
async function mint (host: TestHost, tabId: string): Promise<Record<string, string>> {
  return { ...await mintPanelLink(host, tabId) }
}

async function mintAgain (host: TestHost, tabId: string): Promise<string> {
  return onHost(host, (await mint(host, tabId)).takeover_url_secret)
}

const textOf = (page: Page, selector: string): Promise<string> => page.$eval(selector, (el) => el.textContent ?? '')

t.test('browser UI outside the page, worked through the panel', async (t) => {
  const host = await startHost(t)
  const site = await startFixtureServer(t, { '/dialogs': { body: DIALOGS }, '/signup': { body: SIGNUP }, '/upload': { body: UPLOAD }, '/booking': { body: BOOKING }, '/draft': { body: DRAFT } })
  const browser = await launchViewerBrowser(t)

  for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
  t.test(`a confirm answered OK and a prompt answered with non-ASCII text (${name})`, async (t) => {
    const res = await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/dialogs`, takeover: true, timeout_ms: 5000 }) })
    const fetched = await res.json() as Record<string, any>
    t.equal(fetched.actions[0].reason, 'dialog')
    const tab = host.app.tabs.get(fetched.tab_id)
    const { page: panel } = await openViewer(browser, host, viewport)
    const press = (sel: string): Promise<void> => name === 'phone' ? panel.tap(sel) : panel.click(sel)
    await panel.goto(onHost(host, fetched.actions[0].takeover_url_secret))
    await waitForControl(panel)
    await panel.waitForSelector('#afhttp-dialog:not([hidden])')
    t.equal(await textOf(panel, '#afhttp-dialog-message'), 'Keep the newsletter?')
    t.match(await textOf(panel, '#afhttp-dialog-origin'), site.url, 'the page origin is shown')
    t.ok(await panel.$eval('#afhttp-dialog-cancel', (el) => !(el as HTMLElement).hidden), 'confirm offers Cancel')
    t.ok(await panel.$eval('#afhttp-dialog-input', (el) => (el as HTMLElement).hidden), 'confirm has no text field')
    // A second person, only watching, sees the dialog but cannot answer it; the bar stays usable.
    const { page: watcher, context } = await openViewer(browser, host)
    await watcher.goto(await mintAgain(host, tab.id))
    await watcher.waitForSelector('#afhttp-dialog:not([hidden])')
    t.equal(await textOf(watcher, '#afhttp-dialog-message'), 'Keep the newsletter?')
    t.ok(await watcher.$eval('#afhttp-dialog-ok', (el) => (el as HTMLButtonElement).disabled), 'a watcher cannot answer')
    t.ok(await watcher.$eval('#afhttp-control', (el) => { const r = el.getBoundingClientRect(); return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === el }), '“Take control” is not covered by the dialog')
    await context.close()
    await press('#afhttp-dialog-ok')

    // The prompt follows once the confirm is answered.
    await panel.waitForFunction(() => !(document.getElementById('afhttp-dialog-input') as HTMLElement).hidden)
    t.equal(await textOf(panel, '#afhttp-dialog-message'), 'Your name, please')
    t.equal(await panel.$eval('#afhttp-dialog-input', (el) => (el as HTMLInputElement).value), 'anonymous', 'the default text is offered')
    await panel.$eval('#afhttp-dialog-input', (el) => { (el as HTMLInputElement).value = '' })
    await panel.type('#afhttp-dialog-input', 'Zoë Åström · 東京')
    await press('#afhttp-dialog-ok')
    await panel.waitForSelector('#afhttp-dialog', { hidden: true })
    await tab.page.waitForFunction(() => document.getElementById('out')?.textContent !== 'waiting', { timeout: 10_000, polling: 50 })
    t.equal(await tab.page.$eval('#out', (el) => el.textContent), 'confirm=true prompt=Zoë Åström · 東京')
    const listed = await (await host.api(`/v1/tabs/${tab.id}`)).json() as { tab: Record<string, unknown> }
    t.equal(listed.tab.dialog, null, 'the inventory says no dialog is open any more')
    await host.api(`/v1/tabs/${tab.id}`, { method: 'DELETE' })
  })
  }

  for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
  t.test(`choosing Belgium from a 30-country select, then dismissing the list (${name})`, async (t) => {
    const { tabId, panelUrl } = await mintPanel(host, `${site.url}/signup`)
    const tab = host.app.tabs.get(tabId)
    const { page: panel } = await openViewer(browser, host, viewport)
    const press = async (x: number, y: number): Promise<void> => { if (name === 'phone') await panel.touchscreen.tap(x, y); else await panel.mouse.click(x, y) }
    await panel.goto(panelUrl)
    await waitForControl(panel)
    await panel.waitForFunction(() => (window as any).afhttpPanelStats.frames_drawn > 0)
    const r = await tab.page.$eval('#country', (el) => { const b = el.getBoundingClientRect(); return { x: b.x + b.width / 2, y: b.y + b.height / 2 } })
    const at = await clientPointOf(panel, r.x, r.y)
    await press(at.x, at.y)

    await panel.waitForSelector('#afhttp-picker [role=option]')
    const options = await panel.$$eval('#afhttp-picker [role=option]', (els) => els.map((el) => ({ text: el.textContent, selected: el.getAttribute('aria-selected'), disabled: (el as HTMLButtonElement).disabled })))
    t.equal(options.length, 31, 'one option per option (30 countries and the placeholder)')
    t.same(options[0], { text: 'Choose…', selected: 'true', disabled: false }, 'the current option is aria-selected')
    t.equal(options.find((o) => o.text === 'Belarus')?.disabled, true, 'a disabled option is disabled')
    t.same(await panel.$$eval('#afhttp-picker [role=group]', (els) => els.map((el) => el.getAttribute('aria-label'))), ['A–B', 'C–N'], 'groups are labelled')
    t.ok(await panel.$eval('#afhttp-picker', (el) => el.scrollHeight > el.clientHeight), 'a long list scrolls')

    const belgium = await panel.$$eval('#afhttp-picker [role=option]', (els) => els.findIndex((el) => el.textContent === 'Belgium'))
    const handles = await panel.$$('#afhttp-picker [role=option]')
    if (name === 'phone') await handles[belgium].tap(); else await handles[belgium].click()
    // A quick person opens it again at once, while the browser may still be closing its own list
    // (a press then would only close that list): the press waits for it and opens the list anew.
    await press(at.x, at.y)
    await tab.page.waitForFunction(() => (window as any).changes.length > 0, { timeout: 10_000, polling: 50 })
    t.same(await tab.page.evaluate(() => (window as any).changes), ['Belgium:true'], 'the page saw one trusted change, to Belgium')
    t.equal(await tab.page.$eval('#log', (el) => el.textContent), 'changed to Belgium')

    // Open again: dismiss it, the value stays, no change fires.
    await panel.waitForSelector('#afhttp-picker [role=option]', { timeout: 10_000 })
    t.equal(await panel.$eval('#afhttp-picker [aria-selected=true]', (el) => el.textContent), 'Belgium', 'the list shows the new choice')
    if (name === 'phone') await panel.tap('#afhttp-picker-cancel'); else await panel.click('#afhttp-picker-cancel')
    await panel.waitForSelector('#afhttp-picker-box', { hidden: true })
    await tab.page.waitForFunction(() => { const s = document.getElementById('country') as HTMLSelectElement; try { return !s.matches(':open') } catch { return true } }, { timeout: 20_000, polling: 50 })
    t.equal(await tab.page.$eval('#country', (el) => (el as HTMLSelectElement).value), 'Belgium')
    t.same(await tab.page.evaluate(() => (window as any).changes), ['Belgium:true'])
    await host.api(`/v1/tabs/${tabId}`, { method: 'DELETE' })
  })
  }

  t.test('a 2 MB file reaches the page; an oversized one is refused; files go with the handoff', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'afhttp-upload-test-'))
    t.teardown(() => rm(dir, { recursive: true, force: true }))
    const bytes = randomBytes(2 * 1024 * 1024)
    const small = join(dir, 'passport scan.bin')
    await writeFile(small, bytes)
    const big = join(dir, 'too-big.bin')
    await writeFile(big, Buffer.alloc(UPLOAD_FILE_BYTES_MAX + 1, 7))

    const { tabId, panelUrl, fence } = await mintPanel(host, `${site.url}/upload`)
    const tab = host.app.tabs.get(tabId)
    const { page: panel } = await openViewer(browser, host)
    await panel.goto(panelUrl)
    await waitForControl(panel)
    await panel.waitForFunction(() => (window as any).afhttpPanelStats.frames_drawn > 0)
    const r = await tab.page.$eval('#doc', (el) => { const b = el.getBoundingClientRect(); return { x: b.x + 40, y: b.y + b.height / 2 } })
    const at = await clientPointOf(panel, r.x, r.y)
    await panel.mouse.click(at.x, at.y)
    await panel.waitForSelector('#afhttp-file:not([hidden])', { timeout: 8000 }).catch(async (err) => {
      console.error('the file box did not appear; page input, panel point, mousedowns seen by the page, panel stats:', r, at, JSON.stringify(await tab.page.evaluate(() => (window as any).downs)), JSON.stringify(await panel.evaluate(() => (window as any).afhttpPanelStats)))
      throw err
    })
    t.match(await textOf(panel, '#afhttp-file-what'), /\.bin,application\/octet-stream/, 'the accept list is passed on')
    const caps = await (await fetch(`${host.url}/capabilities`)).json() as { limits: Record<string, number> }
    t.equal(caps.limits.upload_file_bytes_max, UPLOAD_FILE_BYTES_MAX, 'the size limit is advertised in /capabilities')
    t.equal(caps.limits.upload_files_max, 10)
    t.match(await textOf(panel, '#afhttp-file-what'), /At most 1 file of 10 MB each/, 'and told to the person')

    // Oversized first: the panel says why, and nothing reaches the page.
    const [tooBig] = await Promise.all([panel.waitForFileChooser(), panel.click('#afhttp-file-choose')])
    await tooBig.accept([big])
    await panel.waitForFunction(() => /limit is 10 MB per file/.test(document.getElementById('afhttp-file-status')?.textContent ?? ''))
    t.match(await textOf(panel, '#afhttp-file-status'), /too-big\.bin.*Nothing was sent/)
    // The host refuses it too, with the same clear reason, if a panel skipped its own check.
    const direct = await panel.evaluate(async (tab: string, n: number) => {
      const res = await fetch(`/panel/api/files?tab=${encodeURIComponent(tab)}&name=x.bin`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: new Blob([new Uint8Array(n)]) })
      return { status: res.status, body: await res.json() }
    }, tabId, UPLOAD_FILE_BYTES_MAX + 1)
    t.equal(direct.status, 413)
    t.equal(direct.body.error.code, 'payload_too_large')
    t.match(direct.body.error.message, /limit is 10 MB per file/)
    // Nobody else can hand the page a file: another origin, or no lease, is refused before the body is read.
    const foreign = await fetch(`${host.url}/panel/api/files?tab=${tabId}&name=x.bin`, { method: 'POST', headers: { 'content-type': 'application/octet-stream', origin: 'http://evil.test' }, body: 'x' })
    t.equal(foreign.status, 403)
    const leaseless = await fetch(`${host.url}/panel/api/files?tab=${tabId}&name=x.bin`, { method: 'POST', headers: { 'content-type': 'application/octet-stream', origin: host.url }, body: 'x' })
    t.equal(((await leaseless.json()) as { error: { code: string } }).error.code, 'panel_lease_invalid')

    // Cancel leaves the page's input empty and closes the panel's box.
    await panel.click('#afhttp-file-cancel')
    await panel.waitForSelector('#afhttp-file', { hidden: true })
    t.equal(await tab.page.$eval('#doc', (el) => (el as HTMLInputElement).files?.length), 0, 'cancelled: the input stays empty')
    t.equal(await tab.page.$eval('#got', (el) => el.textContent), 'no file')

    // The person opens the page's chooser again and picks the 2 MB file.
    await panel.mouse.click(at.x, at.y)
    await panel.waitForSelector('#afhttp-file:not([hidden])')
    const [chooser] = await Promise.all([panel.waitForFileChooser(), panel.click('#afhttp-file-choose')])
    await chooser.accept([small])
    await tab.page.waitForFunction(() => document.getElementById('got')?.textContent !== 'no file', { timeout: 15_000, polling: 50 })
    const sha = createHash('sha256').update(bytes).digest('hex')
    t.equal(await tab.page.$eval('#got', (el) => el.textContent), `passport scan.bin ${bytes.length} ${sha}`, 'name, size and SHA-256 as the page sees them')
    await panel.waitForSelector('#afhttp-file', { hidden: true })

    const stored = host.app.panel.uploads.dirOf(tabId)!
    t.ok(stored, 'the handoff has an upload directory')
    const [entry] = await readdir(stored)
    const file = join(stored, entry, 'passport scan.bin')
    t.equal((await stat(file)).mode & 0o777, 0o600, 'stored mode 0600')
    t.equal((await stat(stored)).mode & 0o777, 0o700, 'in a directory only the host can read')

    await host.api(`/v1/tabs/${tabId}/handoff/finish`, { method: 'POST', body: JSON.stringify({ handoff_fence: fence }) })
    // Deleted when the handoff ends (asynchronously, so wait for it rather than sleep).
    for (let i = 0; i < 100 && await stat(stored).then(() => true, () => false); i++) await new Promise((resolve) => setTimeout(resolve, 20))
    await t.rejects(stat(stored), { code: 'ENOENT' }, 'deleted when the handoff ends')
    await host.api(`/v1/tabs/${tabId}`, { method: 'DELETE' })
  })

  t.test('a date and a time picked with the viewer’s own native inputs, on a phone', async (t) => {
    const { tabId, panelUrl } = await mintPanel(host, `${site.url}/booking`)
    const tab = host.app.tabs.get(tabId)
    const { page: panel } = await openViewer(browser, host, PHONE)
    await panel.goto(panelUrl)
    await waitForControl(panel)
    await panel.waitForFunction(() => (window as any).afhttpPanelStats.frames_drawn > 0)
    const centre = (sel: string): Promise<{ x: number, y: number }> => tab.page.$eval(sel, (el) => { const b = el.getBoundingClientRect(); return { x: b.x + 60, y: b.y + b.height / 2 } })

    let at = await clientPointOf(panel, ...Object.values(await centre('#arrive')) as [number, number])
    await panel.touchscreen.tap(at.x, at.y)
    await panel.waitForSelector('#afhttp-native:not([hidden])')
    t.equal(await panel.$eval('#afhttp-native-input', (el) => (el as HTMLInputElement).type), 'date', 'the viewer gets a native date input')
    // A phone's own date wheel is drawn by its OS, out of reach of a test: what it leaves
    // behind is the input's value and an input event, so that is what the test sets.
    const pick = (value: string): Promise<void> => panel.$eval('#afhttp-native-input', (el, v) => {
      (el as HTMLInputElement).value = v as string
      el.dispatchEvent(new Event('input', { bubbles: true }))
    }, value)
    await pick('2026-05-17')
    t.equal(await panel.$eval('#afhttp-native-input', (el) => (el as HTMLInputElement).value), '2026-05-17')
    await panel.tap('#afhttp-native-set')
    await tab.page.waitForFunction(() => (window as any).changes.some((c: string) => c.startsWith('arrive=2026-05-17')), { timeout: 10_000, polling: 50 })
    t.equal(await tab.page.$eval('#arrive', (el) => (el as HTMLInputElement).value), '2026-05-17')
    t.ok((await tab.page.evaluate(() => (window as any).changes as string[])).every((c) => c.endsWith(':true')), 'typed by the browser: trusted events')

    at = await clientPointOf(panel, ...Object.values(await centre('#at')) as [number, number])
    await panel.touchscreen.tap(at.x, at.y)
    await panel.waitForFunction(() => (document.getElementById('afhttp-native-input') as HTMLInputElement).type === 'time' && !document.getElementById('afhttp-native')!.hidden)
    await pick('14:30')
    t.equal(await panel.$eval('#afhttp-native-input', (el) => (el as HTMLInputElement).value), '14:30')
    await panel.tap('#afhttp-native-set')
    await tab.page.waitForFunction(() => (document.getElementById('at') as HTMLInputElement).value === '14:30', { timeout: 10_000, polling: 50 })
    t.pass('the time reached the page')
    await host.api(`/v1/tabs/${tabId}`, { method: 'DELETE' })
  })

  t.test('leaving a page that asks first: Stay keeps it, Leave goes', async (t) => {
    const { tabId, panelUrl } = await mintPanel(host, `${site.url}/draft`)
    const tab = host.app.tabs.get(tabId)
    const { page: panel } = await openViewer(browser, host)
    await panel.goto(panelUrl)
    await waitForControl(panel)
    await panel.waitForFunction(() => (window as any).afhttpPanelStats.frames_drawn > 0)
    const r = await tab.page.$eval('#away', (el) => { const b = el.getBoundingClientRect(); return { x: b.x + 20, y: b.y + b.height / 2 } })
    const at = await clientPointOf(panel, r.x, r.y)
    await panel.mouse.click(at.x, at.y)
    await panel.waitForSelector('#afhttp-dialog:not([hidden])')
    t.equal(await panel.$eval('#afhttp-dialog', (el) => (el as HTMLElement).dataset.type), 'beforeunload')
    t.equal(await textOf(panel, '#afhttp-dialog-cancel'), 'Stay')
    await panel.click('#afhttp-dialog-cancel')
    await panel.waitForSelector('#afhttp-dialog', { hidden: true })
    t.equal(new URL(tab.page.url()).pathname, '/draft', 'Stay keeps the page')

    await panel.mouse.click(at.x, at.y)
    await panel.waitForSelector('#afhttp-dialog:not([hidden])')
    t.equal(await textOf(panel, '#afhttp-dialog-ok'), 'Leave')
    await panel.click('#afhttp-dialog-ok')
    await tab.page.waitForFunction(() => location.pathname === '/booking', { timeout: 10_000, polling: 50 })
    t.pass('Leave goes')
    await host.api(`/v1/tabs/${tabId}`, { method: 'DELETE' })
  })
})
