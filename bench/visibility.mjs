#!/usr/bin/env node
// What the page itself saw in the 8-way burst of bench/fetch-overhead.mjs: raw puppeteer's
// concurrent `browser.newPage()` tabs against afhttp's fetch windows (SPEC section 14), in the
// host's own browser mode. A page records, while it parses and at `load`, whether it is visible
// (a hidden page runs no animation frames and has its timers throttled). It is the other side of
// the speed ratio: the cheaper tab is a background tab for all but one concurrent fetch.
// Nothing leaves 127.0.0.1. Run after `npm run build`: node bench/visibility.mjs
// Knobs: BENCH_DRIVERS (8), BENCH_PER_DRIVER (4), BENCH_MODES (headful,headless).
import { createServer } from 'node:http'
import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../dist/app.js'
import { loadConfig } from '../dist/config.js'
import { createLogger } from '../dist/logger.js'
import { startBrowser } from '../dist/browser/backend.js'
import { startXvfb } from '../dist/browser/xvfb.js'

const DRIVERS = Number(process.env.BENCH_DRIVERS ?? 8)
const PER_DRIVER = Number(process.env.BENCH_PER_DRIVER ?? 4)
const MODES = (process.env.BENCH_MODES ?? 'headful,headless').split(',').map((m) => m.trim()).filter(Boolean)
const TOKEN = 'bench-token-0123456789'
const CHROMIUM = process.env.AFHTTP_CHROMIUM ?? '/usr/bin/chromium'
// The page writes what it saw into its own markup, so both ways read it from the HTML they capture.
const PAGE = `<!doctype html><html><title>Visibility</title><main><h1>Benchmark article</h1>${'<p>Some steady text for the benchmark page. </p>'.repeat(60)}</main>
<script>
const seen = { parse: document.visibilityState }
addEventListener('load', () => { document.documentElement.dataset.seen = JSON.stringify({ ...seen, load: document.visibilityState }) })
</script>`

const site = createServer((_req, res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end(PAGE) })
await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve))
const url = `http://127.0.0.1:${site.address().port}/`

const seenIn = (html) => JSON.parse((/data-seen="([^"]*)"/.exec(html)?.[1] ?? '{}').replaceAll('&quot;', '"'))

async function burst (one) {
  const seen = []
  await Promise.all(Array.from({ length: DRIVERS }, async () => { for (let i = 0; i < PER_DRIVER; i++) seen.push(seenIn(await one())) }))
  return seen
}

async function raw (mode) {
  const dir = await mkdtemp(join(tmpdir(), 'bench-vis-raw-'))
  const xvfb = mode === 'headful' ? await startXvfb('Xvfb', process.env) : undefined
  const { browser } = await startBrowser({ backend: 'chromium', chromiumPath: CHROMIUM, userDataDir: join(dir, 'browser'), mode, display: xvfb?.display })
  const seen = await burst(async () => {
    const page = await browser.newPage()
    await page.goto(url, { waitUntil: 'load' })
    const html = await page.content()
    await page.close()
    return html
  })
  await browser.close()
  await xvfb?.stop()
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
    return body.html
  })
  await app.close()
  await rm(dir, { recursive: true, force: true })
  return seen
}

const summary = (seen) => {
  const n = seen.length
  const count = (f) => seen.filter(f).length
  return `${count((s) => s.parse === 'hidden')} of ${n} parsed hidden, ${count((s) => s.load === 'hidden')} hidden at load`
}

console.log(`${DRIVERS} drivers × ${PER_DRIVER} fetches at once of a local page that records its own visibility; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
for (const mode of MODES) {
  console.log(`${mode}: raw puppeteer (newPage tabs): ${summary(await raw(mode))}`)
  console.log(`${mode}: afhttp (a window per fetch): ${summary(await host(mode))}`)
}
site.close()
