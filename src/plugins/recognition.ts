import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { recognitionThreads } from '../fetch/recognize.js'

/**
 * Large pages are recognized on worker threads (src/fetch/recognize.ts). A lost thread costs
 * only time (its page is recognized on the event loop instead), but an operator should hear of
 * it: panels stall while a large page is read there.
 */
async function recognitionPlugin (app: FastifyInstance): Promise<void> {
  const stop = recognitionThreads.onFailure((reason) => {
    app.log.warn({ reason }, 'a recognition thread was lost: its page was recognized on the event loop')
  })
  app.addHook('onClose', async () => { stop() })
}

export default fp(recognitionPlugin, { name: 'afhttp-recognition' })
