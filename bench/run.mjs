#!/usr/bin/env node
/* global OffscreenCanvas */
// Panel benchmark (a measurement, not a test): frame rate through the panel against a raw
// CDP screencast of the same tab in the same run, one and two viewers; panel input → page
// event latency; click → the panel showing its effect; first frame after the exchange; a
// phone viewer (bench/phone.mjs) at zoom 1 and zoom 3.
//
//   npm run bench              print the results
//   npm run bench -- --write   also regenerate the results blocks of docs/performance.md
//   BENCH_ONLY=phone           only the phone viewer (its own block in docs/performance.md)
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import os from 'node:os'
import { join } from 'node:path'
import puppeteer from 'puppeteer-core'
import { buildApp } from '../dist/app.js'
import { loadConfig } from '../dist/config.js'
import { createLogger } from '../dist/logger.js'
import { FRAME_QUALITY } from '../dist/panel/panel-host.js'
import { TAKEOVER_RATE_LIMIT } from '../dist/routes/takeover.js'
import { ANIMATED, INPUT } from './pages.mjs'
import { round, sleep, summary } from './stats.mjs'
import { coresUsed, cpuTicks } from './cpu.mjs'
import { measurePhone, phoneReport } from './phone.mjs'

const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 5_000)
const CLICKS = Number(process.env.BENCH_CLICKS ?? 60)
const TRIALS = Number(process.env.BENCH_TRIALS ?? 10)
/** First frames over a phone's slow link: fewer trials, each takes a second or more. */
const SLOW_TRIALS = Math.max(1, Math.round(TRIALS / 2))
/** A phone on a slow mobile link, as the slow-viewer rows use it. */
const SLOW_LINK = { download: 2_000_000 / 8, upload: 1_000_000 / 8, latency: 150 }
const PHONE_ONLY = process.env.BENCH_ONLY === 'phone'
const TOKEN = 'bench-token-0123456789abcdef'
// The panel's header and footer take 82 px: this makes its view the page's 1280×720.
const PANEL_VIEWPORT = { width: 1280, height: 802, deviceScaleFactor: 1 }

async function startSite () {
  const pages = { '/animated': ANIMATED, '/input': INPUT }
  const server = createServer((req, res) => {
    res.writeHead(pages[req.url] ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' })
    res.end(pages[req.url] ?? 'not found')
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() }
}

async function startHost (mode) {
  const dir = await mkdtemp(join(os.tmpdir(), 'afhttp-bench-'))
  const config = loadConfig({ AFHTTP_PORT: '0', AFHTTP_PROFILES_DIR: dir, AFHTTP_TOKEN: TOKEN, AFHTTP_LOG_LEVEL: 'warn', PATH: process.env.PATH, AFHTTP_BROWSER_MODE: mode })
  const app = await buildApp(config, { token: TOKEN, logger: createLogger('warn') })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const url = `http://127.0.0.1:${app.server.address().port}`
  const api = async (path, body) => (await fetch(url + path, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) })).json()
  return { app, url, api, close: async () => { await app.close(); await rm(dir, { recursive: true, force: true }) } }
}

async function hostTab (host, url) {
  const tab = await host.app.tabs.open(host.app.config.defaultProfile)
  await tab.page.goto(url)
  return tab
}

/** When each panel link was opened: the bench stays inside /takeover's rate limit (per address, a minute). */
const linksOpened = []
async function underRateLimit () {
  for (;;) {
    while (linksOpened.length > 0 && performance.now() - linksOpened[0] > 60_000) linksOpened.shift()
    if (linksOpened.length < TAKEOVER_RATE_LIMIT - 2) break
    await sleep(60_000 - (performance.now() - linksOpened[0]) + 50)
  }
  linksOpened.push(performance.now())
}

/** A person opening a fresh panel link in a fresh browser profile (cold cache, own cookie). */
async function openPanel (viewer, host, tab, viewport = PANEL_VIEWPORT, { withoutFirstScript = false, link } = {}) {
  let minted = await host.api(`/v1/tabs/${tab.id}/handoff`)
  // A loaded machine can fail a live check for a moment (retryable): mint again, as a driver would.
  for (let i = 0; i < 5 && !minted.takeover_url_secret; i++) { await sleep(2_000); minted = await host.api(`/v1/tabs/${tab.id}/handoff`) }
  const url = host.url + new URL(minted.takeover_url_secret).pathname
  const context = await viewer.createBrowserContext()
  const page = await context.newPage()
  await page.setViewport(viewport)
  if (link) await page.emulateNetworkConditions(link)
  if (withoutFirstScript) {
    // As the panel loaded before the document's first script opened the socket: the bundle opens
    // it. Blocked by URL, which, unlike request interception, adds nothing to the other requests.
    const cdp = await page.createCDPSession()
    await cdp.send('Network.enable')
    await cdp.send('Network.setBlockedURLs', { urls: ['*/panel/lib/early.js'] })
  }
  // Once switched on, watches the pixel under the benchmark's pointer in every frame drawn.
  await page.evaluateOnNewDocument(() => {
    // The person's own press, as the viewer's browser stamped it (before any panel code ran).
    window.pressedAt = []
    window.addEventListener('pointerdown', (e) => { window.pressedAt.push(performance.timeOrigin + e.timeStamp) }, true)
    window.flips = []
    window.flipWatch = false
    window.flipSeen = false
    const probe = new OffscreenCanvas(1, 1).getContext('2d', { willReadFrequently: true })
    let dark = null
    // How old each frame is when drawn (host and viewer share this machine's clock).
    window.ages = []
    window.afhttpOnFrame = ({ bitmap, drawnAt, header }) => {
      window.ages.push(drawnAt - header.receivedAt)
      if (!window.flipWatch) return
      probe.drawImage(bitmap, Math.floor(bitmap.width * 0.6), Math.floor(bitmap.height * 0.6), 1, 1, 0, 0, 1, 1)
      const isDark = probe.getImageData(0, 0, 1, 1).data[0] < 128
      if (dark !== null && isDark !== dark) window.flips.push(drawnAt)
      dark = isDark
      window.flipSeen = true
    }
  })
  await underRateLimit()
  const t0 = performance.timeOrigin + performance.now()
  await page.goto(url)
  await page.waitForFunction(() => window.afhttpPanelStats?.first_frame_at, { polling: 'raf' }).catch(async (err) => {
    // What the viewer knew when its first frame never came, for the run's log.
    const seen = await page.evaluate(() => ({ url: location.pathname, title: document.title, stats: window.afhttpPanelStats, overlay: document.getElementById('afhttp-overlay')?.textContent })).catch((e) => e.message)
    console.error('no first frame:', JSON.stringify(seen))
    throw err
  })
  const at = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0]
    const s = window.afhttpPanelStats
    return { exchanged: performance.timeOrigin + nav.redirectEnd, document: performance.timeOrigin + nav.responseEnd, script: s.script_at, wsOpen: s.ws_open_at, firstFrame: s.first_frame_at }
  })
  return { page, context, t0, at }
}

const rafs = (tab) => tab.page.evaluate(() => window.rafs ?? 0)
const stats = (page) => page.evaluate(() => ({ ...window.afhttpPanelStats }))

async function rawScreencast (tab, size) {
  const session = await tab.page.createCDPSession()
  let frames = 0
  session.on('Page.screencastFrame', (ev) => { frames++; session.send('Page.screencastFrameAck', { sessionId: ev.sessionId }).catch(() => {}) })
  await session.send('Page.bringToFront')
  await session.send('Page.startScreencast', { format: 'jpeg', quality: FRAME_QUALITY, maxWidth: size.width, maxHeight: size.height, everyNthFrame: 1 })
  await sleep(1_000)
  const [r0, t0] = [await rafs(tab), performance.now()]
  frames = 0
  await sleep(WINDOW_MS)
  const got = frames
  const [r1, dt] = [await rafs(tab), performance.now() - t0]
  await session.send('Page.stopScreencast')
  await session.detach()
  return { fps: round(got * 1000 / dt), page_fps: round((r1 - r0) * 1000 / dt) }
}

async function panelRate (tab, pages, roots) {
  await sleep(1_000)
  const before = await Promise.all(pages.map(stats))
  const [r0, t0, c0] = [await rafs(tab), performance.now(), cpuTicks(roots)]
  await sleep(WINDOW_MS)
  const after = await Promise.all(pages.map(stats))
  const [r1, dt, c1] = [await rafs(tab), performance.now() - t0, cpuTicks(roots)]
  return {
    cores: coresUsed(c0, c1, dt),
    page_fps: round((r1 - r0) * 1000 / dt),
    viewers: after.map((a, i) => ({
      received_fps: round((a.frames - before[i].frames) * 1000 / dt),
      drawn_fps: round((a.frames_drawn - before[i].frames_drawn) * 1000 / dt),
      kb_per_frame: round((a.bytes - before[i].bytes) / Math.max(1, a.frames - before[i].frames) / 1024)
    }))
  }
}

/** Panel press → page mousedown, and → the panel drawing the frame that shows it. */
async function clickLatency (panel, tab) {
  const spot = await panel.$eval('#afhttp-view', (el) => { const r = el.getBoundingClientRect(); return { x: r.x + r.width * 0.6, y: r.y + r.height * 0.6 } })
  // A first press gives the watch its starting colour.
  await panel.evaluate(() => { window.flipWatch = true })
  await panel.mouse.click(spot.x, spot.y)
  await panel.waitForFunction(() => window.flipSeen, { polling: 'raf', timeout: 5_000 })
  await sleep(600)
  const toPage = []
  const toPanel = []
  const person = []
  const inPanel = []
  for (let i = 0; i < CLICKS; i++) {
    const flips = await panel.evaluate(() => window.flips.length)
    await panel.mouse.move(spot.x + (i % 2) * 12, spot.y)
    await panel.mouse.down()
    const sent = (await stats(panel)).last_input_at
    await panel.mouse.up()
    await panel.waitForFunction((n) => window.flips.length > n, { polling: 'raf', timeout: 5_000 }, flips)
    const shown = await panel.evaluate(() => window.flips[window.flips.length - 1])
    const arrived = await tab.page.evaluate(() => window.downs[window.downs.length - 1])
    const pressed = await panel.evaluate(() => window.pressedAt[window.pressedAt.length - 1])
    toPage.push(arrived - sent)
    toPanel.push(shown - sent)
    // Person level (issue 22): the viewer's own pointerdown → the page's mousedown, and the part
    // of it spent in the viewer before the panel sent the press.
    person.push(arrived - pressed)
    inPanel.push(sent - pressed)
    await sleep(100)
  }
  return { toPage, toPanel, person, inPanel }
}

/** Panel text → page `input` event (printable keys travel as Input.insertText). */
async function keyLatency (panel, tab) {
  const field = await tab.page.$eval('#field', (el) => { const r = el.getBoundingClientRect(); return { x: r.x + 10, y: r.y + r.height / 2 } })
  const box = await panel.$eval('#afhttp-view canvas', (el) => { const r = el.getBoundingClientRect(); return { x: r.x, y: r.y, s: r.width / 1280 } })
  await panel.mouse.click(box.x + field.x * box.s, box.y + field.y * box.s)
  await tab.page.waitForFunction(() => document.activeElement?.id === 'field')
  const out = []
  for (let i = 0; i < 40; i++) {
    const n = await tab.page.evaluate(() => window.inputs.length)
    await panel.keyboard.sendCharacter(String.fromCharCode(97 + (i % 26)))
    const sent = (await stats(panel)).last_input_at
    await tab.page.waitForFunction((k) => window.inputs.length > k, { polling: 5 }, n)
    out.push(await tab.page.evaluate(() => window.inputs[window.inputs.length - 1]) - sent)
    await sleep(50)
  }
  return out
}

async function main (mode) {
  const load0 = os.loadavg()
  const site = await startSite()
  const host = await startHost(mode)
  const viewer = await puppeteer.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu', ...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])]
  })
  const results = { mode: host.app.browsers.mode, when: new Date().toISOString(), cpus: os.cpus().length, cpu_model: os.cpus()[0]?.model, window_ms: WINDOW_MS }
  try {
    // The host brings its browser up in the background: its pid is known once a tab is open.
    const animated = await hostTab(host, `${site.url}/animated`)
    const roots = {
      host_node: { pid: process.pid, deep: false },
      host_chromium: { pid: host.app.browsers.status(host.app.config.defaultProfile).pid, deep: true },
      viewer_chromium: { pid: viewer.process().pid, deep: true }
    }
    if (PHONE_ONLY) {
      results.phone = await measurePhone({ host, tab: animated, openPanel, panelRate, roots, viewer })
      results.load = { before: load0.map((l) => round(l, 2)), after: os.loadavg().map((l) => round(l, 2)) }
      return results
    }
    results.raw = await rawScreencast(animated, { width: 1280, height: 720 })
    const one = await openPanel(viewer, host, animated)
    results.one = await panelRate(animated, [one.page], roots)
    const two = await openPanel(viewer, host, animated)
    results.two = await panelRate(animated, [one.page, two.page], roots)
    results.stream_size = host.app.panel.streamer(animated).running
    // The second viewer on a slow phone link: the first must not notice.
    await two.page.emulateNetworkConditions(SLOW_LINK)
    // The host moves it to the lean stream once a measuring window shows its link is the limit.
    const streamer = host.app.panel.streamer(animated)
    const throttledAt = performance.now()
    while (streamer.tiers.lean === 0 && performance.now() - throttledAt < 15_000) await sleep(100)
    results.slow_moved_ms = streamer.tiers.lean > 0 ? round(performance.now() - throttledAt) : null
    const agesFrom = await two.page.evaluate(() => window.ages.length)
    results.slow = await panelRate(animated, [one.page, two.page], roots)
    results.slow_age = summary(await two.page.evaluate((n) => window.ages.slice(n), agesFrom))
    results.slow_tiers = streamer.tiers
    await one.context.close()
    await two.context.close()
    results.phone = await measurePhone({ host, tab: animated, openPanel, panelRate, roots, viewer })

    const input = await hostTab(host, `${site.url}/input`)
    const first = []
    // Each trial is paired with one whose first script the viewer blocks (the bundle opens the
    // socket, as before it existed), alternating so the machine's drift touches both alike.
    const late = []
    for (let i = 0; i < TRIALS; i++) {
      const l = await openPanel(viewer, host, input, PANEL_VIEWPORT, { withoutFirstScript: true })
      late.push(l.at.firstFrame - l.t0)
      await l.context.close(); await sleep(300)
      const p = await openPanel(viewer, host, input)
      // The socket opens from the document's first script while the bundle loads (docs/panel.md
      // "The first frame"): both phases are timed from the document, the frame from the later of them.
      first.push({ total: p.at.firstFrame - p.t0, exchange: p.at.exchanged - p.t0, document: p.at.document - p.at.exchanged, script: p.at.script - p.at.document, ws: p.at.wsOpen - p.at.document, frame: p.at.firstFrame - Math.max(p.at.wsOpen, p.at.script) })
      if (i < TRIALS - 1) { await p.context.close(); await sleep(300) } else results.panel = p
    }
    results.first_frame = Object.fromEntries(['total', 'exchange', 'document', 'script', 'ws', 'frame'].map((k) => [k, summary(first.map((f) => f[k]))]))
    results.first_frame_late_socket = summary(late)
    // The same pairs over a phone's slow link, where the socket's round trips and the bundle's
    // download are what the first script overlaps.
    const slowEarly = []
    const slowLate = []
    for (let i = 0; i < SLOW_TRIALS; i++) {
      for (const [withoutFirstScript, into] of [[true, slowLate], [false, slowEarly]]) {
        const p = await openPanel(viewer, host, input, PANEL_VIEWPORT, { withoutFirstScript, link: SLOW_LINK })
        into.push(p.at.firstFrame - p.t0)
        await p.context.close(); await sleep(300)
      }
    }
    results.first_frame_slow = { early: summary(slowEarly), late: summary(slowLate) }
    const panel = results.panel.page
    if (!(await stats(panel)).you_control) { await panel.click('#afhttp-control'); await panel.waitForFunction(() => window.afhttpPanelStats.you_control) }
    const clicks = await clickLatency(panel, input)
    results.click_to_page = summary(clicks.toPage)
    results.person_to_page = summary(clicks.person)
    results.person_in_panel = summary(clicks.inPanel)
    results.click_to_panel = summary(clicks.toPanel)
    results.text_to_page = summary(await keyLatency(panel, input))
    delete results.panel
  } finally {
    await viewer.close()
    await host.close()
    site.close()
  }
  results.load = { before: load0.map((l) => round(l, 2)), after: os.loadavg().map((l) => round(l, 2)) }
  return results
}

function report (r) {
  const v = (x) => `${x.received_fps} received / ${x.drawn_fps} drawn (${x.kb_per_frame} KB/frame)`
  const lat = (s) => `${s.p50} / ${s.p95} ms (max ${s.max}, n=${s.n})`
  const cores = (c) => `${c.host_node} / ${c.host_chromium} / ${c.viewer_chromium}`
  return [
    `### ${r.mode}`,
    '',
    `Run ${r.when} on ${r.cpus} × ${r.cpu_model}; load average ${r.load.before.join(' ')} before, ${r.load.after.join(' ')} after.`,
    '',
    '| measure | result | target |',
    '|---|---|---|',
    `| raw CDP screencast, 1280×720 q${FRAME_QUALITY} (page's own rate) | ${r.raw.fps} fps (${r.raw.page_fps}) | reference |`,
    `| panel, one viewer (page's own rate) | ${v(r.one.viewers[0])} (${r.one.page_fps}) | ≥ 55 fps |`,
    `| panel, two viewers: first | ${v(r.two.viewers[0])} | no loss vs one |`,
    `| panel, two viewers: second (page's own rate) | ${v(r.two.viewers[1])} (${r.two.page_fps}) | no loss vs one |`,
    `| panel, desktop viewer beside a 2 Mbit/s, 150 ms phone: desktop | ${v(r.slow.viewers[0])} | no loss vs one |`,
    `| … the slow phone (lean stream ${r.slow_tiers.leanSize ? `${r.slow_tiers.leanSize.maxWidth}×${r.slow_tiers.leanSize.maxHeight}` : 'not used'}, moved after ${r.slow_moved_ms ?? '–'} ms) | ${v(r.slow.viewers[1])} | ≥ 20 fps |`,
    `| … the slow phone's frames, age when drawn, p50 / p95 | ${lat(r.slow_age)} | |`,
    `| cores used, one viewer: host Node / host Chromium / viewer Chromium | ${cores(r.one.cores)} | |`,
    `| cores used, two viewers | ${cores(r.two.cores)} | |`,
    `| stream size asked of Chromium | ${r.stream_size ? `${r.stream_size.maxWidth}×${r.stream_size.maxHeight}` : 'n/a'} | |`,
    `| viewer's own \`pointerdown\` → page \`mousedown\` (person level), p50 / p95 | ${lat(r.person_to_page)} | ≤ 10 / ≤ 30 ms |`,
    `| … of which in the viewer before the panel sent it | ${lat(r.person_in_panel)} | |`,
    `| panel press sent → page \`mousedown\`, p50 / p95 | ${lat(r.click_to_page)} | ≤ 10 / ≤ 30 ms |`,
    `| panel text → page \`input\`, p50 / p95 | ${lat(r.text_to_page)} | ≤ 10 / ≤ 30 ms |`,
    `| panel press → panel showing its effect, p50 / p95 | ${lat(r.click_to_panel)} | ≤ 60 ms p50 |`,
    `| link opened → first frame drawn, p50 / p95 | ${lat(r.first_frame.total)} | ≤ 250 / ≤ 300 ms |`,
    `| … of which exchange (live checks, lease, redirect) | ${lat(r.first_frame.exchange)} | |`,
    `| … panel document | ${lat(r.first_frame.document)} | |`,
    `| … styles and the bundled script until it runs (from the document) | ${lat(r.first_frame.script)} | |`,
    `| … beside it, WebSocket opened by the first script (admission runs live checks; from the document) | ${lat(r.first_frame.ws)} | |`,
    `| … first frame drawn after both | ${lat(r.first_frame.frame)} | |`,
    `| link opened → first frame drawn, the socket opened by the bundle instead (first script blocked) | ${lat(r.first_frame_late_socket)} | reference |`,
    `| link opened → first frame drawn over 2 Mbit/s, 150 ms: socket from the first script | ${lat(r.first_frame_slow.early)} | |`,
    `| … the same link, socket from the bundle (first script blocked) | ${lat(r.first_frame_slow.late)} | reference |`
  ].join('\n')
}

// docs/spec.md section 13: the default is headful; headless is measured beside it in the same run.
const modes = (process.env.BENCH_MODES ?? 'headful,headless').split(',').map((m) => m.trim()).filter(Boolean)
const runs = []
for (const mode of modes) runs.push(await main(mode))
const blocks = { 'bench-phone': runs.map(phoneReport).join('\n\n') }
if (!PHONE_ONLY) blocks.bench = runs.map(report).join('\n\n')
console.log(Object.values(blocks).reverse().join('\n\n'))
if (process.argv.includes('--write')) {
  const file = new URL('../docs/performance.md', import.meta.url)
  let doc = await readFile(file, 'utf8')
  for (const [name, table] of Object.entries(blocks)) {
    doc = doc.replace(new RegExp(`<!-- ${name}:start -->[\\s\\S]*<!-- ${name}:end -->`), `<!-- ${name}:start -->\n${table}\n<!-- ${name}:end -->`)
  }
  await writeFile(file, doc)
  console.log('\nwrote docs/performance.md')
}
