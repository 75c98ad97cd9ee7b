// What GET /capabilities advertises is what the host enforces (issue 9): the numbers are read
// from a live /capabilities, then proved on the same live host at the limit and one past it.
import t from 'tap'
import WebSocket from 'ws'
import { startHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { clientPointOf, launchViewerBrowser, onHost, openViewer, waitForControl, waitForFrames } from '../helpers/panel-browser.js'
import { PUBLIC_LIMITS } from '../../src/limits.js'
import { leaseCookieOf, openLink } from '../helpers/open-link.js'
import { openSocketRetrying } from '../helpers/retry-503.js'

const FORM = `<!doctype html><title>Sign in required</title><body style="margin:0;font:16px sans-serif">
<p>Sign in to see this page.</p><input id="key" style="position:absolute;left:20px;top:80px;width:300px"></body>`

/** Waits for what the test can observe (never a fixed sleep). */
async function until (cond: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`condition not reached in time: ${cond.toString().slice(0, 120)}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

interface Limits { paste_chars_max: number, ws_message_bytes_max: number, body_bytes_max: number, timeout_ms_max: number, decline_note_chars_max: number, instructions_chars_max: number }

t.test('the advertised limits hold on a live host', async (t) => {
  const host = await startHost(t)
  const site = await startFixtureServer(t, { '/form': { status: 403, body: FORM } })
  const caps = await (await host.api('/capabilities')).json() as { limits: Limits & Record<string, unknown> }
  const limits = caps.limits
  t.match(limits, PUBLIC_LIMITS, '/capabilities advertises the limits module')
  t.equal(limits.paste_chars_max, 16 * 1024, 'a 16 Ki-character paste is the advertised bound')

  t.test('request bodies and fetch timeouts', async (t) => {
    const post = (body: string): Promise<Response> => host.api('/v1/fetch', { method: 'POST', body, headers: { 'content-type': 'application/json' } })
    // Padded JSON of an exact byte size: the pad is an unknown field, so a body that gets
    // through the size limit is refused by the schema instead (400, not 413).
    const sized = (bytes: number): string => {
      const head = '{"pad":"'
      return head + 'x'.repeat(bytes - head.length - 2) + '"}'
    }
    const atLimit = await post(sized(limits.body_bytes_max))
    t.equal(atLimit.status, 400, `a body of body_bytes_max (${limits.body_bytes_max}) bytes is read`)
    const over = await post(sized(limits.body_bytes_max + 1))
    t.equal(over.status, 413, 'one byte more is refused unread')
    t.equal((await over.json() as { error: { code: string } }).error.code, 'payload_too_large')
    const slow = await post(JSON.stringify({ url: `${site.url}/form`, timeout_ms: limits.timeout_ms_max + 1 }))
    t.equal(slow.status, 400, 'a timeout above timeout_ms_max is refused')
    const words = await post(JSON.stringify({ url: `${site.url}/form`, instructions: 'w'.repeat(limits.instructions_chars_max + 1) }))
    t.equal(words.status, 400, 'instructions above instructions_chars_max are refused')
  })

  t.test('pastes and messages on the panel WebSocket', async (t) => {
    const fetched = await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/form`, takeover: true }) })).json() as any
    const tabId: string = fetched.tab_id
    const exchanged = await openLink(onHost(host, fetched.actions[0].takeover_url_secret))
    t.equal(exchanged.status, 303)
    const cookie = leaseCookieOf(exchanged)
    const page = host.app.tabs.get(tabId).page
    await page.focus('#key')
    const value = (): Promise<string> => page.$eval('#key', (el) => (el as HTMLInputElement).value)

    const messages: Array<Record<string, any>> = []
    let closed!: Promise<number>
    const ws = await openSocketRetrying(`${host.url.replace('http', 'ws')}/panel/ws?tab=${encodeURIComponent(tabId)}`, { cookie, origin: host.url }, (ws) => {
      closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)))
      ws.on('message', (data, isBinary) => { if (!isBinary) messages.push(JSON.parse(data.toString())) })
    })
    await until(() => messages.some((m) => m.t === 'state' && m.you_control === true))
    const g = messages.findLast((m) => m.t === 'state')!.generation as number
    const errors = (): string[] => messages.filter((m) => m.t === 'error').map((m) => m.message as string)

    ws.send(JSON.stringify({ t: 'paste', g, text: 'k'.repeat(limits.paste_chars_max) }))
    await until(async () => (await value()).length === limits.paste_chars_max)
    t.pass(`a paste of paste_chars_max (${limits.paste_chars_max}) characters reaches the page whole`)

    ws.send(JSON.stringify({ t: 'paste', g, text: 'k'.repeat(limits.paste_chars_max + 1) }))
    await until(() => errors().some((e) => e.includes(`limit is ${limits.paste_chars_max}`)))
    t.equal((await value()).length, limits.paste_chars_max, 'one character more is refused, not cut short: nothing more was typed')

    // Characters are code points, and the message limit holds a whole paste of the widest ones:
    // an emoji is 4 bytes of UTF-8 and two UTF-16 units.
    await page.$eval('#key', (el) => { (el as HTMLInputElement).value = '' })
    const wide = '\u{1F511}'.repeat(limits.paste_chars_max)
    t.ok(Buffer.byteLength(JSON.stringify({ t: 'paste', g, text: wide })) > 64 * 1024, 'a paste of paste_chars_max emoji is over 64 KiB of JSON')
    ws.send(JSON.stringify({ t: 'paste', g, text: wide }))
    await until(async () => [...await value()].length === limits.paste_chars_max)
    t.equal(await value(), wide, `a paste of paste_chars_max (${limits.paste_chars_max}) emoji reaches the page whole`)

    ws.send(JSON.stringify({ t: 'decline', reason: 'r'.repeat(limits.decline_note_chars_max + 1) }))
    await until(() => errors().some((e) => e.includes(`the limit is ${limits.decline_note_chars_max}`)))
    t.pass('a decline reason above decline_note_chars_max is refused (and the handoff stays open)')

    // Exactly ws_message_bytes_max bytes of valid JSON is read (a release answers with state);
    // one byte more closes the socket with 1009 "message too big".
    const exact = (bytes: number, msg: Record<string, unknown>): string => {
      const json = JSON.stringify({ ...msg, pad: '' })
      return json.slice(0, -2) + 'p'.repeat(bytes - json.length) + '"}'
    }
    const states = messages.filter((m) => m.t === 'state').length
    const big = exact(limits.ws_message_bytes_max, { t: 'release' })
    t.equal(Buffer.byteLength(big), limits.ws_message_bytes_max)
    ws.send(big)
    await until(() => messages.filter((m) => m.t === 'state').length > states && messages.at(-1)?.you_control === false)
    t.equal(ws.readyState, WebSocket.OPEN, `a message of ws_message_bytes_max (${limits.ws_message_bytes_max}) bytes is read`)
    ws.send(exact(limits.ws_message_bytes_max + 1, { t: 'take' }))
    t.equal(await closed, 1009, 'one byte more closes the socket with 1009')
  })

  t.test('the panel page refuses the paste the host would refuse, and sends the one it takes', async (t) => {
    const fetched = await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/form`, takeover: true }) })).json() as any
    const page = host.app.tabs.get(fetched.tab_id).page
    const value = (): Promise<string> => page.$eval('#key', (el) => (el as HTMLInputElement).value)
    const browser = await launchViewerBrowser(t)
    const { page: panel } = await openViewer(browser, host)
    await panel.goto(onHost(host, fetched.actions[0].takeover_url_secret))
    await waitForFrames(panel)
    await waitForControl(panel)
    const box = await page.$eval('#key', (el) => { const r = el.getBoundingClientRect(); return { x: r.x + 20, y: r.y + r.height / 2 } })
    const at = await clientPointOf(panel, box.x, box.y)
    await panel.mouse.click(at.x, at.y)
    await page.waitForFunction(() => document.activeElement?.id === 'key', { polling: 50 })
    const paste = async (text: string): Promise<void> => {
      await panel.evaluate((s: string) => navigator.clipboard.writeText(s), text)
      await panel.keyboard.down('Control')
      await panel.keyboard.press('KeyV')
      await panel.keyboard.up('Control')
    }
    await paste('k'.repeat(limits.paste_chars_max + 1))
    await panel.waitForFunction((n: number) => document.querySelector('#afhttp-note')?.textContent?.includes(`the limit is ${n}`), { timeout: 20_000 }, limits.paste_chars_max)
    t.equal(await value(), '', 'one character over paste_chars_max: the panel says why and sends nothing')
    await paste('k'.repeat(limits.paste_chars_max))
    await page.waitForFunction((n: number) => (document.querySelector('#key') as HTMLInputElement).value.length === n, { timeout: 10_000, polling: 50 }, limits.paste_chars_max)
    t.pass('paste_chars_max characters: sent and typed whole')
  })
})
