import type { LocalCommand } from './command.js'

/** Starts the host. Arguments other than --help are ignored, as they always were. */
export const serveCommand: LocalCommand = {
  name: 'serve',
  summary: 'start the host (configured by AFHTTP_* environment variables)',
  help: `usage: afhttp serve

Starts the takeover host in the foreground. Configuration comes from the
environment (AFHTTP_HOST, AFHTTP_PORT, AFHTTP_TOKEN, AFHTTP_PROFILES_DIR,
AFHTTP_PUBLIC_URL, AFHTTP_CHROMIUM, ...); see docs/operations.md.`,
  access: 'none',
  async runRaw () {
    // Loaded on demand: client commands should not pay for Fastify and puppeteer at start-up.
    const { serve } = await import('../../server.js')
    await serve()
    return 0
  }
}
