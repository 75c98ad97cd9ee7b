#!/usr/bin/env node
// The floor under any pooled host (issue 13's targets): raw puppeteer's ordinary flow against the
// same flow on pages opened before the clock starts and closed without waiting for the close (as
// the host closes a fetch's window after its answer), with no HTTP, no inspection and no
// bookkeeping, in the browser launch the host uses. A host does all of that and more, so the
// pooled ratios to raw puppeteer are the best a host could reach here with the same pause.
// Pages ready: windows (what docs/spec.md section 14 gives each fetch), or background tabs made shown by
// DevTools focus emulation (the cheapest page that is still visible; see bench/visibility.mjs).
// A fetch that finds no page ready opens one, as the host's pool does.
// Nothing leaves 127.0.0.1. Run: npm run bench:floor
// Knobs: BENCH_N (paused fetches, 20), BENCH_READY (pages ready, 8), BENCH_DRIVERS (8),
// BENCH_PER_DRIVER (4), BENCH_GAP_MS (250), BENCH_MODES (headful,headless).
import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { ownBrowser } from './own-browser.mjs'
import { ARTICLE as PAGE, serveHtml } from './article-site.mjs'
import { percentile, sleep } from './stats.mjs'

const N = Number(process.env.BENCH_N ?? 20)
const READY = Number(process.env.BENCH_READY ?? 8)
const DRIVERS = Number(process.env.BENCH_DRIVERS ?? 8)
const PER_DRIVER = Number(process.env.BENCH_PER_DRIVER ?? 4)
const GAP_MS = Number(process.env.BENCH_GAP_MS ?? 250)
const MODES = (process.env.BENCH_MODES ?? 'headful,headless').split(',').map((m) => m.trim()).filter(Boolean)
const CHROMIUM = process.env.AFHTTP_CHROMIUM ?? '/usr/bin/chromium'

const site = await serveHtml(PAGE)
const url = site.url
const p50 = (xs) => percentile(xs, 50)

async function capture (page) {
  await page.goto(url, { waitUntil: 'load' })
  await page.content()
  await page.evaluate(() => document.body.innerText)
}

const opens = {
  window: (browser) => browser.newPage({ type: 'window', background: true }),
  'focused tab': async (browser) => {
    const page = await browser.newPage({ background: true })
    const session = await page.createCDPSession()
    await session.send('Emulation.setFocusEmulationEnabled', { enabled: true })
    return page
  }
}

/** One way of fetching: `prepare` runs before each timed part (untimed), `one` is timed. */
function ways (browser) {
  const list = [{ name: 'raw puppeteer newPage()', prepare: async () => {}, one: async () => { const page = await browser.newPage(); await capture(page); await page.close() } }]
  for (const [kind, open] of Object.entries(opens)) {
    const ready = []
    list.push({
      name: `${kind}s, ${READY} ready`,
      prepare: async () => { while (ready.length < READY) ready.push(await open(browser)) },
      // The pages left ready must not load the browser while the next way is measured.
      done: () => Promise.all(ready.splice(0).map((page) => page.close())),
      one: async () => {
        const page = ready.shift() ?? await open(browser)
        await capture(page)
        page.close().catch(() => undefined)
      }
    })
  }
  return list
}

console.log(`floor under a pooled host: ${DRIVERS} drivers × ${PER_DRIVER} fetches, and ${N} fetches ${GAP_MS} ms apart; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
for (const mode of MODES) {
  const dir = await mkdtemp(join(tmpdir(), 'bench-floor-'))
  const own = await ownBrowser({ mode, dir, chromiumPath: CHROMIUM })
  const { browser } = own
  let raw
  for (const way of ways(browser)) {
    await way.prepare()
    await sleep(500)
    const t0 = performance.now()
    await Promise.all(Array.from({ length: DRIVERS }, async () => { for (let i = 0; i < PER_DRIVER; i++) await way.one() }))
    const wall = performance.now() - t0
    const times = []
    for (let i = 0; i < N; i++) {
      await way.prepare()
      await sleep(GAP_MS)
      const t1 = performance.now()
      await way.one()
      times.push(performance.now() - t1)
    }
    await way.done?.()
    raw ??= { wall, p50: p50(times) }
    const ratio = (a, b) => `${(a / b).toFixed(2)}×`
    console.log(`${mode}: ${way.name}: 8-way wall ${Math.round(wall)} ms (${ratio(wall, raw.wall)}), paused p50 ${Math.round(p50(times))} ms (${ratio(p50(times), raw.p50)})`)
  }
  await own.stop()
  await rm(dir, { recursive: true, force: true })
}
site.close()
