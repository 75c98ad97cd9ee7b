// The input relay's promises to the select answer (src/panel/page-ui-relay.ts): `delivered`
// resolves only once the page has handled every event sent so far, and `epoch` moves when control
// moves on and held input is dropped. Measured over a real CDP session to a real page in Chromium.
import t from 'tap'
import pino from 'pino'
import { InputRelay } from '../../src/panel/input-relay.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { launchViewerBrowser } from '../helpers/panel-browser.js'

// A page that writes down every key it is handed, and is slow to handle each: a busy renderer.
const PAGE = `<!doctype html><html><body><input id="box" autofocus><script>
  window.keys = []
  document.addEventListener('keydown', (e) => { const end = performance.now() + 40; while (performance.now() < end); window.keys.push(e.key) })
</script></body></html>`

t.test('delivered waits until the page has handled every key; dropping held input moves the epoch and drops it', async (t) => {
  const site = await startFixtureServer(t, { '/keys': { body: PAGE } })
  const browser = await launchViewerBrowser(t)
  const page = await browser.newPage()
  await page.goto(`${site.url}/keys`, { waitUntil: 'load' })
  await page.focus('#box')
  const session = await page.createCDPSession()
  // Chromium answers each Input.dispatchKeyEvent once the renderer has handled the event.
  let acknowledged = 0
  const relay = new InputRelay(session, { completionMoment: () => undefined, inputSent: () => undefined, inputDelivered: () => { acknowledged++ } }, pino({ level: 'silent' }))

  const sent = ['ArrowDown', 'ArrowDown', 'ArrowUp', 'Home', 'End', 'Escape']
  for (const key of sent) {
    relay.relay({ t: 'key', g: 0, type: 'down', key, mods: 0 }, true)
    relay.relay({ t: 'key', g: 0, type: 'up', key, mods: 0 }, true)
  }
  await relay.delivered()
  t.equal(acknowledged, sent.length * 2, 'Chromium had acknowledged every key event when delivered resolved (each took the page 40 ms)')
  t.same(await page.evaluate(() => (window as unknown as { keys: string[] }).keys), sent, 'the page handled them in order')

  // Input held for an answer, then control moves on: the held key never lands, the epoch moves.
  const before = relay.epoch
  let settle = (): void => undefined
  relay.holdUntil(new Promise<void>((resolve) => { settle = resolve }))
  relay.relay({ t: 'key', g: 0, type: 'down', key: 'Tab', mods: 0 })
  relay.relay({ t: 'key', g: 0, type: 'up', key: 'Tab', mods: 0 })
  relay.dropQueued()
  t.equal(relay.epoch, before + 1, 'the epoch moves when control moves on')
  settle()
  await new Promise((resolve) => setImmediate(resolve))
  await relay.delivered()
  t.same(await page.evaluate(() => (window as unknown as { keys: string[] }).keys), sent, 'the held key was dropped with control, not sent')
  t.equal(relay.dropped, 2, 'both held events are counted as dropped')
})
