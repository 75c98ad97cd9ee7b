// A popup's own dialogs and select lists are drawn by the panel (docs/spec.md section 10 "Popups",
// section 16): the page's button opens a window that asks confirm() as it loads and holds a
// <select>, a file input and a button that asks again. The person, in a second headless Chromium
// working the panel by its hooks, answers the first confirm (asked before the window is even a
// page: src/page-ui/early-dialogs.ts), chooses an option, hands over a file and answers the
// second confirm; the popup sees both answers, one trusted change and the file.
import t from 'tap'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { clientPointOf, launchViewerBrowser, onHost, openViewer, waitForControl, waitForFrames } from '../helpers/panel-browser.js'

const APP = `<!doctype html><title>App</title><body style="margin:0;font:16px sans-serif">
<button id="open" style="position:absolute;left:40px;top:60px;width:240px;height:80px"
  onclick="window.open('/popup', 'prefs', 'width=520,height=560')">Preferences</button>`
const POPUP = `<!doctype html><title>Preferences</title><body style="margin:0;font:16px sans-serif">
<p id="answer" style="position:absolute;left:20px;top:100px">waiting</p>
<input id="doc" type="file" style="position:absolute;left:20px;top:160px;width:300px;height:40px">
<p id="got" style="position:absolute;left:20px;top:220px">no file</p>
<button id="reset" style="position:absolute;left:20px;top:280px;width:200px;height:40px"
  onclick="document.getElementById('reset-answer').textContent = 'reset=' + confirm('Reset everything?')">Reset</button>
<p id="reset-answer" style="position:absolute;left:20px;top:330px">not asked</p>
<select id="lang" style="position:absolute;left:20px;top:20px;width:240px;height:36px">
<option>English</option><option>Français</option><option>Nederlands</option><option>Deutsch</option>
</select>
<script>
window.changes = []
document.getElementById('doc').addEventListener('change', (e) => { const f = e.target.files[0]; document.getElementById('got').textContent = f ? f.name + ' ' + f.size : 'no file' })
document.getElementById('lang').addEventListener('change', (e) => changes.push(e.target.value + ':' + e.isTrusted))
document.getElementById('answer').textContent = 'confirm=' + confirm('Keep these preferences?')
</script>`

t.test("a popup's confirm, select and file chooser are drawn and answered through the panel", async (t) => {
  const host = await startHost(t)
  const site = await startFixtureServer(t, { '/app': { status: 401, body: APP }, '/popup': { body: POPUP } })
  const browser = await launchViewerBrowser(t)
  const fetched = await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/app`, takeover: true }) })).json() as any
  const tabId: string = fetched.tab_id
  const { page } = await openViewer(browser, host)
  await page.goto(onHost(host, fetched.actions[0].takeover_url_secret))
  await waitForFrames(page)
  await waitForControl(page)

  const button = await clientPointOf(page, 160, 100)
  await page.mouse.click(button.x, button.y)

  // The popup's confirm, asked as it loads, blocks it before it is a page the host can adopt:
  // the panel draws it over the opener, with the popup's origin; OK lets the popup go on.
  await page.waitForSelector('#afhttp-dialog:not([hidden])', { timeout: 10_000 })
  t.equal(await page.$eval('#afhttp-dialog-message', (el) => el.textContent), 'Keep these preferences?')
  t.match(await page.$eval('#afhttp-dialog-origin', (el) => el.textContent), site.url, "the popup's origin is shown")
  t.equal(await page.evaluate(() => (window as any).afhttpPanelStats.tab_id), tabId, 'drawn while the opener is on show: the popup is not a page yet')
  await page.click('#afhttp-dialog-ok')
  await page.waitForSelector('#afhttp-dialog', { hidden: true })
  await page.waitForFunction((root: string) => { const s = (window as any).afhttpPanelStats; return s.tab_id && s.tab_id !== root }, { timeout: 10_000 }, tabId)
  const popupId: string = await page.evaluate(() => (window as any).afhttpPanelStats.tab_id)
  const popup = host.app.tabs.get(popupId).page
  await popup.waitForFunction(() => document.getElementById('answer')?.textContent === 'confirm=true', { timeout: 10_000, polling: 50 })
  t.pass('the popup saw OK and the panel follows it')

  // Its select: the panel draws the list; the choice reaches the popup as a trusted change.
  const size = await popup.evaluate(() => ({ width: innerWidth, height: innerHeight }))
  await page.waitForFunction((w: number, h: number) => { const d = (window as any).afhttpPanelStats.device; return d?.width === w && d?.height === h }, { timeout: 10_000 }, size.width, size.height)
  const sel = await clientPointOf(page, 140, 38)
  await page.mouse.click(sel.x, sel.y)
  await page.waitForSelector('#afhttp-picker [role=option]', { timeout: 10_000 })
  const options = await page.$$eval('#afhttp-picker [role=option]', (els) => els.map((el) => el.textContent))
  t.same(options, ['English', 'Français', 'Nederlands', 'Deutsch'], "the popup's own options")
  const handles = await page.$$('#afhttp-picker [role=option]')
  await handles[2].click()
  await popup.waitForFunction(() => (window as any).changes.length > 0, { timeout: 10_000, polling: 50 })
  t.same(await popup.evaluate(() => (window as any).changes), ['Nederlands:true'], 'one trusted change, to Nederlands')

  // Its file chooser: the viewer's own picker, the file carried to the host, set on the popup's input.
  const dir = await mkdtemp(join(tmpdir(), 'afhttp-popup-upload-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const file = join(dir, 'proof.txt')
  await writeFile(file, 'proof of address\n')
  const input = await clientPointOf(page, 60, 180)
  await page.mouse.click(input.x, input.y)
  await page.waitForSelector('#afhttp-file:not([hidden])', { timeout: 10_000 })
  const [chooser] = await Promise.all([page.waitForFileChooser(), page.click('#afhttp-file-choose')])
  await chooser.accept([file])
  await popup.waitForFunction(() => document.getElementById('got')?.textContent !== 'no file', { timeout: 15_000, polling: 50 })
  t.equal(await popup.$eval('#got', (el) => el.textContent), 'proof.txt 17', 'the popup got the file')

  // A confirm the adopted popup asks later: drawn, listed in the inventory, and Cancel reaches it.
  const reset = await clientPointOf(page, 120, 300)
  await page.mouse.click(reset.x, reset.y)
  await page.waitForSelector('#afhttp-dialog:not([hidden])', { timeout: 10_000 })
  t.equal(await page.$eval('#afhttp-dialog-message', (el) => el.textContent), 'Reset everything?')
  const listed = await (await host.api(`/v1/tabs/${popupId}`)).json() as { tab: Record<string, any> }
  t.equal(listed.tab.dialog?.type, 'confirm', 'the inventory says the popup has a dialog open')
  await page.click('#afhttp-dialog-cancel')
  await page.waitForSelector('#afhttp-dialog', { hidden: true })
  await popup.waitForFunction(() => document.getElementById('reset-answer')?.textContent === 'reset=false', { timeout: 10_000, polling: 50 })
  t.pass('the popup saw Cancel')

  // The popup closes: the panel shows the opener again, with nothing of the popup's left drawn.
  await popup.evaluate(() => { setTimeout(() => window.close(), 50) })
  await page.waitForFunction((root: string) => (window as any).afhttpPanelStats.tab_id === root, { timeout: 10_000 }, tabId)
  t.equal(await page.$eval('#afhttp-picker-box', (el) => (el as HTMLElement).hidden), true, 'no list is left on show')
})
