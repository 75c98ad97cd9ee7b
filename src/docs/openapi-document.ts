import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { buildApp } from '../app.js'
import { loadConfig } from '../config.js'

const OFFLINE_TOKEN = 'openapi-document-only-0123456789'

/**
 * The OpenAPI document exactly as a host serves it at /docs/openapi.json, built without
 * listening or starting a browser (a throwaway profiles directory), so `npm run docs:api`
 * and the drift test need nothing running.
 */
export async function openApiDocument (): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(join(tmpdir(), 'afhttp-openapi-'))
  try {
    const config = loadConfig({ AFHTTP_PROFILES_DIR: dir, AFHTTP_TOKEN: OFFLINE_TOKEN, AFHTTP_BROWSER_MODE: 'headless', AFHTTP_PORT: '0' })
    const app = await buildApp(config, { token: OFFLINE_TOKEN, logger: pino({ level: 'silent' }), startBrowser: false })
    try {
      await app.ready()
      // Through JSON, as it goes on the wire: no prototype or hidden TypeBox keys.
      return JSON.parse(JSON.stringify(app.swagger())) as Record<string, unknown>
    } finally {
      await app.close()
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
