#!/usr/bin/env node
// What the page itself saw in the 8-way burst of bench/fetch-overhead.mjs: raw puppeteer's
// concurrent `browser.newPage()` tabs against afhttp's fetch windows (docs/spec.md section 14), in the
// host's own browser mode. A page records, while it parses and at `load`, whether it is visible
// (a hidden page runs no animation frames and has its timers throttled). It is the other side of
// the speed ratio: the cheaper tab is a background tab for all but one concurrent fetch.
// A third way shows what tabs for plain fetches would look like at their best: background tabs
// with DevTools focus emulation, which makes every tab visible but cannot give a background tab
// its window's geometry (a page of a window has browser chrome above it: outerHeight > innerHeight).
// Nothing leaves 127.0.0.1. Run after `npm run build`: node bench/visibility.mjs
// Knobs: BENCH_DRIVERS (8), BENCH_PER_DRIVER (4), BENCH_MODES (headful,headless).
import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../dist/app.js'
import { loadConfig } from '../dist/config.js'
import { createLogger } from '../dist/logger.js'
import { ownBrowser } from './own-browser.mjs'
import { serveHtml } from './article-site.mjs'

const DRIVERS = Number(process.env.BENCH_DRIVERS ?? 8)
const PER_DRIVER = Number(process.env.BENCH_PER_DRIVER ?? 4)
const MODES = (process.env.BENCH_MODES ?? 'headful,headless').split(',').map((m) => m.trim()).filter(Boolean)
const TOKEN = 'bench-token-0123456789'
const CHROMIUM = process.env.AFHTTP_CHROMIUM ?? '/usr/bin/chromium'
// The page writes what it saw into its own markup, so both ways read it from the HTML they capture.
const PAGE = `<!doctype html><html><title>Visibility</title><main><h1>Benchmark article</h1>${'<p>Some steady text for the benchmark page. </p>'.repeat(60)}</main>
<script>
const seen = { parse: document.visibilityState }
addEventListener('load', () => { document.documentElement.dataset.seen = JSON.stringify({ ...seen, load: document.visibilityState, chrome: outerHeight > innerHeight }) })
</script>`

const site = await serveHtml(PAGE)
const url = site.url

// A page that did not record what it saw is a broken run, never a page that saw nothing amiss.
const seenIn = (html) => {
  const recorded = /data-seen="([^"]*)"/.exec(html ?? '')?.[1]
  if (!recorded) throw new Error(`the page's record is missing from the captured HTML: ${String(html).slice(0, 120)}`)
  return JSON.parse(recorded.replaceAll('&quot;', '"'))
}

async function burst (one) {
  const seen = []
  const t0 = performance.now()
  await Promise.all(Array.from({ length: DRIVERS }, async () => { for (let i = 0; i < PER_DRIVER; i++) seen.push(seenIn(await one())) }))
  seen.wallMs = performance.now() - t0
  return seen
}

// Raw puppeteer's ordinary tab, or a background tab that DevTools tells it has focus (which
// also makes Chromium treat it as shown, as a captured tab is).
const openTab = {
  plain: (browser) => browser.newPage(),
  focused: async (browser) => {
    const page = await browser.newPage({ background: true })
    const session = await page.createCDPSession()
    await session.send('Emulation.setFocusEmulationEnabled', { enabled: true })
    return page
  }
}

async function raw (mode, how = 'plain') {
  const dir = await mkdtemp(join(tmpdir(), 'bench-vis-raw-'))
  const own = await ownBrowser({ mode, dir, chromiumPath: CHROMIUM })
  const { browser } = own
  const seen = await burst(async () => {
    const page = await openTab[how](browser)
    await page.goto(url, { waitUntil: 'load' })
    const html = await page.content()
    await page.close()
    return html
  })
  await own.stop()
  await rm(dir, { recursive: true, force: true })
  return seen
}

async function host (mode) {
  const dir = await mkdtemp(join(tmpdir(), 'bench-vis-afhttp-'))
  const config = loadConfig({ AFHTTP_PROFILES_DIR: dir, AFHTTP_TOKEN: TOKEN, AFHTTP_LOG_LEVEL: 'warn', AFHTTP_BROWSER_MODE: mode, PATH: process.env.PATH })
  const app = await buildApp(config, { token: config.token, logger: createLogger('warn') })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const base = `http://127.0.0.1:${app.server.address().port}`
  const seen = await burst(async () => {
    const res = await fetch(`${base}/v1/fetch`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ url }) })
    const body = await res.json()
    if (!body.ok) throw new Error(`bench fetch not ok: ${JSON.stringify(body).slice(0, 200)}`)
    return body.artifacts.html
  })
  await app.close()
  await rm(dir, { recursive: true, force: true })
  return seen
}

const summary = (seen) => {
  const n = seen.length
  const count = (f) => seen.filter(f).length
  return `${count((s) => s.parse === 'hidden')} of ${n} parsed hidden, ${count((s) => s.load === 'hidden')} hidden at load, ` +
    `${count((s) => !s.chrome)} without browser chrome above the page (outerHeight = innerHeight); burst ${Math.round(seen.wallMs)} ms`
}

console.log(`${DRIVERS} drivers × ${PER_DRIVER} fetches at once of a local page that records its own visibility; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
for (const mode of MODES) {
  console.log(`${mode}: raw puppeteer (newPage tabs): ${summary(await raw(mode))}`)
  console.log(`${mode}: raw puppeteer (background tabs with focus emulation): ${summary(await raw(mode, 'focused'))}`)
  console.log(`${mode}: afhttp (a window per fetch): ${summary(await host(mode))}`)
}
site.close()
