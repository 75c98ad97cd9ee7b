import type { FastifyInstance } from 'fastify'
import WebSocket from 'ws'
import { PROFILE_NAME_RE } from '../config.js'
import { CdpSessionMap } from '../core/cdp-sessions.js'
import { noteClientAttached } from '../browser/client-attached.js'
import { DeferredEmulations, heldCommandMessage, isDeferredEmulation, nestedCommand, pageEffectOf } from '../core/cdp-hold.js'
import { claimMessageLimit } from '../plugins/ws-limits.js'
import { holdOnTarget } from './cdp-holds.js'

// The passthrough's own WebSocket limits (larger than the panel's): see src/limits.ts.
import { CDP_BROWSER_MAX_MESSAGE_BYTES, CDP_PASSTHROUGH_MAX_MESSAGE_BYTES } from '../limits.js'
export { CDP_BROWSER_MAX_MESSAGE_BYTES, CDP_PASSTHROUGH_MAX_MESSAGE_BYTES }
const MAX_PENDING = 1000
const MAX_CLIENT_BUFFER = 64 * 1024 * 1024
/** How often deferred emulations look whether their tab's hold has ended. */
const DEFERRED_CHECK_MS = 250
/** Ids of the host's own commands on a client's connection (deferred emulations): above any client's. */
const OWN_ID_BASE = 2_000_000_000

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
    /** A refusal message for a command the host will not forward (with the held target), or undefined. */
    const refusal = (cmd: ClientCommand): { message: string, targetId?: string, nested?: boolean } | undefined => {
      if (!cmd.method) return undefined
      if (REFUSED_METHODS.has(cmd.method)) return { message: `${cmd.method} is not allowed through afhttp; the host owns the browser's lifetime` }
      const nested = nestedCommand(cmd.method, cmd.params)
      const effect = nested ? pageEffectOf(nested.method, nested.params) : pageEffectOf(cmd.method, cmd.params)
      if (!effect) return undefined
      const sessionTarget = nested ? nested.targetId ?? sessions.targetOf(nested.sessionId) : sessions.targetOf(cmd.sessionId)
      const targetId = effect.scope === 'target' ? effect.targetId : sessionTarget
      const held = holdOnTarget(app, targetId)
      return held ? { message: heldCommandMessage(nested?.method ?? cmd.method, held.message), targetId, nested: nested !== undefined } : undefined
    }
    // Emulations asked for on a held tab (docs/spec.md section 17): acknowledged now, sent when the hold ends.
    const deferred = new DeferredEmulations()
    const ownIds = new Set<number>()
    let nextOwnId = OWN_ID_BASE
    let deferredTimer: NodeJS.Timeout | undefined
    const applyDeferred = (): void => {
      const due = deferred.due((targetId) => holdOnTarget(app, targetId) !== undefined, (sessionId) => sessions.targetOf(sessionId) !== undefined)
      for (const cmd of due) {
        const id = nextOwnId++
        ownIds.add(id)
        upstream?.send(JSON.stringify({ id, method: cmd.method, params: cmd.params ?? {}, sessionId: cmd.sessionId }))
      }
      if (deferred.size === 0) { clearInterval(deferredTimer); deferredTimer = undefined }
    }
    const defer = (cmd: ClientCommand, targetId: string): void => {
      deferred.add(targetId, { sessionId: cmd.sessionId!, method: cmd.method!, params: cmd.params })
      client.send(JSON.stringify({ id: cmd.id, sessionId: cmd.sessionId, result: {} }))
      deferredTimer ??= setInterval(applyDeferred, DEFERRED_CHECK_MS)
      deferredTimer.unref()
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
      if (cmd && refused) {
        if (refused.targetId && !refused.nested && cmd.sessionId && isDeferredEmulation(cmd.method ?? '')) defer(cmd, refused.targetId)
        else answer(cmd, refused.message)
        return
      }
      upstream.send(text)
    }
    client.on('message', (data) => forward(data as WebSocket.RawData))
    client.on('close', () => { clearInterval(deferredTimer); upstream?.close() })
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
      // The answer to a deferred emulation the host sent: the client had its answer long ago.
      if (ownIds.size > 0 && !isBinary && Buffer.isBuffer(data) && data.length < 4096) {
        const id = (JSON.parse(data.toString()) as { id?: number }).id
        if (id !== undefined && ownIds.delete(id)) return
      }
      client.send(data, { binary: isBinary })
    })
    up.on('close', () => client.close())
    up.on('error', (err) => { req.log.warn({ err }, 'CDP passthrough upstream error'); client.close(1011) })
  })
}
