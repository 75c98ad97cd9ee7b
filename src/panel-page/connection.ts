// The panel's links to the host: one WebSocket (reconnected with backoff), the status
// poll behind the connection banner (docs/spec.md section 9: shown after 3 failed polls, cleared
// by itself), and the UI lease renewal (docs/spec.md section 7).
import type { HandoffSummary } from '../core/handoff.js'
import type { HostMessage, PanelStatus, PanelWireMessage } from '../panel/messages.js'
import { HeldSocket, panelSocketUrl } from './held-socket.js'
import type { PanelStats } from './stats.js'

const STATUS_EVERY_MS = 2_000
const STATUS_TIMEOUT_MS = 2_500
const BANNER_AFTER_FAILURES = 3
const LEASE_EVERY_MS = 20_000
const BACKOFF_FIRST_MS = 250
const BACKOFF_MAX_MS = 5_000
/** Close codes after which reconnecting cannot help. */
const FINAL_CODES = new Set([1000, 4401, 4410])

// Relative to the panel document, so a path prefix in front of the host is kept.
const api = (path: string, tab: string): string => `api/${path}?tab=${encodeURIComponent(tab)}`

/** The host's error envelope, as far as the panel reads it. */
export interface ErrorBody { error?: { message?: string, details?: { check?: string } } }

export interface SocketHooks {
  tab: string
  stats: PanelStats
  onOpen: () => void
  onFrame: (buffer: ArrayBuffer) => void
  onMessage: (msg: HostMessage) => void
  onDown: (delayMs: number) => void
  onFinal: (code: number, reason: string) => void
}

export class Socket {
  readonly tab: string
  readonly stats: PanelStats
  readonly onOpen: SocketHooks['onOpen']
  readonly onFrame: SocketHooks['onFrame']
  readonly onMessage: SocketHooks['onMessage']
  readonly onDown: SocketHooks['onDown']
  readonly onFinal: SocketHooks['onFinal']
  ws: WebSocket | null
  attempt: number
  stopped: boolean

  constructor ({ tab, onOpen, onFrame, onMessage, onDown, onFinal, stats }: SocketHooks) {
    this.tab = tab; this.onOpen = onOpen; this.onFrame = onFrame; this.onMessage = onMessage
    this.onDown = onDown; this.onFinal = onFinal; this.stats = stats
    this.ws = null
    this.attempt = 0
    this.stopped = false
  }

  connect (): void {
    if (this.stopped) return
    // The first connection takes the socket the document's first script opened, if it did.
    const held = window.afhttpEarlySocket ?? new HeldSocket(panelSocketUrl(this.tab))
    window.afhttpEarlySocket = undefined
    const ws = held.ws
    this.ws = ws
    held.attach({
      open: () => {
        this.attempt = 0
        this.stats.ws_connects++
        this.stats.ws_open_at ??= held.openedAt
        this.onOpen()
      },
      message: (data) => {
        if (typeof data === 'string') this.onMessage(JSON.parse(data) as HostMessage)
        else this.onFrame(data)
      },
      close: (code, reason) => {
        if (this.ws !== ws) return
        this.ws = null
        if (FINAL_CODES.has(code) || this.stopped) { this.stopped = true; this.onFinal(code, reason); return }
        const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** this.attempt++) * (0.75 + Math.random() / 2)
        this.onDown(Math.round(delay))
        setTimeout(() => this.connect(), delay)
      }
    })
  }

  get open (): boolean { return this.ws?.readyState === WebSocket.OPEN }

  send (msg: PanelWireMessage): boolean {
    if (!this.open || !this.ws) return false
    this.ws.send(JSON.stringify(msg))
    return true
  }

  stop (): void {
    this.stopped = true
    this.ws?.close(1000)
  }
}

/** Polls GET /panel/api/status; `onStatus(body | null, failures, httpStatus)`. */
/** `sentAt` (performance.now()) is when the answered request left: see core/panel-status.ts. */
export function pollStatus (tab: string, onStatus: (body: PanelStatus | null, failures: number, httpStatus: number, sentAt: number) => boolean): () => void {
  let failures = 0
  let timer = 0
  const tick = async (): Promise<void> => {
    let body: PanelStatus | null = null
    let status = 0
    const sentAt = performance.now()
    // Not AbortSignal.timeout: Safari before 16 has none, and every poll would count as lost.
    const abort = new AbortController()
    const giveUp = setTimeout(() => abort.abort(), STATUS_TIMEOUT_MS)
    try {
      const res = await fetch(api('status', tab), { cache: 'no-store', signal: abort.signal })
      status = res.status
      body = res.ok ? await res.json() as PanelStatus : null
    } catch { /* counted below */ } finally { clearTimeout(giveUp) }
    // Any answer from the host clears the banner; only silence or a 5xx counts as lost.
    failures = status && status < 500 ? 0 : failures + 1
    if (onStatus(body, failures, status, sentAt) !== false) timer = setTimeout(tick, STATUS_EVERY_MS)
  }
  void tick()
  return () => clearTimeout(timer)
}

export const BANNER_THRESHOLD = BANNER_AFTER_FAILURES

/** Renews the UI lease while the panel is open; `onResult(ok, httpStatus, body)`. */
export function renewLease (tab: string, onResult: (ok: boolean, httpStatus: number, body: ErrorBody | null) => void): () => void {
  const timer = setInterval(async () => {
    try {
      const res = await fetch(api('lease', tab), { method: 'POST', cache: 'no-store' })
      onResult(res.ok, res.status, await res.json().catch(() => null) as ErrorBody | null)
    } catch {
      onResult(false, 0, null)
    }
  }, LEASE_EVERY_MS)
  return () => clearInterval(timer)
}

/** What Done and decline over HTTP answer: the handoff summary, or the error envelope. */
export type HttpAnswer = { ok: true, body: HandoffSummary } | { ok: false, body: ErrorBody | null }

export async function declineOverHttp (tab: string, reason: string): Promise<HttpAnswer> {
  const res = await fetch(api('decline', tab), {
    method: 'POST', cache: 'no-store', headers: { 'content-type': 'application/json' }, body: JSON.stringify(reason ? { reason } : {})
  })
  return { ok: res.ok, body: await res.json().catch(() => null) } as HttpAnswer
}

export async function doneOverHttp (tab: string): Promise<HttpAnswer> {
  const res = await fetch(api('done', tab), { method: 'POST', cache: 'no-store' })
  return { ok: res.ok, body: await res.json().catch(() => null) } as HttpAnswer
}

/**
 * Sends the chosen files to the host over the lease (one request per file, then the choice),
 * so the page's file input gets them. `{ok, message}`; the host's message says why it refused.
 */
export async function uploadFiles (tab: string, files: File[]): Promise<{ ok: boolean, message?: string }> {
  const ids: string[] = []
  for (const file of files) {
    const res = await fetch(`${api('files', tab)}&name=${encodeURIComponent(file.name)}`, {
      method: 'POST', cache: 'no-store', headers: { 'content-type': 'application/octet-stream' }, body: file
    })
    const body = await res.json().catch(() => null) as (ErrorBody & { file_id?: string }) | null
    if (!res.ok || !body?.file_id) return { ok: false, message: body?.error?.message ?? `The host refused the file (${res.status}).` }
    ids.push(body.file_id)
  }
  const res = await fetch(api('chooser', tab), {
    method: 'POST', cache: 'no-store', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ files: ids })
  })
  const body = await res.json().catch(() => null) as ErrorBody | null
  return res.ok ? { ok: true } : { ok: false, message: body?.error?.message ?? `The host refused the files (${res.status}).` }
}
