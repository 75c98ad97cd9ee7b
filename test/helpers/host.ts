import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import { buildApp } from '../../src/app.js'
import { loadConfig, type Config } from '../../src/config.js'
import { createLogger } from '../../src/logger.js'
import type { Clock } from '../../src/core/clock.js'
import './guard.js'
import { retry503 } from './retry-503.js'
import type { Teardown } from './teardown.js'

export const TEST_TOKEN = 'test-token-0123456789abcdef'

/** Every log line the host wrote, raw and parsed, so tests can assert on them. */
export class LogCapture extends Writable {
  readonly raw: string[] = []
  override _write (chunk: Buffer, _enc: string, cb: () => void): void {
    for (const line of chunk.toString().split('\n')) if (line.trim()) this.raw.push(line)
    cb()
  }

  get lines (): Array<Record<string, unknown>> {
    return this.raw.map((l) => JSON.parse(l) as Record<string, unknown>)
  }

  text (): string { return this.raw.join('\n') }
}

export interface TestHost {
  app: FastifyInstance
  config: Config
  url: string
  token: string
  profilesDir: string
  logs: LogCapture
  /** Fetch against the host with the bearer token. */
  api: (path: string, init?: RequestInit) => Promise<Response>
  close: () => Promise<void>
}

export interface HostOptions {
  env?: Record<string, string>
  clock?: Clock
  startBrowser?: boolean
  profilesDir?: string
  /** A logger of the test's own (its lines are then not in `logs`). */
  logger?: Logger
  webhookBackoffMs?: readonly number[]
}

/** A real host on 127.0.0.1 with a temporary profiles dir and real Chromium. */
export async function startHost (t: Teardown, opts: HostOptions = {}): Promise<TestHost> {
  const profilesDir = opts.profilesDir ?? await mkdtemp(join(tmpdir(), 'afhttp-test-'))
  const config = loadConfig({
    AFHTTP_PORT: '0',
    AFHTTP_PROFILES_DIR: profilesDir,
    AFHTTP_TOKEN: TEST_TOKEN,
    AFHTTP_LOG_LEVEL: 'info',
    PATH: process.env.PATH,
    ...opts.env
  })
  const logs = new LogCapture()
  const logger = opts.logger ?? createLogger(config.logLevel, logs)
  const app = await buildApp(config, { token: config.token ?? TEST_TOKEN, logger, clock: opts.clock, startBrowser: opts.startBrowser, webhookBackoffMs: opts.webhookBackoffMs })
  await app.listen({ host: '127.0.0.1', port: 0 })
  // The host brings its browser up in the background (docs/spec.md section 22); tests expect /health
  // live from their first call, as before, so wait for that start here (a failure is theirs to see).
  if (opts.startBrowser !== false) await app.browsers.get(config.defaultProfile).catch(() => undefined)
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  const url = `http://127.0.0.1:${port}`
  let closed = false
  const close = async (): Promise<void> => {
    if (closed) return
    closed = true
    await app.close()
    if (!opts.profilesDir) await rm(profilesDir, { recursive: true, force: true })
  }
  t.teardown(close)
  return {
    app,
    config: app.config,
    url,
    token: config.token ?? TEST_TOKEN,
    profilesDir,
    logs,
    api: (path, init = {}) => fetch(url + path, {
      ...init,
      headers: { authorization: `Bearer ${config.token ?? TEST_TOKEN}`, ...(init.body ? { 'content-type': 'application/json' } : {}), ...(init.headers as Record<string, string> | undefined) }
    }),
    close
  }
}

/** GET /health as a probe asks it: again while it answers 503 (see retry503). */
export async function healthWhenReady (host: TestHost): Promise<{ status: number, body: Record<string, any> }> {
  const res = await retry503(() => host.api('/health'))
  return { status: res.status, body: await res.json() as Record<string, any> }
}
