import type { FastifyInstance } from 'fastify'
import { API_VERSION, VERSION } from '../version.js'
import { UPLOAD_LIMITS } from '../core/page-ui.js'

export const WAIT_STRATEGIES = ['load', 'domcontentloaded', 'networkidle', 'selector:<css>', 'selector-stable:<css>']
export const CAPTURES = ['html', 'text', 'screenshot']
export const LIMITS = {
  timeout_ms_max: 120_000,
  timeout_ms_default: 30_000,
  body_bytes_max: 1024 * 1024,
  ws_message_bytes_max: 256 * 1024,
  paste_chars_max: 100_000,
  finished_handoffs_per_tab: 64,
  // Files a person may hand to a page's file chooser through the panel (SPEC section 16).
  ...UPLOAD_LIMITS
}

async function defaultBackend (app: FastifyInstance): Promise<string> {
  try {
    return (await app.profiles.get(app.config.defaultProfile)).backend
  } catch {
    return 'chromium'
  }
}

/** Public and static: what this host is configured to do, never live state or secrets. */
export default async function capabilitiesRoutes (app: FastifyInstance): Promise<void> {
  app.get('/capabilities', async () => ({
    service: 'afhttp',
    version: VERSION,
    api_version: API_VERSION,
    // The default profile's configured backend (its metadata), not whether it is running.
    takeover: { configured: true, backend: await defaultBackend(app), provider: 'afhttp-panel' },
    // SPEC section 13: what kind of Chromium a person is handed (resolved at start; auto may fall back).
    browser_mode: app.config.browser.mode,
    browser_mode_configured: app.config.browserModeConfigured,
    wait_strategies: WAIT_STRATEGIES,
    captures: CAPTURES,
    limits: { ...LIMITS, handoff_hold_ms_max: app.config.handoffHoldMs, tab_idle_ms: app.config.tabIdleMs }
  }))
}
