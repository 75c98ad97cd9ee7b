import type { FastifyInstance } from 'fastify'
import type { CDPSession } from 'puppeteer-core'
import WebSocket from 'ws'
import { AfhttpError } from '../errors.js'
import { PROFILE_NAME_RE } from '../config.js'

interface CdpBody { profile?: string, method: string, params?: Record<string, unknown>, tab_id?: string }

const cdpBody = {
  type: 'object',
  additionalProperties: false,
  required: ['method'],
  properties: {
    profile: { type: 'string', pattern: PROFILE_NAME_RE.source },
    method: { type: 'string', pattern: '^[A-Za-z]+\\.[A-Za-z]+$', maxLength: 128 },
    params: { type: 'object' },
    tab_id: { type: 'string', minLength: 1, maxLength: 64 }
  }
} as const

// Closing the host's own browser from outside would strand every tab and handoff.
const MAX_PENDING = 1000
const MAX_CLIENT_BUFFER = 64 * 1024 * 1024

const REFUSED_METHODS = new Set(['Browser.close', 'Browser.crash', 'Browser.crashGpuProcess'])

/** Raw CDP, explicit and low level (SPEC section 5): no anchor protection here. */
export default async function cdpRoutes (app: FastifyInstance): Promise<void> {
  app.post<{ Body: CdpBody }>('/v1/cdp', { schema: { body: cdpBody } }, async (req) => {
    const { method, params = {}, tab_id: tabId } = req.body
    if (REFUSED_METHODS.has(method)) throw new AfhttpError('invalid_request', `method: ${method} is not allowed; the host owns the browser's lifetime`, { field: 'method' })
    let session: CDPSession
    if (tabId) {
      const tab = app.tabs.get(tabId)
      if (req.body.profile && req.body.profile !== tab.profile) throw new AfhttpError('invalid_request', `tab_id: the tab belongs to profile ${tab.profile}`, { field: 'tab_id' })
      app.tabs.assertAgentMayAct(tab)
      app.tabs.touch(tab.id)
      session = await tab.page.createCDPSession()
    } else {
      const browser = await app.browsers.get(req.body.profile ?? app.config.defaultProfile)
      session = await browser.target().createCDPSession()
    }
    try {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const result = await session.send(method as any, params as any)
      return { result }
    } catch (err) {
      throw new AfhttpError('cdp_command_failed', `${method}: ${(err as Error).message}`, { method })
    } finally {
      await session.detach().catch(() => undefined)
    }
  })

  app.get<{ Params: { name: string } }>('/v1/profiles/:name/cdp', { websocket: true }, async (client, req) => {
    const { name } = req.params
    // Messages sent before the upstream opens are held in order, then forwarded.
    const pending: WebSocket.RawData[] = []
    let upstream: WebSocket | undefined = undefined
    const forward = (data: WebSocket.RawData): void => {
      if (!upstream || upstream.readyState !== WebSocket.OPEN) {
        if (pending.length >= MAX_PENDING) { client.close(1013, 'too many messages before the browser was ready'); return }
        pending.push(data)
        return
      }
      const text = data.toString()
      const refused = refusedCommand(text)
      if (refused) {
        client.send(JSON.stringify({ id: refused.id, error: { code: -32000, message: `${refused.method} is not allowed through afhttp; the host owns the browser's lifetime` } }))
        return
      }
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
    const up = new WebSocket(endpoint, { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 })
    upstream = up
    up.on('open', () => { for (const data of pending.splice(0)) forward(data) })
    up.on('message', (data, isBinary) => {
      if (client.readyState !== WebSocket.OPEN) return
      // A client that stops reading must not grow the host's memory without bound.
      if (client.bufferedAmount > MAX_CLIENT_BUFFER) { client.close(1013, 'client is not reading'); return }
      client.send(data, { binary: isBinary })
    })
    up.on('close', () => client.close())
    up.on('error', (err) => { req.log.warn({ err }, 'CDP passthrough upstream error'); client.close(1011) })
  })
}

function refusedCommand (text: string): { id: number, method: string } | undefined {
  try {
    const msg = JSON.parse(text) as { id?: number, method?: string, sessionId?: string }
    if (msg.method && REFUSED_METHODS.has(msg.method) && msg.id !== undefined) return { id: msg.id, method: msg.method }
  } catch { /* not JSON: the browser will answer it */ }
  return undefined
}
