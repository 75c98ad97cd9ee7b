// The panel's socket, able to start before anyone listens (docs/panel.md "The first frame"). The
// panel document's first script opens it while the bundle is still loading: the host's live
// checks, the join and the first frame then overlap the viewer's own loading instead of following
// it. Until the panel attaches, every event is held in order; frames are acked as they arrive,
// here and only here, so the host never has more on its way than the link carries, not even
// before the panel runs (docs/panel.md "A slow viewer").
import type { PanelWireMessage } from '../panel/messages.js'

export interface HeldSocketHandlers {
  open: () => void
  /** A text message (JSON from the host) or a binary one (a frame or a still). */
  message: (data: string | ArrayBuffer) => void
  close: (code: number, reason: string) => void
}

type HeldEvent = { t: 'open' } | { t: 'message', data: string | ArrayBuffer } | { t: 'close', code: number, reason: string }

declare global {
  interface Window {
    /** The socket the panel document's first script opened for the bundle to take (early.ts). */
    afhttpEarlySocket?: HeldSocket
  }
}

/** The panel socket's address for a tab, relative to the panel document (a path prefix is kept). */
export function panelSocketUrl (tab: string): string {
  const url = new URL(`ws?tab=${encodeURIComponent(tab)}`, location.href)
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:'
  return url.href
}

export class HeldSocket {
  readonly ws: WebSocket
  /** When it opened (epoch ms, as the panel's stats count time), or null. */
  openedAt: number | null = null
  /** Binary messages received, which is what each ack says. */
  received = 0
  #held: HeldEvent[] = []
  #handlers: HeldSocketHandlers | undefined

  constructor (url: string) {
    const ws = this.ws = new WebSocket(url)
    ws.binaryType = 'arraybuffer'
    ws.onopen = () => {
      this.openedAt = performance.timeOrigin + performance.now()
      // Says at once that this viewer acks, before the first frame arrives.
      this.#ack()
      this.#emit({ t: 'open' })
    }
    ws.onmessage = (ev: MessageEvent<string | ArrayBuffer>) => {
      // Counted as it arrives, before anything decodes it.
      if (typeof ev.data !== 'string') { this.received++; this.#ack() }
      this.#emit({ t: 'message', data: ev.data })
    }
    ws.onclose = (ev) => { this.#emit({ t: 'close', code: ev.code, reason: ev.reason }) }
  }

  /** Hands every event to `handlers`, first those held so far, in the order they came. */
  attach (handlers: HeldSocketHandlers): void {
    this.#handlers = handlers
    for (const ev of this.#held.splice(0)) this.#deliver(ev)
  }

  #ack (): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ t: 'ack', n: this.received } satisfies PanelWireMessage))
  }

  #emit (ev: HeldEvent): void {
    if (this.#handlers) this.#deliver(ev)
    else this.#held.push(ev)
  }

  #deliver (ev: HeldEvent): void {
    const h = this.#handlers!
    if (ev.t === 'open') h.open()
    else if (ev.t === 'message') h.message(ev.data)
    else h.close(ev.code, ev.reason)
  }
}
