import type { FastifyInstance } from 'fastify'
import WebSocket from 'ws'
import { PROFILE_NAME_RE } from '../config.js'
import { CdpSessionMap } from '../core/cdp-sessions.js'
import { noteClientAttached } from '../browser/client-attached.js'
import { heldCommandMessage, nestedCommand, pageEffectOf } from '../core/cdp-hold.js'
import { claimMessageLimit } from '../plugins/ws-limits.js'
import { holdOnTarget } from './cdp-holds.js'

// The passthrough's own WebSocket limits (larger than the panel's): see src/limits.ts.
import { CDP_BROWSER_MAX_MESSAGE_BYTES, CDP_PASSTHROUGH_MAX_MESSAGE_BYTES } from '../limits.js'
export { CDP_BROWSER_MAX_MESSAGE_BYTES, CDP_PASSTHROUGH_MAX_MESSAGE_BYTES }
const MAX_PENDING = 1000
const MAX_CLIENT_BUFFER = 64 * 1024 * 1024

// Closing the host's own browser from outside would strand every tab and handoff.
export const REFUSED_METHODS = new Set(['Browser.close', 'Browser.crash', 'Browser.crashGpuProcess'])

interface ClientCommand { id?: number, method?: string, params?: unknown, sessionId?: string }

function parseCommand (text: string): ClientCommand | undefined {
  try {
    const msg = JSON.parse(text) as ClientCommand
    return msg && typeof msg === 'object' ? msg : undefined
  } catch { return undefined } // not JSON: the browser will answer it
}

/** GET /v1/profiles/:name/cdp: the browser's CDP socket, behind the token and the holds. */
export default async function cdpPassthroughRoutes (app: FastifyInstance): Promise<void> {
  app.get<{ Params: { name: string } }>('/v1/profiles/:name/cdp', {
    websocket: true,
    // Only an upgrade claims: a plain request on a keep-alive socket must not lend its limit
    // to a later upgrade of another route on the same socket.
    onRequest: async (req) => { if (req.ws) claimMessageLimit(req.raw.socket, CDP_PASSTHROUGH_MAX_MESSAGE_BYTES) }
  }, async (client, req) => {
    const { name } = req.params
    // A window this client attached to is never reset for another fetch (see WindowUse).
    const sessions = new CdpSessionMap(noteClientAttached)
    // Messages sent before the upstream opens are held in order, then forwarded.
    const pending: WebSocket.RawData[] = []
    let upstream: WebSocket | undefined = undefined
    const answer = (cmd: ClientCommand, message: string): void => {
      client.send(JSON.stringify({ id: cmd.id, ...(cmd.sessionId ? { sessionId: cmd.sessionId } : {}), error: { code: -32000, message } }))
    }
    /** A refusal message for a command the host will not forward, or undefined. */
    const refusal = (cmd: ClientCommand): string | undefined => {
      if (!cmd.method) return undefined
      if (REFUSED_METHODS.has(cmd.method)) return `${cmd.method} is not allowed through afhttp; the host owns the browser's lifetime`
      const nested = nestedCommand(cmd.method, cmd.params)
      const effect = nested ? pageEffectOf(nested.method, nested.params) : pageEffectOf(cmd.method, cmd.params)
      if (!effect) return undefined
      const sessionTarget = nested ? nested.targetId ?? sessions.targetOf(nested.sessionId) : sessions.targetOf(cmd.sessionId)
      const targetId = effect.scope === 'target' ? effect.targetId : sessionTarget
      const held = holdOnTarget(app, targetId)
      return held ? heldCommandMessage(nested?.method ?? cmd.method, held.message) : undefined
    }
    const forward = (data: WebSocket.RawData): void => {
      if (!upstream || upstream.readyState !== WebSocket.OPEN) {
        if (pending.length >= MAX_PENDING) { client.close(1013, 'too many messages before the browser was ready'); return }
        pending.push(data)
        return
      }
      const text = data.toString()
      const cmd = parseCommand(text)
      const refused = cmd && cmd.id !== undefined ? refusal(cmd) : undefined
      if (cmd && refused) { answer(cmd, refused); return }
      upstream.send(text)
    }
    client.on('message', (data) => forward(data as WebSocket.RawData))
    client.on('close', () => upstream?.close())
    if (!PROFILE_NAME_RE.test(name)) {
      client.close(1008, 'invalid profile name')
      return
    }
    let endpoint: string
    try {
      endpoint = (await app.browsers.get(name)).wsEndpoint()
    } catch (err) {
      client.close(1011, (err as Error).message.slice(0, 120))
      return
    }
    if (client.readyState !== WebSocket.OPEN) return
    const up = new WebSocket(endpoint, { perMessageDeflate: false, maxPayload: CDP_BROWSER_MAX_MESSAGE_BYTES })
    upstream = up
    up.on('open', () => { for (const data of pending.splice(0)) forward(data) })
    up.on('message', (data, isBinary) => {
      if (client.readyState !== WebSocket.OPEN) return
      // A client that stops reading must not grow the host's memory without bound.
      if (client.bufferedAmount > MAX_CLIENT_BUFFER) { client.close(1013, 'client is not reading'); return }
      if (!isBinary && Buffer.isBuffer(data) && CdpSessionMap.mayConcern(data)) sessions.observe(data.toString())
      client.send(data, { binary: isBinary })
    })
    up.on('close', () => client.close())
    up.on('error', (err) => { req.log.warn({ err }, 'CDP passthrough upstream error'); client.close(1011) })
  })
}
