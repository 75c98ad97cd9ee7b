// The panel's aim (docs/spec.md section 10 "Aim") over a page whose whole view is one frame: a
// challenge widget seen in that frame is aimed at where it shows in the view, measured in a real
// Chromium. The pages are this test's own: what is measured is where an element sits, not what a
// site's page says.
import t from 'tap'
import { resolveAim } from '../../src/browser/aim.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { launchViewerBrowser } from '../helpers/panel-browser.js'

// A handoff's word that its challenge was seen in the frame that fills the view (its document's name).
const FRAMED = '1765000000000.5 http://localhost/check'
const INNER = '<!doctype html><html><body style="margin:0"><div id="widget" style="position:absolute;left:100px;top:50px;width:300px;height:80px"></div></body></html>'
// A frame at (20, 30) with a 10 px border and 5 px padding: its document starts at (35, 45).
const framing = (src: string, size: string): string =>
  `<!doctype html><html><body style="margin:0"><iframe src="${src}" style="position:absolute;left:20px;top:30px;${size};border:10px solid #888;padding:5px"></iframe></body></html>`

t.test('a widget in the frame that fills the view is aimed at in the view, offset by where the frame shows its document', async (t) => {
  // Named localhost, the frame's document is another site than the page's on 127.0.0.1, as a
  // vendor's check is.
  const inner = await startFixtureServer(t, { '/check': { body: INNER } })
  const innerUrl = inner.url.replace('127.0.0.1', 'localhost')
  const framed = { 'content-security-policy': `default-src 'self' 'unsafe-inline'; frame-src ${innerUrl}` }
  const outer = await startFixtureServer(t, {
    '/fills': { body: framing(`${innerUrl}/check`, 'width:calc(100% - 50px);height:calc(100% - 60px)'), headers: framed },
    '/small': { body: framing(`${innerUrl}/check`, 'width:480px;height:200px'), headers: framed },
    '/top': { body: INNER }
  })
  const browser = await launchViewerBrowser(t)
  const page = await browser.newPage()
  await page.setViewport({ width: 800, height: 600 })

  await page.goto(`${outer.url}/fills`, { waitUntil: 'load' })
  t.same(await resolveAim(page, { widgetSelector: '#widget', gateFrame: FRAMED }), { kind: 'detected', selector: '#widget', rect: { x: 135, y: 95, width: 300, height: 80 } }, 'the widget, where the person sees it')
  t.same(await resolveAim(page, { widgetSelector: '#widget' }), { kind: 'viewport' }, 'a widget said to be in the top document is not looked for in a frame')
  t.same(await resolveAim(page, { widgetSelector: '#elsewhere', gateFrame: FRAMED }), { kind: 'viewport' }, 'a widget the frame does not show: the whole view')
  t.same(await resolveAim(page, { region: '#nothing', widgetSelector: '#widget', gateFrame: FRAMED }), { kind: 'detected', selector: '#widget', rect: { x: 135, y: 95, width: 300, height: 80 }, missed: true }, "a driver's region that matched nothing falls back to the widget in the frame")

  await page.goto(`${outer.url}/small`, { waitUntil: 'load' })
  t.same(await resolveAim(page, { widgetSelector: '#widget', gateFrame: FRAMED }), { kind: 'viewport' }, 'a small frame is not the page: nothing in it is aimed at')

  await page.goto(`${outer.url}/top`, { waitUntil: 'load' })
  t.same(await resolveAim(page, { widgetSelector: '#widget', gateFrame: FRAMED }), { kind: 'detected', selector: '#widget', rect: { x: 100, y: 50, width: 300, height: 80 } }, 'a handoff whose challenge was once in a frame still finds the widget in the top document')
})
