// The person's input on its way out of the panel (docs/spec.md section 17 "The first touch"). A press,
// tap, key or paste made before the panel may send it — the socket still opening, the host's
// first state (and so control) not yet known, the picture's layout not yet known — is held in
// order and sent once it can be, stamped then with the generation current then; when it can
// never be sent (a view link, another viewer in control, the handoff over) the person is told
// how much was not sent. Nothing is dropped without a word. DOM-free, so unit-tested.
import type { PanelInput } from '../panel/messages.js'

/** Whether input may go now, must wait, or can never go from this panel as things stand. */
export type Gate = 'send' | 'hold' | 'refuse'

/**
 * An input whose message is made when it is sent: a press made before the picture's layout is
 * known is mapped to page pixels once it is. `undefined`: not yet (it and all after it wait);
 * `null`: nothing to send after all.
 */
export type Pending = () => PanelInput | null | undefined

/** At most this many inputs wait (a few seconds of typing); more is refused, visibly. */
export const HELD_MAX = 512

export interface OutboxDeps {
  gate: () => Gate
  deliver: (msg: PanelInput) => void
  /** `count` inputs were not sent; `full` when the wait was too long, not a refusal. */
  refused: (count: number, full: boolean) => void
}

export class Outbox {
  readonly #queue: Pending[] = []
  readonly #deps: OutboxDeps
  /** Inputs the person was told were not sent. */
  refusedCount = 0
  /** Inputs that had to wait before they went. */
  heldCount = 0

  constructor (deps: OutboxDeps) {
    this.#deps = deps
  }

  get held (): number { return this.#queue.length }

  push (input: PanelInput | Pending): void {
    const item: Pending = typeof input === 'function' ? input : () => input
    if (this.#queue.length === 0) {
      const gate = this.#deps.gate()
      if (gate === 'refuse') { this.#refuse(1, false); return }
      if (gate === 'send') {
        const msg = item()
        if (msg !== undefined) { if (msg) this.#deps.deliver(msg); return }
      }
    }
    if (this.#queue.length >= HELD_MAX) { this.#refuse(1, true); return }
    this.heldCount++
    this.#queue.push(item)
    this.flush()
  }

  /** Sends what waits, in order, as far as it can go now; refuses all of it when it never can. */
  flush (): void {
    if (this.#queue.length === 0) return
    const gate = this.#deps.gate()
    if (gate === 'hold') return
    if (gate === 'refuse') { this.#refuse(this.#queue.splice(0).length, false); return }
    while (this.#queue.length > 0 && this.#deps.gate() === 'send') {
      const msg = this.#queue[0]()
      if (msg === undefined) return
      this.#queue.shift()
      if (msg) this.#deps.deliver(msg)
    }
  }

  #refuse (count: number, full: boolean): void {
    this.refusedCount += count
    this.#deps.refused(count, full)
  }
}
