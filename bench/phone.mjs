// The phone viewer of the panel benchmark: a mobile-emulated headless Chromium (390×844,
// device scale 3, touch) watching the animated tab, measured at zoom 1 and after a pinch
// to zoom 3 made of real touch events (CDP Input.dispatchTouchEvent, as a phone sends them).
import { round, sleep } from './stats.mjs'

export const PHONE_VIEWPORT = { width: 390, height: 844, deviceScaleFactor: 3, isMobile: true, hasTouch: true }

/** Records the pixel size of every frame the panel draws (frames may be smaller than the page). */
export function watchFrameSizes () {
  window.frameSizes = { n: 0, width: 0, height: 0 }
  const previous = window.afhttpOnFrame
  window.afhttpOnFrame = (f) => {
    window.frameSizes = { n: window.frameSizes.n + 1, width: f.bitmap.width, height: f.bitmap.height }
    if (typeof previous === 'function') previous(f)
  }
}

/** Two fingers spread around the middle of the view until the panel says it is at `zoom`. */
async function pinchTo (page, zoom) {
  const box = await page.$eval('#afhttp-view', (el) => { const r = el.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 } })
  const cdp = await page.createCDPSession()
  const touch = (type, halves) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: halves.map((h, id) => ({ x: box.x + h, y: box.y, id })) })
  const start = 20
  await touch('touchStart', [-start, start])
  for (let i = 1; i <= 10; i++) {
    const half = start * (1 + (zoom - 1) * i / 10)
    await touch('touchMove', [-half, half])
  }
  await touch('touchEnd', [])
  await cdp.detach()
  await page.waitForFunction((z) => Math.abs(window.afhttpPanelStats.zoom - z) < 0.05, { timeout: 5_000 }, zoom)
}

/**
 * Frames per second and bytes per frame for one phone viewer at zoom 1 and zoom 3, with the
 * frame size it received and the stream size the host asked of Chromium at each zoom.
 */
export async function measurePhone ({ host, tab, openPanel, panelRate, roots, viewer }) {
  const phone = await openPanel(viewer, host, tab, PHONE_VIEWPORT)
  await phone.page.evaluate(watchFrameSizes)
  const at = async (zoom) => {
    if (zoom !== 1) await pinchTo(phone.page, zoom)
    // The panel tells the host its new size 150 ms after the fingers settle; the host restarts
    // the stream after its own debounce. Measure the stream that follows.
    await sleep(800)
    const stillsBefore = await phone.page.evaluate(stillStats)
    const rate = await panelRate(tab, [phone.page], roots)
    const stillsAfter = await phone.page.evaluate(stillStats)
    const frame = await phone.page.evaluate(() => window.frameSizes)
    const zoomed = await phone.page.evaluate(() => window.afhttpPanelStats.zoom)
    // Phone pixels per frame pixel across the picture: above 1 the phone upscales (less sharp).
    const upscale = await phone.page.evaluate((w) => {
      const canvas = document.querySelector('#afhttp-view canvas').getBoundingClientRect()
      return canvas.width * window.devicePixelRatio / w
    }, frame.width)
    return { zoom: round(zoomed, 2), ...rate.viewers[0], cores: rate.cores, page_fps: rate.page_fps, frame: `${frame.width}×${frame.height}`, upscale: round(upscale, 2), stream: streamSize(host, tab), stills: stillsDuring(stillsBefore, stillsAfter) }
  }
  const out = { z1: await at(1), z3: await at(3) }
  await phone.context.close()
  return out
}

/** The panel's counters of sharp stills (docs/panel.md "Sharp when zoomed"). */
function stillStats () {
  const s = window.afhttpPanelStats
  return { drawn: s.stills_drawn, dropped: s.stills_dropped, bytes: s.still_bytes, still: s.still ?? null }
}

function stillsDuring (a, b) {
  const drawn = b.drawn - a.drawn
  const dropped = b.dropped - a.dropped
  const received = drawn + dropped
  if (received === 0 && !b.still) return 'none'
  const kb = received ? `${round((b.bytes - a.bytes) / received / 1024, 1)} KB each` : 'none received in the window'
  const density = b.still ? `, last ${b.still.width}×${b.still.height} CSS px at ${round(b.still.imageWidth / b.still.width, 2)}×` : ''
  return `${drawn} drawn / ${dropped} dropped, ${kb}${density}`
}

function streamSize (host, tab) {
  const s = host.app.panel.streamer(tab).running
  if (!s) return 'n/a'
  const clip = s.clip ? ` of ${s.clip.width}×${s.clip.height} CSS px at ${s.clip.x},${s.clip.y}` : ''
  return `${s.maxWidth}×${s.maxHeight}${clip}`
}

export function phoneReport (r) {
  const p = r.phone
  const row = (z) => `| ${z.zoom} | ${z.received_fps} received / ${z.drawn_fps} drawn (${z.page_fps}) | ${z.kb_per_frame} KB | ${z.frame} | ${z.upscale} | ${z.stills} | ${z.stream} | ${z.cores.host_node} / ${z.cores.host_chromium} / ${z.cores.viewer_chromium} |`
  return [
    `### ${r.mode}, phone viewer (390×844, DPR 3, touch)`,
    '',
    `Run ${r.when} on ${r.cpus} × ${r.cpu_model}; load average ${r.load.before.join(' ')} before, ${r.load.after.join(' ')} after.`,
    '',
    '| zoom | frames per second (page\'s own rate) | bytes per frame | frame pixels received | phone pixels per frame pixel | sharp stills in the window | stream size asked of Chromium | cores: host Node / host Chromium / viewer Chromium |',
    '|---|---|---|---|---|---|---|---|',
    row(p.z1),
    row(p.z3)
  ].join('\n')
}
