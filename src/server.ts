import closeWithGrace from 'close-with-grace'
import { buildApp } from './app.js'
import { ConfigError, isLoopback, loadConfig } from './config.js'
import { createLogger } from './logger.js'
import { resolveToken } from './store/token.js'

/** env → config → token → buildApp → listen, with a graceful close on signals. */
export async function serve (env: Record<string, string | undefined> = process.env): Promise<void> {
  let config
  try {
    config = loadConfig(env)
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`afhttp: ${err.message}\n`)
      process.exit(2)
    }
    throw err
  }
  const logger = createLogger(config.logLevel)
  let resolved
  try {
    resolved = await resolveToken(config.token, config.profilesDir)
  } catch (err) {
    const why = `AFHTTP_TOKEN is unset and ${config.profilesDir}/.afhttp-token could not be created (${(err as Error).message})`
    process.stderr.write(isLoopback(config.host)
      ? `afhttp: no API token: ${why}\n`
      : `afhttp: refusing to bind ${config.host} without a token: ${why}\n`)
    process.exit(2)
  }
  if (resolved.source !== 'env') logger.info({ token_file: resolved.file, source: resolved.source }, 'API token is stored in the profiles directory')

  const app = await buildApp(config, { token: resolved.token, logger })
  closeWithGrace({ delay: 10_000, logger }, async ({ signal, err }) => {
    if (err) logger.error({ err }, 'closing after an uncaught error')
    else logger.info({ signal }, 'closing')
    await app.close()
    logger.flush()
  })
  try {
    await app.listen({ host: config.host, port: config.port })
  } catch (err) {
    // The browser started on ready: close it and the profile locks instead of hanging.
    process.stderr.write(`afhttp: cannot listen on ${config.host}:${config.port}: ${(err as Error).message}\n`)
    await app.close()
    process.exit(1)
  }
}
