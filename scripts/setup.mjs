#!/usr/bin/env node
// One-step set-up for a fresh clone: npm dependencies, then a system Chromium and Xvfb.
// Uses only Node built-ins because it runs before `npm install`.
import { existsSync, accessSync, constants } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { dirname, join, delimiter } from 'node:path'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const say = (line) => process.stderr.write(`afhttp setup: ${line}\n`)

function run (cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts })
  if (res.status !== 0) {
    say(`"${cmd} ${args.join(' ')}" failed (exit ${res.status ?? res.signal})`)
    process.exit(res.status || 1)
  }
}

function dependenciesInstalled () {
  const markers = ['fastify', 'puppeteer-core', 'tap', 'typescript'].map((m) => join(root, 'node_modules', m, 'package.json'))
  return markers.every((m) => existsSync(m))
}

function onPath (name) {
  for (const dir of (process.env.PATH || '').split(delimiter)) {
    try { accessSync(join(dir, name), constants.X_OK); return join(dir, name) } catch { /* not here */ }
  }
  return null
}

function findChromium () {
  if (process.env.AFHTTP_CHROMIUM) return process.env.AFHTTP_CHROMIUM
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium'
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    const found = onPath(name)
    if (found) return found
  }
  return null
}

if (!dependenciesInstalled()) {
  say('installing npm dependencies')
  // Never let puppeteer fetch a browser of its own: the host drives the system Chromium.
  const env = { ...process.env, PUPPETEER_SKIP_DOWNLOAD: 'true' }
  run('npm', [existsSync(join(root, 'package-lock.json')) ? 'ci' : 'install', '--no-audit', '--no-fund'], { env })
}

// The host runs a visible Chromium on its own Xvfb by default (docs/spec.md section 13).
const missing = [...(findChromium() ? [] : ['chromium', 'fonts-liberation']), ...(onPath('Xvfb') ? [] : ['xvfb', 'xauth'])]
if (missing.length) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  if (isRoot && onPath('apt-get')) {
    say(`installing the Debian packages ${missing.join(', ')}`)
    run('apt-get', ['update', '-qq'])
    run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
    })
  } else if (missing.includes('chromium')) {
    say('Chromium not found. Install it (Debian/Ubuntu: "sudo apt-get install chromium xvfb") or set AFHTTP_CHROMIUM to its path.')
    process.exit(1)
  } else {
    say('Xvfb not found: the host will run Chromium headless. Install it ("sudo apt-get install xvfb") for a visible browser.')
  }
}
