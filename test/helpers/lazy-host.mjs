// A host in its own process, built from dist/ like `afhttp serve`, whose browser starts with the
// first fetch instead of before it listens. For tests that need a process of their own (e.g. its
// own NODE_EXTRA_CA_CERTS) on a machine loaded enough that a browser start can exceed the ready
// hook's 10 s bound. Configured by the same AFHTTP_* environment; SIGTERM closes it gracefully.
import { buildApp } from '../../dist/app.js'
import { loadConfig } from '../../dist/config.js'
import { createLogger } from '../../dist/logger.js'
import { resolveToken } from '../../dist/store/token.js'

const config = loadConfig(process.env)
const logger = createLogger(config.logLevel)
const { token } = await resolveToken(config.token, config.profilesDir)
const app = await buildApp(config, { token, logger, startBrowser: false })
await app.listen({ host: config.host, port: config.port })
process.once('SIGTERM', () => { app.close().then(() => process.exit(0), () => process.exit(1)) })
