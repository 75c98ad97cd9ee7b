// Per-tab control of a handed-off page (SPEC §7 "Control"). Pure: the panel's
// WebSocket layer keeps the ControlState value, feeds it events and performs
// the effects it gets back; nothing here touches a socket or a browser.

import type { Controller } from '../schemas/handoff.js'

// The public shape lives once, in src/schemas/handoff.ts.
export type { Controller }

export interface ControlState {
  readonly controller: Controller
  /** Bumped on every change; input stamped with an older generation is stale. */
  readonly generation: number
  /**
   * `human`: the viewer driving the page. `human_disconnected`: the viewer that
   * was driving when its socket dropped (kept for the summary and the logs; it
   * grants nothing). `agent`: null.
   */
  readonly holder: string | null
  /** Set by finish. A finished handoff never begins again (SPEC §7 "Finish"). */
  readonly finished: boolean
}

export type ControlEvent =
  | { type: 'take'; viewerId: string }
  | { type: 'release'; viewerId: string }
  | { type: 'disconnect'; viewerId: string }
  /** viewerId absent: the driver finished with its fence; present: a viewer pressed Done. */
  | { type: 'finish'; viewerId?: string }

/** What the caller must do to the page after an accepted transition. */
export type Effect = 'drop_queued_input' | 'release_held_input'

export type RefusalReason = 'held_by_other' | 'not_holder' | 'finished'

export type ControlResult =
  | { ok: true; changed: boolean; state: ControlState; effects: readonly Effect[] }
  | { ok: false; state: ControlState; reason: RefusalReason }

// Losing the live human (release, disconnect, finish) must not leave a button
// or a modifier pressed in the page, nor let input already queued from that
// human land after control moved on.
const LEAVING_LIVE_HUMAN: readonly Effect[] = Object.freeze(['drop_queued_input', 'release_held_input'])
const NO_EFFECTS: readonly Effect[] = Object.freeze([])

/**
 * A fresh handoff starts with the agent in control. Pass the previous
 * handoff's generation + 1 when the same tab is handed off again, so input
 * from an old panel can never match a new generation.
 */
export function initialControl(generation = 0): ControlState {
  return { controller: 'agent', generation, holder: null, finished: false }
}

export function applyControl(state: ControlState, event: ControlEvent): ControlResult {
  if (state.finished) {
    // A disconnect reports a fact rather than asking for anything, so it is
    // never refused; every request after finish is.
    return event.type === 'disconnect' ? unchanged(state) : refused(state, 'finished')
  }
  const liveHolder = state.controller === 'human' ? state.holder : null

  switch (event.type) {
    case 'take':
      if (liveHolder === event.viewerId) return unchanged(state)
      // The refusal returns the state untouched: a failed take leaves the
      // current reservation intact.
      if (liveHolder !== null) return refused(state, 'held_by_other')
      // From agent, or from human_disconnected: a disconnected reservation is
      // free for any viewer (the reconnecting viewer's "Take control").
      return moved(state, { controller: 'human', holder: event.viewerId }, NO_EFFECTS)

    case 'release':
      if (liveHolder === null || liveHolder !== event.viewerId) return refused(state, 'not_holder')
      return moved(state, { controller: 'agent', holder: null }, LEAVING_LIVE_HUMAN)

    case 'disconnect':
      // Only the live holder's socket matters; a watcher leaving changes
      // nothing, and control never falls back to the agent on a disconnect.
      if (liveHolder === null || liveHolder !== event.viewerId) return unchanged(state)
      return moved(state, { controller: 'human_disconnected', holder: liveHolder }, LEAVING_LIVE_HUMAN)

    case 'finish':
      if (event.viewerId !== undefined && liveHolder !== null && liveHolder !== event.viewerId) {
        return refused(state, 'held_by_other')
      }
      return moved(
        state,
        { controller: 'agent', holder: null, finished: true },
        liveHolder === null ? NO_EFFECTS : LEAVING_LIVE_HUMAN
      )

    default:
      return assertNever(event)
  }
}

/** Input is relayed only from the live holder, under the current generation. */
export function acceptsInput(state: ControlState, viewerId: string, generation: number): boolean {
  return state.controller === 'human' &&
    !state.finished &&
    state.holder === viewerId &&
    generation === state.generation
}

function moved(
  state: ControlState,
  change: Pick<ControlState, 'controller' | 'holder'> & { finished?: boolean },
  effects: readonly Effect[]
): ControlResult {
  const next: ControlState = {
    controller: change.controller,
    holder: change.holder,
    finished: change.finished ?? state.finished,
    generation: state.generation + 1
  }
  return { ok: true, changed: true, state: next, effects }
}

function unchanged(state: ControlState): ControlResult {
  return { ok: true, changed: false, state, effects: NO_EFFECTS }
}

function refused(state: ControlState, reason: RefusalReason): ControlResult {
  return { ok: false, state, reason }
}

function assertNever(event: never): never {
  throw new TypeError(`unknown control event ${JSON.stringify(event)}`)
}

export type HeldKind = 'mouse' | 'key'
export interface HeldEntry { readonly kind: HeldKind; readonly id: string }

// CDP `buttons` bits (left 1, right 2, middle 4, back 8, forward 16). Every
// mouseMoved of a drag must carry them or the page sees buttons = 0 and the
// drag fails (docs/panel.md "CDP facts" 6).
const BUTTON_BITS: Readonly<Record<string, number>> = { left: 1, right: 2, middle: 4, back: 8, forward: 16 }

/**
 * What the live holder has pressed and not yet released, fed from the relayed
 * down/up events. When the holder goes away its `drain()` lists what to
 * release in the page. Mouse ids are CDP button names (`left`…); key ids
 * should be `code` (`ShiftLeft`, `KeyA`), which, unlike `key`, is the same on
 * the way up even when a modifier changed in between.
 */
export class HeldInput {
  readonly #held = new Map<string, HeldEntry>()

  press(kind: HeldKind, id: string): void {
    const key = `${kind}:${id}`
    // Auto-repeat sends more downs; keep the first so release order stays true.
    if (!this.#held.has(key)) this.#held.set(key, { kind, id })
  }

  release(kind: HeldKind, id: string): void {
    this.#held.delete(`${kind}:${id}`)
  }

  get size(): number {
    return this.#held.size
  }

  /** The `buttons` bitmask to send with mouse events while these are held. */
  get mouseButtons(): number {
    let mask = 0
    for (const entry of this.#held.values()) {
      if (entry.kind === 'mouse') mask |= BUTTON_BITS[entry.id] ?? 0
    }
    return mask
  }

  /**
   * Everything held, most recent first — releasing in reverse press order lets
   * `a` go up before the Shift that was pressed before it — and forget it all.
   */
  drain(): HeldEntry[] {
    const entries = [...this.#held.values()].reverse()
    this.#held.clear()
    return entries
  }
}
