// The panel's links to the host: one WebSocket (reconnected with backoff), the status
// poll behind the connection banner (SPEC section 9: shown after 3 failed polls, cleared
// by itself), and the UI lease renewal (SPEC section 7).

const STATUS_EVERY_MS = 2_000
const STATUS_TIMEOUT_MS = 2_500
const BANNER_AFTER_FAILURES = 3
const LEASE_EVERY_MS = 20_000
const BACKOFF_FIRST_MS = 250
const BACKOFF_MAX_MS = 5_000
/** Close codes after which reconnecting cannot help. */
const FINAL_CODES = new Set([1000, 4401, 4410])

// Relative to the panel document, so a path prefix in front of the host is kept.
const api = (path, tab) => `api/${path}?tab=${encodeURIComponent(tab)}`

export class Socket {
  constructor ({ tab, onOpen, onFrame, onMessage, onDown, onFinal, stats }) {
    Object.assign(this, { tab, onOpen, onFrame, onMessage, onDown, onFinal, stats })
    this.ws = null
    this.attempt = 0
    this.stopped = false
  }

  connect () {
    if (this.stopped) return
    const url = new URL(`ws?tab=${encodeURIComponent(this.tab)}`, location.href)
    url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:'
    const ws = new WebSocket(url)
    ws.binaryType = 'arraybuffer'
    this.ws = ws
    ws.onopen = () => {
      this.attempt = 0
      this.stats.ws_connects++
      this.onOpen()
    }
    ws.onmessage = (ev) => {
      if (typeof ev.data === 'string') this.onMessage(JSON.parse(ev.data))
      else this.onFrame(ev.data)
    }
    ws.onclose = (ev) => {
      if (this.ws !== ws) return
      this.ws = null
      if (FINAL_CODES.has(ev.code) || this.stopped) { this.stopped = true; this.onFinal(ev.code, ev.reason); return }
      const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** this.attempt++) * (0.75 + Math.random() / 2)
      this.onDown(Math.round(delay))
      setTimeout(() => this.connect(), delay)
    }
  }

  get open () { return this.ws?.readyState === WebSocket.OPEN }

  send (msg) {
    if (!this.open) return false
    this.ws.send(JSON.stringify(msg))
    return true
  }

  stop () {
    this.stopped = true
    this.ws?.close(1000)
  }
}

/** Polls GET /panel/api/status; `onStatus(body | null, failures, httpStatus)`. */
export function pollStatus (tab, onStatus) {
  let failures = 0
  let timer = 0
  const tick = async () => {
    let body = null
    let status = 0
    try {
      const res = await fetch(api('status', tab), { cache: 'no-store', signal: AbortSignal.timeout(STATUS_TIMEOUT_MS) })
      status = res.status
      body = res.ok ? await res.json() : null
    } catch { /* counted below */ }
    // Any answer from the host clears the banner; only silence or a 5xx counts as lost.
    failures = status && status < 500 ? 0 : failures + 1
    if (onStatus(body, failures, status) !== false) timer = setTimeout(tick, STATUS_EVERY_MS)
  }
  void tick()
  return () => clearTimeout(timer)
}

export const BANNER_THRESHOLD = BANNER_AFTER_FAILURES

/** Renews the UI lease while the panel is open; `onResult(ok, httpStatus, body)`. */
export function renewLease (tab, onResult) {
  const timer = setInterval(async () => {
    try {
      const res = await fetch(api('lease', tab), { method: 'POST', cache: 'no-store' })
      onResult(res.ok, res.status, await res.json().catch(() => null))
    } catch {
      onResult(false, 0, null)
    }
  }, LEASE_EVERY_MS)
  return () => clearInterval(timer)
}

export async function declineOverHttp (tab, reason) {
  const res = await fetch(api('decline', tab), {
    method: 'POST', cache: 'no-store', headers: { 'content-type': 'application/json' }, body: JSON.stringify(reason ? { reason } : {})
  })
  return { ok: res.ok, body: await res.json().catch(() => null) }
}

export async function doneOverHttp (tab) {
  const res = await fetch(api('done', tab), { method: 'POST', cache: 'no-store' })
  return { ok: res.ok, body: await res.json().catch(() => null) }
}

/**
 * Sends the chosen files to the host over the lease (one request per file, then the choice),
 * so the page's file input gets them. `{ok, message}`; the host's message says why it refused.
 */
export async function uploadFiles (tab, files) {
  const ids = []
  for (const file of files) {
    const res = await fetch(`${api('files', tab)}&name=${encodeURIComponent(file.name)}`, {
      method: 'POST', cache: 'no-store', headers: { 'content-type': 'application/octet-stream' }, body: file
    })
    const body = await res.json().catch(() => null)
    if (!res.ok) return { ok: false, message: body?.error?.message ?? `The host refused the file (${res.status}).` }
    ids.push(body.file_id)
  }
  const res = await fetch(api('chooser', tab), {
    method: 'POST', cache: 'no-store', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ files: ids })
  })
  const body = await res.json().catch(() => null)
  return res.ok ? { ok: true } : { ok: false, message: body?.error?.message ?? `The host refused the files (${res.status}).` }
}
