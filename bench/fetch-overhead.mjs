#!/usr/bin/env node
// Fetch overhead: afhttp's POST /v1/fetch against raw puppeteer-core's ordinary flow
// (`browser.newPage()`, goto, content, innerText, close — what a user writes instead of calling
// us) on the same browser launch, in the same run. Prints p50/p95, the ratios, 8-way wall time and the CPU each burst cost,
// /health latency, metadata writes per second, and host/browser memory with the window pool at
// 0, 2 and 8. Nothing leaves 127.0.0.1. Run: npm run bench:fetch
// Measured in blocks: for each phase (back to back, paused, 8-way, 8-way again) a block of host
// fetches, then, once the host's pool has caught up, a block of raw fetches in a browser of its
// own, so each ratio compares two blocks run minutes apart at most, and the pool's background
// work never lands on raw puppeteer's fetches (interleaving them did).
// Knobs: BENCH_N (sequential fetches, 40), BENCH_POOLS (0,2,8), BENCH_DRIVERS (8), BENCH_PER_DRIVER (4),
// BENCH_GAP_MS (the think time before each paused fetch, 1000),
// BENCH_MODES (headful,headless: raw and host in the same browser mode, each mode in turn).
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { execFileSync } from 'node:child_process'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../dist/app.js'
import { loadConfig } from '../dist/config.js'
import { createLogger } from '../dist/logger.js'
import { ownBrowser } from './own-browser.mjs'
import * as windowPool from '../dist/browser/window-pool.js'
import { ARTICLE as PAGE, serveHtml } from './article-site.mjs'
import { sleep } from './stats.mjs'

const N = Number(process.env.BENCH_N ?? 40)
const WARM = 3
const POOLS = (process.env.BENCH_POOLS ?? '0,2,8').split(',').map(Number)
const DRIVERS = Number(process.env.BENCH_DRIVERS ?? 8)
const PER_DRIVER = Number(process.env.BENCH_PER_DRIVER ?? 4)
// A driver usually does something between fetches (parses, thinks): the same pause for raw and host.
const GAP_MS = Number(process.env.BENCH_GAP_MS ?? 1000)
// An older build without pool counters still runs (for before/after comparisons): zeros.
const poolStats = (browser) => {
  const s = windowPool.poolStats?.(browser) ?? { opened: 0, openMs: 0, openedOnDemand: 0, onDemandMs: 0, closed: 0, closeMs: 0, deferredCloses: 0 }
  return { reused: 0, resetMs: 0, ...s, notReused: { ...s.notReused } }
}
const MODES = (process.env.BENCH_MODES ?? 'headful,headless').split(',').map((m) => m.trim()).filter(Boolean)
const TOKEN = 'bench-token-0123456789'
const CHROMIUM = process.env.AFHTTP_CHROMIUM ?? '/usr/bin/chromium'

const site = await serveHtml(PAGE)
const url = site.url

const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))] }

// The fields of /proc/PID/stat after the command name (which may hold spaces): [0] is state.
const statFields = (stat) => stat.slice(stat.lastIndexOf(')') + 2).split(' ')

/** `rootPid` and every process under it, with each one's /proc/PID/stat fields. */
async function processTree (rootPid) {
  const children = new Map()
  const fields = new Map()
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '')
    if (!stat) continue
    const f = statFields(stat)
    fields.set(Number(name), f)
    const ppid = Number(f[1])
    if (!children.has(ppid)) children.set(ppid, [])
    children.get(ppid).push(Number(name))
  }
  const tree = []
  const walk = (pid) => { tree.push({ pid, fields: fields.get(pid) ?? [] }); for (const c of children.get(pid) ?? []) walk(c) }
  walk(rootPid)
  return tree
}

/** RSS and PSS (shared pages split between processes) of a process and all its descendants, in MB. */
async function treeMemory (rootPid) {
  let rss = 0
  let pss = 0
  for (const { pid } of await processTree(rootPid)) {
    const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => '')
    rss += Number(/^Rss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0)
    pss += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0)
  }
  return { rss: rss / 1024, pss: pss / 1024 }
}

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100

/**
 * CPU seconds used so far by this Node process (the host, the drivers and raw puppeteer's client
 * all run in it) and by the processes under it: Chromium, its renderers and the Xvfb displays.
 * Renderers that exited count through their parent (utime + stime + cutime + cstime).
 */
async function cpuSeconds () {
  const own = process.cpuUsage()
  let ticks = 0
  for (const { pid, fields } of await processTree(process.pid)) {
    if (pid === process.pid) continue
    ticks += Number(fields[11] ?? 0) + Number(fields[12] ?? 0) + Number(fields[13] ?? 0) + Number(fields[14] ?? 0)
  }
  return { node: (own.user + own.system) / 1e6, under: ticks / CLOCK_TICKS }
}

/** What `run` returns, with the CPU seconds spent while it ran. */
async function withCpu (run) {
  const c0 = await cpuSeconds()
  const result = await run()
  const c1 = await cpuSeconds()
  return { result, cpu: { node: c1.node - c0.node, under: c1.under - c0.under } }
}

async function rawFetch (browser) {
  const page = await browser.newPage()
  await page.goto(url, { waitUntil: 'load' })
  await page.content()
  await page.evaluate(() => document.body.innerText)
  await page.close()
}

/** `drivers` loops of `each` fetches at once; returns the wall time. */
async function concurrent (drivers, each, one) {
  const t0 = performance.now()
  await Promise.all(Array.from({ length: drivers }, async () => { for (let i = 0; i < each; i++) await one() }))
  return performance.now() - t0
}

/** N timed calls after WARM untimed ones, optionally with a pause (not timed) before each. */
async function sequential (one, gapMs) {
  const times = []
  const rows = []
  for (let i = 0; i < N + WARM; i++) {
    if (gapMs) await sleep(gapMs)
    const t0 = performance.now()
    const row = await one()
    const ms = performance.now() - t0
    if (i >= WARM) { times.push(ms); rows.push({ ...row, client_ms: ms }) }
  }
  return { times, rows }
}

/** Raw puppeteer's browser: the host's own launch (same flags, mode and viewport; headful on an
 * Xvfb of its own, as the host does): only the way pages are used differs. Idle while the host runs. */
async function rawBrowser (mode) {
  const dir = await mkdtemp(join(tmpdir(), 'bench-raw-'))
  const own = await ownBrowser({ mode, dir, chromiumPath: CHROMIUM })
  const { browser, pid } = own
  // Raw puppeteer's phases, each run right after the host's block of the same phase.
  const phases = {
    b2b: async () => (await sequential(() => rawFetch(browser), 0)).times,
    paused: async () => (await sequential(() => rawFetch(browser), GAP_MS)).times,
    burst: () => withCpu(() => concurrent(DRIVERS, PER_DRIVER, () => rawFetch(browser)))
  }
  return {
    phases,
    memory: () => treeMemory(pid),
    stop: async () => {
      await own.stop()
      await rm(dir, { recursive: true, force: true })
    }
  }
}

async function afhttp (mode, pool, extras, raw) {
  const dir = await mkdtemp(join(tmpdir(), 'bench-afhttp-'))
  const config = loadConfig({ AFHTTP_PROFILES_DIR: dir, AFHTTP_TOKEN: TOKEN, AFHTTP_LOG_LEVEL: 'warn', AFHTTP_TAB_POOL: String(pool), AFHTTP_BROWSER_MODE: mode, PATH: process.env.PATH })
  // The browser starts below, not in onReady: on a loaded machine its start can outlast Fastify's 10 s hook limit.
  const app = await buildApp(config, { token: config.token, logger: createLogger('warn'), startBrowser: false })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const base = `http://127.0.0.1:${app.server.address().port}`
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }
  const profile = config.defaultProfile
  const poolFull = async () => { for (let i = 0; i < 200 && app.tabs.poolAvailable(profile) < pool; i++) await sleep(25) }
  const notOk = []
  const one = async () => {
    const t0 = performance.now()
    const res = await fetch(`${base}/v1/fetch`, { method: 'POST', headers, body: JSON.stringify({ url }) })
    const body = await res.json()
    // Counted and printed rather than fatal: on a saturated machine a page can miss its deadline.
    if (!body.ok && notOk.length === 0) console.error('first fetch that did not answer ok:', JSON.stringify({ ...body, artifacts: Object.keys(body.artifacts ?? {}) }))
    if (!body.ok) notOk.push(body.error?.code ?? (body.warnings ?? []).map((w) => w.code).join('+') ?? 'not ok')
    return { ...body.trace?.timings, client_ms: performance.now() - t0 }
  }
  const browser = await app.browsers.get(profile)
  let hits = 0
  let misses = 0
  app.tabs.onPoolTake((_p, hit) => { if (hit) hits++; else misses++ })
  // What the pool did during one phase: windows taken from it or opened on demand, windows it
  // opened ahead and closed after answers (with their mean times), closes it held for a quiet moment.
  const phase = async (run) => {
    const s0 = { ...poolStats(browser) }
    const h0 = hits
    const m0 = misses
    const result = await run()
    const s1 = poolStats(browser)
    const opened = s1.opened - s0.opened
    const closed = s1.closed - s0.closed
    const demand = s1.openedOnDemand - s0.openedOnDemand
    const reused = s1.reused - s0.reused
    const refused = Object.entries(s1.notReused).map(([k, v]) => [k, v - (s0.notReused[k] ?? 0)]).filter(([, v]) => v > 0)
    return { result, pool: { hits: hits - h0, misses: misses - m0, demand, opened, openMs: opened ? (s1.openMs - s0.openMs) / opened : 0, demandMs: demand ? (s1.onDemandMs - s0.onDemandMs) / demand : 0, closed, closeMs: closed ? (s1.closeMs - s0.closeMs) / closed : 0, deferred: s1.deferredCloses - s0.deferredCloses, reused, resetMs: reused ? (s1.resetMs - s0.resetMs) / reused : 0, refused } }
  }
  const settled = async () => { await poolFull(); await sleep(300) }
  // Each phase: the host's block, then (the pool caught up, the host idle) raw puppeteer's block.
  const rawTimes = {}
  await settled()
  const b2b = await phase(() => sequential(one, 0))
  await settled()
  rawTimes.times = await raw.phases.b2b()
  await sleep(300)
  const paused = await phase(() => sequential(one, GAP_MS))
  await settled()
  rawTimes.gapped = await raw.phases.paused()
  await sleep(300)
  const rows8 = []
  const burst = await phase(() => withCpu(() => concurrent(DRIVERS, PER_DRIVER, async () => rows8.push(await one()))))
  // Raw puppeteer's burst waits until the host's pool has caught up with the host's burst; the
  // host's second burst comes once the pool is full again (it keeps up to the recent peak of
  // concurrent fetches, see src/core/pool-demand.ts).
  const caughtUp = async () => { for (let i = 0; i < 200 && app.tabs.poolAvailable(profile) < Math.min(8, Math.max(pool, pool && DRIVERS)); i++) await sleep(25); await sleep(300) }
  await caughtUp()
  rawTimes.wall = await raw.phases.burst()
  await sleep(300)
  await caughtUp()
  const rows8b = []
  const burst2 = await phase(() => withCpu(() => concurrent(DRIVERS, PER_DRIVER, async () => rows8b.push(await one()))))
  await settled()
  rawTimes.wall2 = await raw.phases.burst()
  await sleep(300)
  const mem = { host: process.memoryUsage().rss / 1024 / 1024, browser: await treeMemory(app.browsers.status(profile).pid), windows: app.tabs.poolAvailable(profile) }
  const out = {
    mode: app.browsers.mode,
    pool,
    times: b2b.result.times,
    gapped: paused.result.times,
    wall: burst.result.result,
    wall2: burst2.result.result,
    cpu: { wall: burst.result.cpu, wall2: burst2.result.cpu },
    mem,
    timings: b2b.result.rows,
    gappedTimings: paused.result.rows,
    rows8,
    rows8b,
    pools: { b2b: b2b.pool, paused: paused.pool, burst: burst.pool, burst2: burst2.pool },
    raw: { ...rawTimes, wall: rawTimes.wall.result, wall2: rawTimes.wall2.result, cpu: { wall: rawTimes.wall.cpu, wall2: rawTimes.wall2.cpu }, mem: await raw.memory() },
    notOk
  }
  if (extras) {
    const health = []
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now()
      const res = await fetch(`${base}/health`, { headers: { authorization: headers.authorization } })
      await res.json()
      health.push(performance.now() - t0)
    }
    out.health = health
    await fetch(`${base}/v1/profiles`, { method: 'POST', headers, body: JSON.stringify({ name: 'bench-meta' }) })
    let writes = 0
    const t0 = performance.now()
    while (performance.now() - t0 < 3_000) {
      const res = await fetch(`${base}/v1/profiles/bench-meta`, { method: 'PATCH', headers, body: JSON.stringify({ labels: { n: String(writes) } }) })
      if (!res.ok) throw new Error(`metadata write failed: ${res.status}`)
      await res.arrayBuffer()
      writes++
    }
    out.writesPerSecond = writes / ((performance.now() - t0) / 1000)
  }
  await app.close()
  await rm(dir, { recursive: true, force: true })
  return out
}

const f = (x) => x.toFixed(1).padStart(7)
const median = (rows, key) => pct(rows.map((r) => r[key] ?? 0), 0.5)
const ratio = (a, b) => (a / b).toFixed(2)
const breakdown = (rows) => `pool wait (open_tab) ${median(rows, 'open_tab_ms')}, prepare ${median(rows, 'prepare_ms')}, navigate ${median(rows, 'navigate_ms')}, capture (inspect) ${median(rows, 'inspect_ms')}, anchor guard (release) ${median(rows, 'release_ms')}, host total ${median(rows, 'total_ms')}, answer (HTTP + JSON) ${pct(rows.map((r) => r.client_ms - r.total_ms), 0.5).toFixed(1)} ms`
const poolLine = (p) => `${p.hits} hits / ${p.misses} misses (${p.demand} windows built for misses, mean ${p.demandMs.toFixed(0)} ms); ${p.reused} windows reset for the next fetch (mean ${p.resetMs.toFixed(0)} ms)${p.refused.length ? `, refused: ${p.refused.map(([k, v]) => `${k} ${v}`).join(', ')}` : ''}; ${p.opened} windows opened ahead (mean ${p.openMs.toFixed(0)} ms), ${p.closed} closed after answers (mean ${p.closeMs.toFixed(0)} ms, ${p.deferred} held for a quiet moment)`

for (const mode of MODES) {
  const load0 = loadavg().map((x) => x.toFixed(2)).join(' ')
  const rawB = await rawBrowser(mode)
  const hosts = []
  for (const pool of POOLS) hosts.push(await afhttp(mode, pool, pool === 2 || POOLS.length === 1, rawB))
  await rawB.stop()
  console.log(`\n## ${mode}: ${new Date().toISOString()}`)
  console.log(`fetch of a local ${PAGE.length}-byte page; ${N} sequential fetches (after ${WARM} warm-ups) back to back, then ${N} with a ${GAP_MS} ms pause before each, then ${DRIVERS} drivers × ${PER_DRIVER} at once, twice; each phase a block of host fetches, then a block of raw ones`)
  console.log(`load average before ${load0}, after ${loadavg().map((x) => x.toFixed(2)).join(' ')}`)
  for (const h of hosts) {
    const raw = h.raw
    console.log(`raw puppeteer beside pool ${h.pool} (newPage, goto, content, innerText, close): back to back p50 ${f(pct(raw.times, 0.5))} p95 ${f(pct(raw.times, 0.95))} | paused p50 ${f(pct(raw.gapped, 0.5))} p95 ${f(pct(raw.gapped, 0.95))} | ${DRIVERS}-way wall ${f(raw.wall)} ms, again ${f(raw.wall2)} ms | browser RSS ${raw.mem.rss.toFixed(0)} MB (PSS ${raw.mem.pss.toFixed(0)})`)
    if (h.mode !== mode) console.log(`   (the host ran ${h.mode}: ${mode} was not available)`)
    console.log(`afhttp pool ${String(h.pool).padStart(2)}: back to back p50 ${f(pct(h.times, 0.5))} p95 ${f(pct(h.times, 0.95))} | paused p50 ${f(pct(h.gapped, 0.5))} p95 ${f(pct(h.gapped, 0.95))} | ${DRIVERS}-way wall ${f(h.wall)} ms, again ${f(h.wall2)} ms | host RSS ${h.mem.host.toFixed(0)} MB, browser RSS ${h.mem.browser.rss.toFixed(0)} MB (PSS ${h.mem.browser.pss.toFixed(0)}) with ${h.mem.windows} unused windows`)
    console.log(`   ratio host/raw: back to back p50 ${ratio(pct(h.times, 0.5), pct(raw.times, 0.5))} p95 ${ratio(pct(h.times, 0.95), pct(raw.times, 0.95))} | paused p50 ${ratio(pct(h.gapped, 0.5), pct(raw.gapped, 0.5))} p95 ${ratio(pct(h.gapped, 0.95), pct(raw.gapped, 0.95))} | ${DRIVERS}-way wall ${ratio(h.wall, raw.wall)}, again ${ratio(h.wall2, raw.wall2)}`)
    console.log(`   where the time goes (medians, ms):`)
    console.log(`     back to back: ${breakdown(h.timings)}; pool ${poolLine(h.pools.b2b)}`)
    console.log(`     paused:       ${breakdown(h.gappedTimings)}; pool ${poolLine(h.pools.paused)}`)
    console.log(`     ${DRIVERS}-way:        ${breakdown(h.rows8)}; pool ${poolLine(h.pools.burst)}`)
    console.log(`     ${DRIVERS}-way again:  ${breakdown(h.rows8b)}; pool ${poolLine(h.pools.burst2)}`)
    const cpu = (c) => `${c.node.toFixed(1)} + ${c.under.toFixed(1)}`
    console.log(`     CPU s during the ${DRIVERS}-way bursts (Node + Chromium and Xvfb): afhttp ${cpu(h.cpu.wall)}, again ${cpu(h.cpu.wall2)}; raw puppeteer ${cpu(raw.cpu.wall)}, again ${cpu(raw.cpu.wall2)}`)
    if (h.notOk.length) console.log(`   fetches that did not answer ok: ${h.notOk.length} (${[...new Set(h.notOk)].join(', ')})`)
    if (h.health) console.log(`   /health p50 ${pct(h.health, 0.5).toFixed(1)} ms, p95 ${pct(h.health, 0.95).toFixed(1)} ms; metadata writes (PATCH labels, four-step durable write) ${h.writesPerSecond.toFixed(0)}/s`)
  }
}
site.close()
