#!/usr/bin/env node
/* global scrollTo */
// A measurement behind a decision (docs/decisions.md, "The stream follows what is shown"):
// does CDP Emulation.setDeviceMetricsOverride's `viewport` (a clip of the page drawn at a
// scale, documented as "not observed by the page") change anything a page can observe, and
// what does the screencast then deliver? Run in both browser modes:
//
//   node bench/viewport-probe.mjs            headless, then headful on an Xvfb of its own
import { spawn } from 'node:child_process'
import { createServer } from 'node:http'
import puppeteer from 'puppeteer-core'
import { sleep } from './stats.mjs'

const PAGE = `<!doctype html><title>probe</title>
<body style="margin:0;height:3000px;background:linear-gradient(#fff,#00f)">
<div id="fixed" style="position:fixed;right:0;bottom:0;width:50px;height:50px;background:red"></div>
<script>
window.events = { resize: 0, vvresize: 0, vvscroll: 0, scroll: 0, mql: 0 }
addEventListener('resize', () => events.resize++)
visualViewport.addEventListener('resize', () => events.vvresize++)
visualViewport.addEventListener('scroll', () => events.vvscroll++)
addEventListener('scroll', () => events.scroll++)
const mq = matchMedia('(max-width: 1000px)'); mq.addEventListener('change', () => events.mql++)
window.seen = () => {
  const v = visualViewport
  const r = document.getElementById('fixed').getBoundingClientRect()
  return {
    inner: [innerWidth, innerHeight], outer: [outerWidth, outerHeight], screen: [screen.width, screen.height, screen.availWidth, screen.availHeight],
    dpr: devicePixelRatio, vv: [v.width, v.height, v.scale, v.offsetLeft, v.offsetTop, v.pageLeft, v.pageTop],
    scroll: [scrollX, scrollY], client: [document.documentElement.clientWidth, document.documentElement.clientHeight],
    fixed: [r.x, r.y], mq: [matchMedia('(max-width: 1000px)').matches, matchMedia('(hover: hover)').matches, matchMedia('(pointer: fine)').matches],
    events: { ...events }
  }
}
addEventListener('mousedown', (e) => { window.down = [e.clientX, e.clientY] })
</script>`

async function probe (headless, env, variant) {
  const server = createServer((_, res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end(PAGE) })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const browser = await puppeteer.launch({
    executablePath: '/usr/bin/chromium',
    headless,
    env,
    defaultViewport: null,
    ignoreDefaultArgs: headless ? [] : ['--enable-automation'],
    args: ['--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu', '--window-size=1280,800', ...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])]
  })
  try {
    const [page] = await browser.pages()
    await page.goto(`http://127.0.0.1:${server.address().port}/`)
    await page.evaluate(() => scrollTo(0, 400))
    const cdp = await page.createCDPSession()
    const frames = []
    cdp.on('Page.screencastFrame', (ev) => {
      frames.push({ bytes: Math.round(ev.data.length * 3 / 4), meta: ev.metadata, size: jpegSize(Buffer.from(ev.data, 'base64')) })
      cdp.send('Page.screencastFrameAck', { sessionId: ev.sessionId }).catch(() => {})
    })
    await cdp.send('Page.startScreencast', { format: 'jpeg', quality: 60, maxWidth: 1170, maxHeight: 1800 })
    await sleep(500)
    const before = await page.evaluate(() => window.seen())
    const frameBefore = frames.at(-1)
    // The shown third of the page at 3× its CSS size: x 400, y 100 (viewport), 427×240 CSS px.
    const clip = { x: 400, y: 100 + before.scroll[1], width: 427, height: 240, scale: 2.74 }
    // Keep the page's own size (0 × 0 would make the clip's drawn size the page's new size).
    const size = variant === 'zero' ? { width: 0, height: 0 } : { width: before.inner[0], height: before.inner[1] }
    let shot
    if (variant === 'screenshot') {
      // The other way to draw a clip at a scale: one screenshot (not a stream) of the shown area.
      shot = jpegSize(Buffer.from((await cdp.send('Page.captureScreenshot', { format: 'jpeg', quality: 60, clip })).data, 'base64'))
    } else await cdp.send('Emulation.setDeviceMetricsOverride', { ...size, deviceScaleFactor: 0, mobile: false, viewport: clip })
    await page.evaluate(() => document.body.style.setProperty('--tick', String(Math.random())))
    await sleep(800)
    const during = await page.evaluate(() => window.seen())
    const frameDuring = frames.at(-1)
    // Where does a dispatched press land while the clip is on: page viewport CSS px, or clip px?
    await cdp.send('Input.dispatchMouseEvent', { type: 'mousePressed', x: 500, y: 150, button: 'left', clickCount: 1 })
    await cdp.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x: 500, y: 150, button: 'left', clickCount: 1 })
    const down = await page.evaluate(() => window.down)
    await cdp.send('Emulation.clearDeviceMetricsOverride')
    await sleep(500)
    const after = await page.evaluate(() => window.seen())
    await cdp.send('Page.stopScreencast')
    return { before, during, after, frameBefore, frameDuring, down, shot }
  } finally {
    await browser.close()
    server.close()
  }
}

/** Width × height from a JPEG's SOF marker. */
function jpegSize (b) {
  for (let i = 2; i < b.length - 9;) {
    if (b[i] !== 0xff) { i++; continue }
    const m = b[i + 1]
    if (m >= 0xc0 && m <= 0xc3) return `${b.readUInt16BE(i + 7)}×${b.readUInt16BE(i + 5)}`
    i += 2 + b.readUInt16BE(i + 2)
  }
  return '?'
}

function diff (a, b) {
  const out = {}
  for (const k of Object.keys(a)) if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) out[k] = [a[k], b[k]]
  return out
}

async function run (mode) {
  let xvfb
  let env = process.env
  if (mode === 'headful') {
    const display = ':' + (90 + Math.floor(Math.random() * 9))
    xvfb = spawn('Xvfb', [display, '-screen', '0', '1920x1080x24', '-nolisten', 'tcp'], { stdio: 'ignore' })
    await sleep(700)
    env = { ...process.env, DISPLAY: display }
  }
  try {
  for (const variant of ['zero', 'same', 'screenshot']) {
    const r = await probe(mode === 'headless', env, variant)
    console.log(`## ${mode}, ${{ zero: 'viewport override, size 0×0', same: 'viewport override, the page\'s own size', screenshot: 'captureScreenshot with the clip' }[variant]}`)
    if (r.shot) console.log('screenshot of the clip:', r.shot)
    console.log('what the page saw change while the clip was on:', JSON.stringify(diff(r.before, r.during)))
    console.log('…and after it was cleared:', JSON.stringify(diff(r.before, r.after)))
    console.log('frame before:', r.frameBefore?.size, r.frameBefore?.bytes, 'B', JSON.stringify(r.frameBefore?.meta))
    console.log('frame during:', r.frameDuring?.size, r.frameDuring?.bytes, 'B', JSON.stringify(r.frameDuring?.meta))
    console.log('press dispatched at 500,150 arrived at', JSON.stringify(r.down))
  }
  } finally {
    xvfb?.kill()
  }
}

for (const mode of (process.argv[2] ?? 'headless,headful').split(',')) await run(mode)
