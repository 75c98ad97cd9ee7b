#!/usr/bin/env node
// docs/spec.md section 22: after `npm test`, report (pid and command line) every process the suite left
// running — Chromium, Xvfb, a host, a watchdog, anything — and kill it. .ci/run gives the suite
// a TMPDIR of its own, so a process is the suite's when its command line or an environment value
// names that directory (every test profile, Chromium user-data-dir and owner marker lives there),
// or when it is in a process group or session such a process leads. Other processes on the
// machine, including other runs' browsers, are never touched.
// Usage: node .ci/leftovers.mjs <suite tmpdir>   (exit 1 when anything was left behind)
import { readdirSync, readFileSync } from 'node:fs'

const dir = process.argv[2]
if (!dir || !dir.startsWith('/')) {
  console.error('usage: leftovers.mjs <absolute suite tmpdir>')
  process.exit(2)
}
const prefix = dir.replace(/\/+$/, '') + '/'
const GRACE_MS = 5_000

function stat (pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ')
    return { state: f[0], ppid: Number(f[1]), pgid: Number(f[2]), sid: Number(f[3]) }
  } catch { return undefined }
}

function read (pid, file) {
  try { return readFileSync(`/proc/${pid}/${file}`, 'latin1') } catch { return '' }
}

/** This script and the shells that ran it carry the suite's TMPDIR too: never count them. */
function ancestors () {
  const out = new Set()
  for (let pid = process.pid; pid > 1 && !out.has(pid);) {
    out.add(pid)
    pid = stat(pid)?.ppid ?? 0
  }
  return out
}

function leftovers () {
  const skip = ancestors()
  const procs = []
  for (const name of readdirSync('/proc')) {
    const pid = Number(name)
    if (!Number.isSafeInteger(pid) || pid <= 1 || skip.has(pid)) continue
    const s = stat(pid)
    if (!s || s.state === 'Z' || s.state === 'X') continue
    const cmdline = read(pid, 'cmdline').split('\0').join(' ').trim()
    const env = read(pid, 'environ').split('\0')
    const ours = cmdline.includes(prefix) || env.some((e) => e.slice(e.indexOf('=') + 1).startsWith(prefix) || e.slice(e.indexOf('=') + 1) === prefix.slice(0, -1))
    procs.push({ pid, ...s, cmdline, ours })
  }
  const leaders = new Set(procs.filter((p) => p.ours).map((p) => p.pid))
  return procs.filter((p) => p.ours || leaders.has(p.pgid) || leaders.has(p.sid))
}

// Watchdogs of tests that just ended sweep within a second: give them (and exiting browsers) time.
let left = leftovers()
for (const deadline = Date.now() + GRACE_MS; left.length && Date.now() < deadline;) {
  await new Promise((resolve) => setTimeout(resolve, 250))
  left = leftovers()
}
if (!left.length) process.exit(0)
console.log(`left behind by the suite: ${left.length} process(es), killed now`)
for (const p of left) console.log(`  pid ${p.pid}: ${p.cmdline.slice(0, 300) || '(no command line)'}`)
for (const p of left) {
  try { process.kill(p.pid, 'SIGKILL') } catch { /* gone meanwhile */ }
}
process.exit(1)
