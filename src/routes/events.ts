import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { AfhttpError, invalidRequest } from '../errors.js'
import { formatSse, parseLastEventId } from '../core/event-journal.js'
import { EventsQuery } from '../schemas/index.js'

import { SSE_CLIENTS_MAX } from '../limits.js'
export { SSE_CLIENTS_MAX }
export const SSE_HEARTBEAT_MS = 15_000
/** A stream whose reader falls this far behind is closed; it resumes with Last-Event-ID. */
export const SSE_BUFFER_MAX_BYTES = 1024 * 1024
const RETRY_MS = 2_000

/** GET /v1/events: the server-sent event stream of docs/spec.md section 15. */
export default async function eventsRoutes (app: FastifyInstance): Promise<void> {
  const streams = new Set<() => void>()
  app.addHook('preClose', async () => { for (const end of [...streams]) end() })

  app.withTypeProvider<TypeBoxTypeProvider>().get('/v1/events', { schema: { summary: 'Server-sent events (text/event-stream); Last-Event-ID resumes', querystring: EventsQuery } }, async (req, reply) => {
    const lastId = parseLastEventId(req.headers['last-event-id'] ?? req.query.last_event_id)
    if (lastId === 'invalid') throw invalidRequest('Last-Event-ID', 'must be an event id this stream sent (digits)')
    const heartbeatMs = req.query.heartbeat_ms === undefined ? SSE_HEARTBEAT_MS : Number(req.query.heartbeat_ms)
    if (heartbeatMs < 1_000 || heartbeatMs > 60_000) throw invalidRequest('heartbeat_ms', 'must be between 1000 and 60000')
    if (streams.size >= SSE_CLIENTS_MAX) throw new AfhttpError('rate_limited', `At most ${SSE_CLIENTS_MAX} event streams may be open at once.`, { limit: SSE_CLIENTS_MAX })
    reply.hijack()
    const res = reply.raw
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no'
    })
    let ended = false
    let unsubscribe = (): void => undefined
    const heartbeat = setInterval(() => write(': heartbeat\n\n'), heartbeatMs)
    heartbeat.unref()
    const end = (): void => {
      if (ended) return
      ended = true
      streams.delete(end)
      unsubscribe()
      clearInterval(heartbeat)
      res.end()
    }
    const write = (text: string): void => {
      if (ended) return
      res.write(text)
      if (res.writableLength > SSE_BUFFER_MAX_BYTES) {
        req.log.warn({ buffered: res.writableLength }, 'event stream reader is too slow; closing it (it resumes with Last-Event-ID)')
        end()
      }
    }
    // Resume and subscribe in one turn of the event loop: nothing can be published between them.
    const { gap, events } = app.events.journal.resume(lastId)
    write(`retry: ${RETRY_MS}\n: afhttp events\n\n`)
    if (gap) write(formatSse(gap))
    for (const e of events) write(formatSse(e))
    if (ended) return
    unsubscribe = app.events.subscribe((e) => write(formatSse(e)))
    streams.add(end)
    res.on('close', end)
  })
}
