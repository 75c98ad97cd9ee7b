// An operator on a phone, as a person would use it (docs/spec.md section 20): a phone-sized Chromium
// opens the login link, sees a new handoff appear on the inbox within a second of the fetch that
// made it (pushed by the host, never polled), takes it, gets through the page in the panel, and
// the inbox shows it finished. A second operator's desktop inbox watches the same story live.
import t from 'tap'
import type { HTTPRequest } from 'puppeteer-core'
import { startHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { clientPointOf, DESKTOP, launchViewerBrowser, openViewer, PHONE, waitForControl, waitForFrames } from '../helpers/panel-browser.js'

const OPERATOR = 'operator-token-for-a-person-0123'
const INSTRUCTIONS = 'Press <b>Continue</b> once the check is done'
const CHALLENGE = `<!doctype html><html><head><title>Just a moment...</title><style>body{margin:0;font:16px sans-serif}
#go{position:absolute;left:60px;top:120px;width:240px;height:90px;font-size:22px}</style></head><body>
<div class="cf-browser-verification">Checking your browser before you continue.</div>
<button id="go" onclick="location.href='/welcome'">Continue</button></body></html>`
const WELCOME = '<!doctype html><title>Welcome</title><h1>Welcome back</h1><p>Here is the article you asked for, with enough words in it to count as content.</p>'

t.test('an operator on a phone finds, takes and finishes a handoff', async (t) => {
  const host = await startHost(t, { startBrowser: false, env: { AFHTTP_OPERATOR_TOKEN: OPERATOR } })
  await host.app.browsers.get(host.config.defaultProfile)
  const site = await startFixtureServer(t, { '/challenge': { body: CHALLENGE }, '/welcome': { body: WELCOME } })
  const browser = await launchViewerBrowser(t)

  const { page: phone } = await openViewer(browser, host, PHONE)
  const login = await phone.goto(`${host.url}/inbox/login?token=${OPERATOR}`)
  t.equal(login?.status(), 200)
  t.equal(new URL(phone.url()).pathname, '/inbox/', 'signed in, on the inbox')
  t.equal(new URL(phone.url()).search, '', 'the token left the address bar')
  await phone.waitForFunction(() => (window as any).afhttpInbox?.updates >= 1, { timeout: 15_000 })
  t.ok(await phone.$eval('#afhttp-inbox-empty', (el) => !(el as HTMLElement).hidden), 'nothing to do yet')

  const { page: desk } = await openViewer(browser, host, DESKTOP)
  await desk.goto(`${host.url}/inbox/login?token=${OPERATOR}`)
  await desk.waitForFunction(() => (window as any).afhttpInbox?.updates >= 1, { timeout: 15_000 })

  // From here on the phone's inbox asks the host for nothing: updates arrive on its open stream.
  const asked: string[] = []
  const onRequest = (req: HTTPRequest): void => { asked.push(new URL(req.url()).pathname) }
  phone.on('request', onRequest)

  const res = await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/challenge`, takeover: true, instructions: INSTRUCTIONS }) })
  const answeredAt = Date.now()
  const fetched = await res.json() as any
  t.equal(fetched.actions[0].reason, 'challenge')
  const card = `.afhttp-inbox-item[data-tab-id="${fetched.tab_id}"]`
  await phone.waitForSelector(card, { timeout: 15_000 }).catch(async (err: Error) => {
    const seen = await phone.evaluate(() => ({ stats: (window as any).afhttpInbox, status: document.querySelector('#afhttp-inbox-status')?.textContent }))
    throw new Error(`${err.message}; the page saw ${JSON.stringify(seen)}; the host lists ${JSON.stringify((await host.app.inbox.list()).handoffs.map((h) => h.tab_id))}`)
  })
  // When the page drew it, by the page's own clock (the same machine's), not when the test looked.
  const seenAfter = await phone.evaluate((id: string) => (window as any).afhttpInbox.first_seen[id], fetched.tab_id) - answeredAt
  t.ok(seenAfter <= 1000, `the handoff was on the phone ${seenAfter} ms after the fetch answered`)
  phone.off('request', onRequest)
  t.same(asked, [], 'no request from the page: the host pushed it')

  const shown = await phone.$eval(card, (li) => ({
    profile: li.querySelector('.profile')?.textContent,
    reason: li.querySelector('.reason')?.textContent,
    instructions: li.querySelector('.instructions')?.textContent,
    bold: li.querySelector('.instructions b') !== null,
    page: li.querySelector('.page')?.textContent,
    times: li.querySelector('.times')?.textContent,
    button: li.querySelector('button')?.textContent,
    width: li.getBoundingClientRect().width
  }))
  t.match(shown, { profile: 'default', reason: 'challenge', instructions: INSTRUCTIONS, bold: false, page: `Just a moment... — ${site.url}`, times: /waiting \d+s · \d+m \d\ds left/, button: 'Take it' })
  t.ok(shown.width <= PHONE.width, 'fits the phone')
  t.notOk(await phone.evaluate(() => document.body.innerHTML.includes('/takeover/')), 'no panel link on the inbox')

  // Take it: straight into the panel, in control.
  await Promise.all([phone.waitForNavigation({ timeout: 30_000 }), phone.tap(`${card} .afhttp-inbox-take`)])
  t.equal(new URL(phone.url()).pathname, '/panel/', 'the panel opened')
  await waitForFrames(phone)
  await waitForControl(phone)
  t.equal(host.app.handoffs.summary(fetched.tab_id).controller, 'human')

  // The desktop inbox says someone is in it, and offers only a view link.
  const deskCard = `.afhttp-inbox-item[data-tab-id="${fetched.tab_id}"]`
  await desk.waitForFunction((sel: string) => document.querySelector(`${sel} .afhttp-inbox-watch`) !== null, { timeout: 20_000 }, deskCard)
  t.match(await desk.$eval(`${deskCard} .busy`, (el) => el.textContent), /Someone is working on it now/)

  // The person works the page through the panel: a tap on Continue gets through the check.
  const tab = host.app.tabs.get(fetched.tab_id)
  const go = await tab.page.$eval('#go', (el) => { const r = el.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 } })
  const at = await clientPointOf(phone, go.x, go.y)
  await phone.touchscreen.tap(at.x, at.y)
  await tab.page.waitForFunction(() => location.pathname === '/welcome', { timeout: 15_000 })
  const ended = Date.now() + 10_000
  while (host.app.handoffs.summary(fetched.tab_id).state !== 'finished' && Date.now() < ended) await new Promise((resolve) => setTimeout(resolve, 100))
  if (host.app.handoffs.summary(fetched.tab_id).state !== 'finished') await phone.tap('#afhttp-done')
  const finishedAs = await (async () => {
    const stop = Date.now() + 10_000
    while (Date.now() < stop) {
      const s = host.app.handoffs.summary(fetched.tab_id)
      if (s.state === 'finished') return s.finish_reason
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    return undefined
  })()
  t.ok(finishedAs === 'auto_detected' || finishedAs === 'human_done', `the handoff finished (${finishedAs})`)

  // The desktop inbox moved it to "Just ended" by itself; the phone's inbox shows it too.
  const endedCard = `.afhttp-inbox-ended-item[data-tab-id="${fetched.tab_id}"]`
  await desk.waitForSelector(endedCard, { timeout: 20_000 })
  t.equal(await desk.$(deskCard), null, 'no longer open on the desktop inbox')
  await phone.goto(`${host.url}/inbox/`)
  await phone.waitForSelector(endedCard, { timeout: 15_000 })
  t.match(await phone.$eval(endedCard, (li) => ({ state: (li as HTMLElement).dataset.state, text: li.textContent })), { state: 'finished', text: /finished/ })
  t.ok(await phone.$eval('#afhttp-inbox-empty', (el) => !(el as HTMLElement).hidden), 'nothing left to do')

  // The driver's re-fetch of the same tab gets the content the person reached.
  const again = await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ tab_id: fetched.tab_id, takeover: true }) })).json() as any
  t.equal(again.ok, true, 'the driver gets its page')
})
