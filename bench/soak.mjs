#!/usr/bin/env node
// Load and soak (a measurement, not a test; docs/spec.md sections 8, 10 and 14, issue "prove it survives"):
// a real host in its own process, as ops run it, driven only over loopback.
//
//   1. 8 concurrent drivers × 50 fetches on 2 profiles: errors (must be 0) and latency.
//   2. 20 retained tabs (takeover fetches of a 403 page), then closed.
//   3. 10 viewers on one panel (each exchanges its own link), frames received per viewer.
//   4. A soak: mixed fetches for SOAK_MS (default 180 s), the host's RSS and open file
//      descriptors sampled every 5 s: after warm-up they should stay flat.
//
//   npm run bench:soak              print the results
//   npm run bench:soak -- --write   also regenerate the results block of docs/reliability.md
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { createServer as netServer } from 'node:net'
import os from 'node:os'
import { join } from 'node:path'
import puppeteer from 'puppeteer-core'
import { round, sleep, summary } from './stats.mjs'

const SOAK_MS = Number(process.env.SOAK_MS ?? 180_000)
const DRIVERS = 8
const FETCHES_EACH = Number(process.env.LOAD_FETCHES ?? 50)
const TOKEN = 'soak-token-0123456789abcdef'
const ARTICLE = `<!doctype html><title>Article</title><main><h1>Article</h1>${'<p>Words enough for content, repeated so the page has a body worth capturing.</p>'.repeat(40)}</main>`
const BLOCKED = '<!doctype html><title>Blocked</title><p>Access denied for now; a person must look at this page.</p>'

async function freePort () {
  const srv = netServer().listen(0, '127.0.0.1')
  await new Promise((resolve) => srv.once('listening', resolve))
  const { port } = srv.address()
  await new Promise((resolve) => srv.close(resolve))
  return port
}

async function startSite () {
  const server = createServer((req, res) => {
    const path = req.url.split('?')[0]
    res.writeHead(path === '/blocked' ? 403 : 200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(path === '/blocked' ? BLOCKED : ARTICLE)
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() }
}

async function startHost () {
  const dir = await mkdtemp(join(os.tmpdir(), 'afhttp-soak-'))
  const port = await freePort()
  const child = spawn('node', ['dist/cli/index.js', 'serve'], {
    cwd: new URL('..', import.meta.url).pathname,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, AFHTTP_PROFILES_DIR: dir, AFHTTP_PORT: String(port), AFHTTP_TOKEN: TOKEN, AFHTTP_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit']
  })
  const url = `http://127.0.0.1:${port}`
  const call = async (path, body, method = body ? 'POST' : 'GET') => {
    const res = await fetch(url + path, { method, headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined })
    return { status: res.status, body: await res.json().catch(() => null) }
  }
  let ready = false
  for (let i = 0; i < 900 && !ready; i++) {
    try { ready = (await call('/health')).body?.status?.takeover_ready === true } catch { /* not up */ }
    if (!ready) await sleep(100)
  }
  if (!ready) { child.kill('SIGKILL'); throw new Error('the host did not become ready within 90 s') }
  await call('/v1/profiles', { name: 'second' })
  return {
    url,
    call,
    pid: child.pid,
    close: async () => { child.kill('SIGTERM'); await new Promise((resolve) => child.once('exit', resolve)); await rm(dir, { recursive: true, force: true }) }
  }
}

async function sample (pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
  const fds = (await readdir(`/proc/${pid}/fd`)).length
  return { rss_mb: round(rssKb / 1024), fds }
}

async function load (host, site) {
  const latencies = []
  let errors = 0
  const t0 = performance.now()
  await Promise.all(Array.from({ length: DRIVERS }, async (_, d) => {
    for (let i = 0; i < FETCHES_EACH; i++) {
      const s = performance.now()
      const res = await host.call('/v1/fetch', { url: `${site.url}/article?d=${d}&i=${i}`, profile: d % 2 ? 'second' : 'default' })
      latencies.push(performance.now() - s)
      if (res.status !== 200 || res.body?.ok !== true) errors++
    }
  }))
  return { fetches: DRIVERS * FETCHES_EACH, errors, wall_s: round((performance.now() - t0) / 1000), latency: summary(latencies) }
}

async function retained (host, site) {
  const ids = []
  let errors = 0
  for (let i = 0; i < 20; i++) {
    const res = await host.call('/v1/fetch', { url: `${site.url}/blocked?i=${i}`, takeover: true })
    if (res.body?.tab_retained && res.body.actions?.[0]?.takeover_url_secret) ids.push(res.body.tab_id)
    else errors++
  }
  const listed = (await host.call('/v1/tabs')).body.tabs.length
  for (const id of ids) if ((await host.call(`/v1/tabs/${id}`, undefined, 'DELETE')).status !== 200) errors++
  return { retained: ids.length, listed, errors }
}

async function viewers (host, site) {
  const viewer = await puppeteer.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu', ...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])]
  })
  try {
    const fetched = (await host.call('/v1/fetch', { url: `${site.url}/blocked?panel`, takeover: true })).body
    const pages = []
    for (let i = 0; i < 10; i++) {
      // A second mint gives a fresh link to the same handoff; each viewer exchanges its own.
      const minted = i === 0 ? fetched.actions[0] : (await host.call(`/v1/tabs/${fetched.tab_id}/handoff`, {})).body
      const context = await viewer.createBrowserContext()
      const page = await context.newPage()
      await page.setViewport({ width: 800, height: 600 })
      await page.goto(host.url + new URL(minted.takeover_url_secret).pathname)
      pages.push(page)
    }
    await Promise.all(pages.map((p) => p.waitForFunction(() => window.afhttpPanelStats?.frames >= 1, { timeout: 30_000 }).catch(() => undefined)))
    const frames = await Promise.all(pages.map((p) => p.evaluate(() => window.afhttpPanelStats?.frames ?? 0)))
    return { viewers: pages.length, with_frames: frames.filter((f) => f > 0).length }
  } finally {
    await viewer.close()
  }
}

async function soak (host, site) {
  const curve = []
  let fetches = 0
  let errors = 0
  const end = Date.now() + SOAK_MS
  const started = Date.now()
  let nextSample = 0
  while (Date.now() < end) {
    if (Date.now() >= nextSample) {
      curve.push({ at_s: round((Date.now() - started) / 1000, 0), ...(await sample(host.pid)) })
      nextSample = Date.now() + 5_000
    }
    const batch = await Promise.all(Array.from({ length: 4 }, (_, i) =>
      host.call('/v1/fetch', { url: `${site.url}/article?s=${fetches + i}`, profile: i % 2 ? 'second' : 'default' })))
    for (const r of batch) if (r.status !== 200 || r.body?.ok !== true) errors++
    fetches += batch.length
    if (fetches % 40 === 0) await host.call('/health')
  }
  curve.push({ at_s: round((Date.now() - started) / 1000, 0), ...(await sample(host.pid)) })
  // Growth after warm-up: the last sample against the one a third of the way in.
  const warm = curve[Math.floor(curve.length / 3)]
  const last = curve[curve.length - 1]
  return { fetches, errors, curve, rss_growth_mb: round(last.rss_mb - warm.rss_mb), fd_growth: last.fds - warm.fds }
}

function report (r) {
  const lat = (s) => `${s.p50} / ${s.p95} ms (max ${s.max}, n=${s.n})`
  const rows = r.soak.curve.map((c) => `${c.at_s} s: ${c.rss_mb} MB, ${c.fds} fds`).join('; ')
  return [
    `Run ${r.when} on ${r.cpus} × ${r.cpu_model}; load average ${r.loadavg.join(' ')} at the start; soak ${round(SOAK_MS / 1000, 0)} s.`,
    '',
    '| measure | result |',
    '|---|---|',
    `| ${DRIVERS} drivers × ${FETCHES_EACH} fetches on 2 profiles: errors | ${r.load.errors} of ${r.load.fetches} (${r.load.wall_s} s) |`,
    `| … fetch latency p50 / p95 | ${lat(r.load.latency)} |`,
    `| host RSS after the load | ${r.afterLoad.rss_mb} MB (${r.afterLoad.fds} fds; ${r.idle.rss_mb} MB idle before) |`,
    `| 20 retained tabs: retained / listed / errors | ${r.retained.retained} / ${r.retained.listed} / ${r.retained.errors} |`,
    `| 10 viewers on one panel: with frames | ${r.viewers.with_frames} of ${r.viewers.viewers} |`,
    `| soak: fetches / errors | ${r.soak.fetches} / ${r.soak.errors} |`,
    `| soak: RSS and fd growth after warm-up | ${r.soak.rss_growth_mb} MB, ${r.soak.fd_growth} fds |`,
    '',
    `Soak curve (host process): ${rows}.`
  ].join('\n')
}

const site = await startSite()
const host = await startHost()
const results = { when: new Date().toISOString(), cpus: os.cpus().length, cpu_model: os.cpus()[0]?.model, loadavg: os.loadavg().map((l) => round(l, 2)) }
try {
  results.idle = await sample(host.pid)
  results.load = await load(host, site)
  results.afterLoad = await sample(host.pid)
  results.retained = await retained(host, site)
  results.viewers = await viewers(host, site)
  results.soak = await soak(host, site)
} finally {
  await host.close()
  site.close()
}
const table = report(results)
console.log(table)
if (process.argv.includes('--write')) {
  const file = new URL('../docs/reliability.md', import.meta.url)
  const doc = await readFile(file, 'utf8')
  const block = `<!-- soak:start -->\n${table}\n<!-- soak:end -->`
  await writeFile(file, doc.includes('<!-- soak:start -->') ? doc.replace(/<!-- soak:start -->[\s\S]*<!-- soak:end -->/, block) : `${doc.trimEnd()}\n\n## Load and soak (\`npm run bench:soak\`)\n\n${block}\n`)
  console.log('\nwrote docs/reliability.md')
}
