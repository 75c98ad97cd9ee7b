// A person's panel and a probe both try again when the host answers 503: a live check can miss its
// bound for a moment on a loaded machine (docs/spec.md section 9). Tests that call those routes
// directly do the same, a few times; a host that is really unavailable answers 503 every time and
// the caller's assertion on the last answer fails.
import WebSocket from 'ws'

const TRIES = 4

export async function retry503 (call: () => Promise<Response>): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const res = await call()
    if (res.status !== 503 || attempt === TRIES) return res
    await res.body?.cancel()
    await new Promise((resolve) => setTimeout(resolve, 1000 * attempt))
  }
}

/**
 * Opens `url` as a WebSocket with `headers`, again after a 503 upgrade; rejects on any other
 * refusal. `prepare` gets each socket as soon as it exists, so its listeners hear the messages the
 * host sends right after the upgrade.
 */
export async function openSocketRetrying (url: string, headers: Record<string, string>, prepare: (ws: WebSocket) => void): Promise<WebSocket> {
  for (let attempt = 1; ; attempt++) {
    const ws = new WebSocket(url, { headers })
    prepare(ws)
    const status = await new Promise<number>((resolve, reject) => {
      ws.once('open', () => resolve(101))
      ws.once('unexpected-response', (_req, res) => { resolve(res.statusCode ?? 0); res.resume() })
      ws.once('error', reject)
    })
    if (status === 101) return ws
    ws.terminate()
    if (status !== 503 || attempt === TRIES) throw new Error(`upgrade refused: ${status}`)
    await new Promise((resolve) => setTimeout(resolve, 1000 * attempt))
  }
}
