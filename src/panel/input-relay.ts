// Relays a person's input into the page over one CDP session (docs/spec.md section 10).
//
// Events are sent in order without awaiting each one: one session keeps the order, and
// awaiting costs 2–8 ms per event (docs/panel.md "CDP facts" 5). What is pressed is tracked in HeldInput so
// that a viewer leaving never leaves a button or key down in the page.
import type { CDPSession } from 'puppeteer-core'
import type { FastifyBaseLogger } from 'fastify'
import { HeldInput } from '../core/control.js'
import { InputPacer } from './input-pacer.js'
import { keyByCode, MOD, NAMED_KEYS, shortcutFor } from '../vocabulary/keys.js'
import type { InputMessage, MouseButton } from './messages.js'

export interface RelayHooks {
  /** A pointer release or Enter: the moments completion is checked (docs/spec.md section 7). */
  completionMoment (): void
  /** Anything reached the page: the focus indicator should look again. */
  inputSent (): void
  /**
   * A relayed event was acknowledged by Chromium, `seconds` after its viewer message arrived
   * (pacing included). Chromium answers Input.dispatch* once the renderer has handled the
   * event, so this is input → page as the host can see it.
   */
  inputDelivered? (seconds: number, kind: InputKind): void
}

/** What kind of input a latency belongs to (the label of the input → page histogram). */
export type InputKind = 'pointer' | 'wheel' | 'key' | 'text'

const KIND: Record<InputMessage['t'], InputKind> = { mouse: 'pointer', wheel: 'wheel', key: 'key', shortcut: 'key', text: 'text', paste: 'text' }

function heldButton (mask: number): MouseButton {
  if (mask & 1) return 'left'
  if (mask & 2) return 'right'
  if (mask & 4) return 'middle'
  return 'none'
}

export class InputRelay {
  readonly held = new HeldInput()
  readonly #pacer = new InputPacer<InputMessage>()
  readonly #session: CDPSession
  readonly #hooks: RelayHooks
  readonly #log: FastifyBaseLogger
  #timer: NodeJS.Timeout | undefined
  #pos = { x: 0, y: 0 }
  // When each viewer message arrived; a paced move may be sent a frame later.
  readonly #arrived = new WeakMap<InputMessage, number>()
  sent = 0
  dropped = 0
  /** Input that arrived while the page settles after a person's answer (holdUntil), in order. */
  #waiting: InputMessage[] = []
  #holds = 0
  /** Input sent to the page and not yet taken by it (delivered waits for these). */
  readonly #inFlight = new Set<Promise<unknown>>()
  #epoch = 0

  constructor (session: CDPSession, hooks: RelayHooks, log: FastifyBaseLogger) {
    this.#session = session
    this.#hooks = hooks
    this.#log = log
  }

  /** `ahead`: the host's own keys for a person's answer go before input held for that answer. */
  relay (msg: InputMessage, ahead = false): void {
    if (!this.#arrived.has(msg)) this.#arrived.set(msg, performance.now())
    if (this.#holds > 0 && !ahead) {
      this.#waiting.push(msg)
      return
    }
    const paced = this.#pacer.push(msg, msg.t === 'mouse' && msg.type === 'move', performance.now())
    for (const m of paced.now) this.#dispatch(m)
    this.#arm(paced.flushAt)
  }

  /**
   * Later input waits until `settled` (the caller bounds it), then goes on in order: a press
   * made while the browser still closes a list the person just answered would only close that
   * list (Chromium swallows it), so it waits for the list to be gone (docs/spec.md section 17).
   */
  holdUntil (settled: Promise<unknown>): void {
    this.#holds++
    const release = (): void => {
      if (--this.#holds > 0) return
      const waiting = this.#waiting
      this.#waiting = []
      for (const m of waiting) this.relay(m)
    }
    settled.then(release, release)
  }

  /** Resolves once everything sent so far has been taken by the page (or refused by the browser). */
  async delivered (): Promise<void> {
    await Promise.allSettled([...this.#inFlight])
  }

  /** Changes each time control moves on and held input is dropped (dropQueued). */
  get epoch (): number {
    return this.#epoch
  }

  /** Control moved on: a move still waiting for its slot must not land, nor held input. */
  dropQueued (): void {
    this.#epoch++
    this.dropped += this.#waiting.length
    this.#waiting = []
    if (this.#pacer.drop()) this.dropped++
    clearTimeout(this.#timer)
    this.#timer = undefined
  }

  /** Lets go of everything the leaving viewer held, most recent first. */
  releaseHeld (): void {
    for (const entry of this.held.drain()) {
      if (entry.kind === 'mouse') {
        this.#send('Input.dispatchMouseEvent', { type: 'mouseReleased', ...this.#pos, button: entry.id, buttons: 0, clickCount: 1 })
      } else {
        const spec = keyByCode(entry.id)
        if (spec) this.#send('Input.dispatchKeyEvent', { type: 'keyUp', key: spec.key, code: spec.code, windowsVirtualKeyCode: spec.keyCode })
      }
    }
  }

  #arm (at: number | undefined): void {
    if (at === undefined || this.#timer) return
    this.#timer = setTimeout(() => {
      this.#timer = undefined
      const paced = this.#pacer.flush(performance.now())
      for (const m of paced.now) this.#dispatch(m)
      this.#arm(paced.flushAt)
    }, Math.max(0, at - performance.now()))
  }

  #send (method: 'Input.dispatchMouseEvent' | 'Input.dispatchKeyEvent' | 'Input.insertText', params: Record<string, unknown>, from?: InputMessage): void {
    this.sent++
    const arrived = from && this.#arrived.get(from)
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const sent = this.#session.send(method, params as any).then(() => {
      if (arrived !== undefined && from) this.#hooks.inputDelivered?.((performance.now() - arrived) / 1000, KIND[from.t])
    }, (err: unknown) => {
      this.#log.debug({ err, method }, 'relayed input was not delivered')
    })
    this.#inFlight.add(sent)
    void sent.finally(() => this.#inFlight.delete(sent))
  }

  #dispatch (m: InputMessage): void {
    switch (m.t) {
      case 'mouse': {
        this.#pos = { x: m.x, y: m.y }
        if (m.type === 'down') this.held.press('mouse', m.button)
        if (m.type === 'up') this.held.release('mouse', m.button)
        const type = m.type === 'down' ? 'mousePressed' : m.type === 'up' ? 'mouseReleased' : 'mouseMoved'
        const buttons = this.held.mouseButtons
        // Every move of a drag carries the held buttons, or the page sees buttons = 0.
        const button = m.type === 'move' ? heldButton(buttons) : m.button
        this.#send('Input.dispatchMouseEvent', { type, x: m.x, y: m.y, button, buttons, clickCount: m.type === 'move' ? 0 : m.clicks, modifiers: m.mods }, m)
        if (m.type === 'up') this.#hooks.completionMoment()
        break
      }
      case 'wheel':
        this.#pos = { x: m.x, y: m.y }
        this.#send('Input.dispatchMouseEvent', { type: 'mouseWheel', x: m.x, y: m.y, deltaX: m.dx, deltaY: m.dy, modifiers: m.mods, buttons: this.held.mouseButtons }, m)
        break
      case 'key': {
        const spec = NAMED_KEYS[m.key]
        if (m.type === 'down') {
          this.held.press('key', spec.code)
          this.#send('Input.dispatchKeyEvent', {
            type: spec.text ? 'keyDown' : 'rawKeyDown',
            key: spec.key,
            code: spec.code,
            windowsVirtualKeyCode: spec.keyCode,
            nativeVirtualKeyCode: spec.keyCode,
            modifiers: m.mods,
            ...(spec.text && !(m.mods & (MOD.ctrl | MOD.alt | MOD.meta)) ? { text: spec.text, unmodifiedText: spec.text } : {})
          }, m)
          if (spec.key === 'Enter') this.#hooks.completionMoment()
        } else {
          this.held.release('key', spec.code)
          this.#send('Input.dispatchKeyEvent', { type: 'keyUp', key: spec.key, code: spec.code, windowsVirtualKeyCode: spec.keyCode, nativeVirtualKeyCode: spec.keyCode, modifiers: m.mods }, m)
        }
        break
      }
      case 'shortcut': {
        const sc = shortcutFor(m.key, m.shift)
        if (!sc) return
        const modifiers = MOD.ctrl | (m.shift ? MOD.shift : 0)
        const base = { key: sc.key, code: sc.code, windowsVirtualKeyCode: sc.keyCode, nativeVirtualKeyCode: sc.keyCode, modifiers }
        this.#send('Input.dispatchKeyEvent', { type: 'rawKeyDown', ...base, commands: sc.commands }, m)
        this.#send('Input.dispatchKeyEvent', { type: 'keyUp', ...base })
        break
      }
      case 'text':
      case 'paste':
        this.#send('Input.insertText', { text: m.text }, m)
        break
    }
    this.#hooks.inputSent()
  }
}
