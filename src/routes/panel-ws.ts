import type { FastifyInstance, FastifyRequest } from 'fastify'
import WebSocket from 'ws'
import { AfhttpError } from '../errors.js'
import { failedCheck } from '../browser/live-checks.js'
import { WS_MESSAGE_BYTES_MAX } from '../limits.js'
import { sameOrigin } from '../panel/http.js'
import { newViewerId } from '../panel/viewer.js'

interface TabQuery { Querystring: { tab?: string } }

/** A silent peer (a phone that slept) is dropped, so its control becomes human_disconnected. */
const PING_EVERY_MS = 15_000
/** Messages kept while the tab's panel opens (a held first press and what follows it). */
const EARLY_MAX = 512

/**
 * GET /panel/ws (docs/spec.md sections 9, 10, 12): the panel's one WebSocket. The upgrade needs a
 * same-origin Origin, a valid lease and passing live checks; then frames flow down as binary
 * messages and control/input flows up as small JSON messages.
 */
export default async function panelWsRoutes (app: FastifyInstance): Promise<void> {
  const admit = async (req: FastifyRequest<TabQuery>): Promise<void> => {
    if (!sameOrigin(req, app.config.publicUrl)) throw new AfhttpError('panel_origin_refused')
    const tab = req.query.tab ? app.tabs.find(req.query.tab) : undefined
    if (!tab || !app.panel.leaseFor(req, tab.id)) throw new AfhttpError('panel_lease_invalid')
    const failed = failedCheck(await app.handoffs.liveChecks(tab, { keepStreaming: true }))
    if (failed) throw new AfhttpError('takeover_unavailable', `Live check ${failed.name} failed: ${failed.error}`, { check: failed.name })
  }

  app.get<TabQuery>('/panel/ws', { websocket: true, preValidation: admit }, async (socket, req) => {
    // Messages that arrive while the tab's panel is being opened are kept, in order.
    const early: string[] = []
    const inbox: { deliver?: (text: string) => void } = {}
    let alive = true
    socket.on('message', (data: WebSocket.RawData, isBinary: boolean) => {
      const size = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : (data as Buffer).length
      if (isBinary || size > WS_MESSAGE_BYTES_MAX) {
        socket.close(1009, `messages are JSON text of at most ${WS_MESSAGE_BYTES_MAX} bytes`)
        return
      }
      const text = data.toString()
      if (inbox.deliver) inbox.deliver(text)
      else if (early.length < EARLY_MAX) early.push(text)
      // Not dropped without a word (docs/spec.md section 17): the panel tells the person.
      else socket.send(JSON.stringify({ t: 'refused', action: 'input', reason: 'busy', message: 'The page was not ready for that yet; it was not sent.' }))
    })
    socket.on('pong', () => { alive = true })
    const ping = setInterval(() => {
      if (!alive) { socket.terminate(); return }
      alive = false
      socket.ping()
    }, PING_EVERY_MS)
    ping.unref()
    socket.on('close', () => clearInterval(ping))

    const tab = app.tabs.find(req.query.tab ?? '')
    const lease = tab && app.panel.leaseFor(req, tab.id)
    if (!tab || !lease) { socket.close(4401, 'lease ended'); return }
    let panel
    try {
      panel = await app.panel.open(tab)
    } catch (err) {
      req.log.warn({ err, tab_id: tab.id }, 'panel could not open the tab')
      socket.close(1011, 'the tab could not be opened')
      return
    }
    if (panel.closed || socket.readyState !== WebSocket.OPEN) { socket.close(4410, 'handoff ended'); return }
    // Announced before joining: a first viewer takes control as it joins (handoff.control follows).
    const fence = lease.fence
    const viewerId = newViewerId()
    app.lifecycle.emit('handoff.viewer_joined', { tab_id: tab.id, profile: tab.profile }, { handoff_fence: fence, viewers: panel.viewers.size + 1, viewer_id: viewerId, mode: lease.mode })
    const viewer = panel.join(socket, lease, viewerId)
    req.log.info({ tab_id: tab.id, viewer: viewer.id, viewers: panel.viewers.size }, 'panel viewer connected')
    socket.on('close', (code: number) => {
      panel.leave(viewer)
      app.lifecycle.emit('handoff.viewer_left', { tab_id: tab.id, profile: tab.profile }, { handoff_fence: fence, viewers: panel.viewers.size, viewer_id: viewer.id })
      app.metrics.viewerLeft(viewer.sink.sent, viewer.sink.skipped)
      req.log.info({ tab_id: tab.id, viewer: viewer.id, code, frames_sent: viewer.sink.sent, frames_skipped: viewer.sink.skipped }, 'panel viewer left')
    })
    inbox.deliver = (text) => {
      // A socket listener that throws takes the whole host down: one message's failure is that message's.
      try {
        panel.receive(viewer, text)
      } catch (err) {
        req.log.error({ err, tab_id: tab.id, viewer: viewer.id }, 'a panel message could not be handled')
      }
    }
    for (const text of early.splice(0)) inbox.deliver(text)
  })
}
