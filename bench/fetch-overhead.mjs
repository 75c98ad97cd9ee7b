#!/usr/bin/env node
// Fetch overhead: afhttp's POST /v1/fetch against raw puppeteer doing the same work
// (new tab, goto, html + innerText, close) on the same machine in the same run.
// Prints p50/p95 and the ratio; nothing leaves 127.0.0.1. Run: npm run build && node bench/fetch-overhead.mjs
import { createServer } from 'node:http'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import puppeteer from 'puppeteer-core'
import { buildApp } from '../dist/app.js'
import { loadConfig } from '../dist/config.js'
import { createLogger } from '../dist/logger.js'
import { chromiumArgs } from '../dist/browser/launch-args.js'

const N = Number(process.env.BENCH_N ?? 40)
const PAGE = '<!doctype html><title>Bench</title><main><h1>Benchmark article</h1>' + '<p>Some steady text for the benchmark page. </p>'.repeat(50) + '</main>'

const site = createServer((_req, res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end(PAGE) })
await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve))
const url = `http://127.0.0.1:${site.address().port}/`

const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))] }

async function rawPuppeteer () {
  const dir = await mkdtemp(join(tmpdir(), 'bench-raw-'))
  const browser = await puppeteer.launch({ executablePath: process.env.AFHTTP_CHROMIUM ?? '/usr/bin/chromium', headless: true, userDataDir: dir, args: chromiumArgs({ isRoot: process.getuid?.() === 0, width: 1280, height: 720 }) })
  const times = []
  for (let i = 0; i < N + 3; i++) {
    const t0 = performance.now()
    const page = await browser.newPage({ type: 'window' })
    await page.goto(url, { waitUntil: 'load' })
    await page.content()
    await page.evaluate(() => document.body.innerText)
    await page.close()
    if (i >= 3) times.push(performance.now() - t0)
  }
  await browser.close()
  await rm(dir, { recursive: true, force: true })
  return times
}

async function afhttp () {
  const dir = await mkdtemp(join(tmpdir(), 'bench-afhttp-'))
  const config = loadConfig({ AFHTTP_PROFILES_DIR: dir, AFHTTP_TOKEN: 'bench-token-0123456789', AFHTTP_LOG_LEVEL: 'warn', PATH: process.env.PATH })
  const app = await buildApp(config, { token: config.token, logger: createLogger('warn') })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const base = `http://127.0.0.1:${app.server.address().port}`
  const times = []
  for (let i = 0; i < N + 3; i++) {
    const t0 = performance.now()
    const res = await fetch(`${base}/v1/fetch`, { method: 'POST', headers: { authorization: 'Bearer bench-token-0123456789', 'content-type': 'application/json' }, body: JSON.stringify({ url }) })
    const body = await res.json()
    if (!body.ok) throw new Error(`bench fetch not ok: ${JSON.stringify(body).slice(0, 200)}`)
    if (i >= 3) times.push(performance.now() - t0)
  }
  await app.close()
  await rm(dir, { recursive: true, force: true })
  return times
}

const raw = await rawPuppeteer()
const host = await afhttp()
site.close()
const row = (name, xs) => `${name.padEnd(22)} p50 ${pct(xs, 0.5).toFixed(1).padStart(7)} ms   p95 ${pct(xs, 0.95).toFixed(1).padStart(7)} ms`
console.log(`fetch of a local page, ${N} runs each (after 3 warm-ups)`)
console.log(row('raw puppeteer', raw))
console.log(row('afhttp POST /v1/fetch', host))
console.log(`ratio afhttp/raw: p50 ${(pct(host, 0.5) / pct(raw, 0.5)).toFixed(2)}x, p95 ${(pct(host, 0.95) / pct(raw, 0.95)).toFixed(2)}x`)
