// A host as ops run it: `afhttp serve` in its own process, so a test can SIGKILL it.
import { spawn, type ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { guardEnv } from './guard.js'
import type { Teardown } from './teardown.js'

export const PROCESS_TOKEN = 'process-host-token-0123456789'
const ROOT = new URL('../..', import.meta.url).pathname

export interface HostProcess {
  child: ChildProcess
  url: string
  output: () => string
  /** Parsed JSON log lines (pino writes one object per line). */
  lines: () => Array<Record<string, unknown>>
  api: (path: string, init?: RequestInit) => Promise<Response>
  /** Resolves once the host answers HTTP at all (bounded). */
  listening: (timeoutMs?: number) => Promise<void>
  /** Resolves once /health says takeover_ready (bounded). */
  ready: (timeoutMs?: number) => Promise<void>
  exited: Promise<void>
}

/**
 * A profiles directory for process hosts. Teardowns run in the order registered, so the hosts'
 * own teardowns (SIGTERM, wait for exit) have finished writing into it before it is removed.
 */
export async function profilesDirFor (t: Teardown): Promise<{ path: string, removeAfterHosts: () => void }> {
  const path = await mkdtemp(join(tmpdir(), 'afhttp-proc-'))
  return { path, removeAfterHosts: () => t.teardown(() => rm(path, { recursive: true, force: true, maxRetries: 3 })) }
}

export async function freePort (): Promise<number> {
  const srv = createServer().listen(0, '127.0.0.1')
  await new Promise((resolve) => srv.once('listening', resolve))
  const { port } = srv.address() as { port: number }
  await new Promise((resolve) => srv.close(resolve))
  return port
}

/** `script`: what node runs, `afhttp serve` by default (test/helpers/lazy-host.mjs starts its browser on first use). */
export async function spawnHost (t: Teardown, profilesDir: string, env: Record<string, string> = {}, script = 'dist/cli/index.js'): Promise<HostProcess> {
  const port = await freePort()
  const runEnv: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    AFHTTP_PROFILES_DIR: profilesDir,
    AFHTTP_PORT: String(port),
    AFHTTP_TOKEN: PROCESS_TOKEN,
    AFHTTP_LOG_LEVEL: 'info',
    ...guardEnv(),
    ...env
  }
  const child = spawn('node', script === 'dist/cli/index.js' ? [script, 'serve'] : [script], { cwd: ROOT, env: runEnv, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout?.on('data', (d) => { output += d })
  child.stderr?.on('data', (d) => { output += d })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      await exited
    }
  })
  const url = `http://127.0.0.1:${port}`
  const api = (path: string, init: RequestInit = {}): Promise<Response> => fetch(url + path, {
    ...init,
    headers: { authorization: `Bearer ${PROCESS_TOKEN}`, ...(init.body ? { 'content-type': 'application/json' } : {}), ...(init.headers as Record<string, string> | undefined) }
  })
  const lines = (): Array<Record<string, unknown>> => output.split('\n').filter((l) => l.startsWith('{')).map((l) => {
    try { return JSON.parse(l) as Record<string, unknown> } catch { return {} }
  })
  return {
    child,
    url,
    output: () => output,
    lines,
    api,
    exited,
    async listening (timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs
      while (Date.now() < deadline) {
        if (child.exitCode !== null) throw new Error(`the host exited (${child.exitCode}): ${output.slice(-800)}`)
        try {
          await fetch(`${url}/capabilities`)
          return
        } catch { /* not listening yet */ }
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      throw new Error(`the host did not listen within ${timeoutMs} ms: ${output.slice(-800)}`)
    },
    async ready (timeoutMs = 180_000) {
      const deadline = Date.now() + timeoutMs
      let last = ''
      while (Date.now() < deadline) {
        if (child.exitCode !== null) throw new Error(`the host exited (${child.exitCode}): ${output.slice(-800)}`)
        try {
          const body = await (await api('/health')).json() as { status?: { takeover_ready?: boolean }, backend_error?: string }
          if (body.status?.takeover_ready) return
          last = body.backend_error ?? ''
        } catch { /* not listening yet */ }
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      throw new Error(`the host was not ready within ${timeoutMs} ms (${last}): ${output.slice(-800)}`)
    }
  }
}

/** Processes (pid, command) whose environment marks them as started by the given host pid. */
export function processesStartedBy (hostPid: number): Array<{ pid: number, command: string }> {
  const found: Array<{ pid: number, command: string }> = []
  for (const name of readdirSync('/proc')) {
    const pid = Number(name)
    if (!Number.isSafeInteger(pid) || pid <= 0) continue
    try {
      if (!readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(`AFHTTP_OWNER_PID=${hostPid}`)) continue
      if (/\) [ZX] /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))) continue
      found.push({ pid, command: readFileSync(`/proc/${pid}/comm`, 'utf8').trim() })
    } catch { /* gone meanwhile */ }
  }
  return found
}

export function running (pid: number): boolean {
  try { return !/\) [ZX] /.test(readFileSync(`/proc/${pid}/stat`, 'utf8')) } catch { return false }
}
