#!/usr/bin/env node
// How long a new fetch window takes to settle: the same local page loaded in a window opened the
// way the pool opens one (background, headful, geometry waited for), after 0 to 800 ms. A fetch
// that takes a window opened in a short pause navigates in one that has not settled yet.
// Nothing leaves 127.0.0.1. Run after `npm run build`: node bench/window-settle.mjs
// Knobs: BENCH_ROUNDS (10), BENCH_WAITS (0,100,200,400,800).
import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { startBrowser } from '../dist/browser/backend.js'
import { startXvfb } from '../dist/browser/xvfb.js'
import { openWindow } from '../dist/browser/open-window.js'
import { ARTICLE as PAGE, serveHtml } from './article-site.mjs'
import { percentile, sleep } from './stats.mjs'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10)
const WAITS = (process.env.BENCH_WAITS ?? '0,100,200,400,800').split(',').map(Number)
const CHROMIUM = process.env.AFHTTP_CHROMIUM ?? '/usr/bin/chromium'

const site = await serveHtml(PAGE)
const url = site.url
const p50 = (xs) => percentile(xs, 50)

const dir = await mkdtemp(join(tmpdir(), 'bench-settle-'))
const xvfb = await startXvfb('Xvfb', process.env)
const { browser } = await startBrowser({ backend: 'chromium', chromiumPath: CHROMIUM, userDataDir: join(dir, 'browser'), mode: 'headful', display: xvfb.display })
console.log(`headful, ${ROUNDS} rounds; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
const gotos = new Map(WAITS.map((w) => [w, []]))
const opens = []
for (let round = 0; round < ROUNDS; round++) {
  for (const wait of WAITS) {
    const t0 = performance.now()
    const page = await openWindow(browser, true, true)
    opens.push(performance.now() - t0)
    await sleep(wait)
    const t1 = performance.now()
    await page.goto(url, { waitUntil: 'load' })
    gotos.get(wait).push(performance.now() - t1)
    await page.close()
    await sleep(300)
  }
}
console.log(`window open p50 ${Math.round(p50(opens))} ms`)
for (const [wait, times] of gotos) console.log(`goto ${wait} ms after the window opened: p50 ${Math.round(p50(times))} ms`)
await browser.close()
await xvfb.stop()
await rm(dir, { recursive: true, force: true })
site.close()
