#!/usr/bin/env node
// Container HEALTHCHECK: calls the authenticated /health with the ops token when one is
// configured (it reads only /health and /metrics), else the configured or generated API token.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

const port = process.env.AFHTTP_PORT || '8787'
const dir = process.env.AFHTTP_PROFILES_DIR || './profiles'
// The ops token reads only /health and /metrics: what a probe needs, and nothing more.
let token = process.env.AFHTTP_OPS_TOKEN || process.env.AFHTTP_TOKEN
if (!token) {
  try { token = readFileSync(join(dir, '.afhttp-token'), 'utf8').trim() } catch {
    console.error('healthcheck: no AFHTTP_TOKEN and no token file in the profiles directory')
    process.exit(1)
  }
}
try {
  const res = await fetch(`http://127.0.0.1:${port}/health`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(4000) })
  const body = await res.json()
  const s = body.status ?? {}
  console.log(`healthcheck: HTTP ${res.status} running=${s.running} backend_connected=${s.backend_connected} takeover_ready=${s.takeover_ready}`)
  process.exit(res.ok && s.takeover_ready ? 0 : 1)
} catch (err) {
  console.error(`healthcheck: ${err.message}`)
  process.exit(1)
}
