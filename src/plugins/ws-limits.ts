import type { Socket } from 'node:net'
import WebSocket from 'ws'
import type { WebsocketPluginOptions } from '@fastify/websocket'

/**
 * Per-route WebSocket message limits. @fastify/websocket shares one ws server (and so one
 * `maxPayload`) between every WebSocket route: the panel needs its small limit, the CDP
 * passthrough needs a large one (Playwright sends messages over 256 KiB early in a session).
 * A route claims its limit on the raw socket before the upgrade completes; this class, given to
 * the ws server as its `WebSocket`, applies it when the connection's receiver is made.
 */
const limits = new WeakMap<Socket, number>()

/** Called from a route's onRequest hook, before the upgrade: this connection gets `maxPayload`. */
export function claimMessageLimit (socket: Socket, maxPayload: number): void {
  limits.set(socket, maxPayload)
}

export class RouteLimitedWebSocket extends WebSocket {
  // setSocket is where ws makes the receiver that enforces maxPayload; the server passes its own.
  setSocket (socket: Socket, head: Buffer, options: Record<string, unknown>): void {
    const claimed = limits.get(socket)
    const parent = WebSocket.prototype as unknown as { setSocket: (s: Socket, h: Buffer, o: Record<string, unknown>) => void }
    parent.setSocket.call(this, socket, head, claimed === undefined ? options : { ...options, maxPayload: claimed })
  }
}

/** The class as ws's server options type it (the static helpers are inherited at run time). */
export const routeLimitedWebSocket = RouteLimitedWebSocket as unknown as NonNullable<WebsocketPluginOptions['options']>['WebSocket']
