// The typed emitter of the host's lifecycle (src/schemas/lifecycle.ts). Owners emit, consumers
// subscribe: one way to listen, and a listener that throws is reported, never propagated — a
// failing subscriber cannot fail a mint, a tab close or a browser launch.
import type { Clock } from './clock.js'
import { Listeners } from './listeners.js'
import type { SealedUrl } from './event-journal.js'
import type { Transition, TransitionData, TransitionType } from '../schemas/lifecycle.js'

export type { Transition, TransitionData, TransitionType }

/** What rides beside a transition and is never part of its payload: the fresh panel URL of a mint. */
export interface TransitionExtras { panelUrl?: SealedUrl }

type AnyListener = (t: Transition, extras: TransitionExtras) => void

export class Lifecycle {
  readonly #any: Listeners<[Transition, TransitionExtras]>
  readonly #byType = new Map<TransitionType, Listeners<[Transition, TransitionExtras]>>()

  constructor (private readonly clock: Clock, private readonly onError: (err: unknown, type: TransitionType) => void) {
    this.#any = new Listeners<[Transition, TransitionExtras]>((err, t) => onError(err, t.type))
  }

  /** Hears one kind of transition. */
  on<K extends TransitionType> (type: K, fn: (t: Transition<K>, extras: TransitionExtras) => void): void {
    let list = this.#byType.get(type)
    if (!list) {
      list = new Listeners<[Transition, TransitionExtras]>((err) => this.onError(err, type))
      this.#byType.set(type, list)
    }
    list.add(fn as unknown as AnyListener)
  }

  /** Hears every transition, in the order they happen. */
  onAny (fn: AnyListener): void { this.#any.add(fn) }

  emit<K extends TransitionType> (type: K, where: { tab_id?: string, profile?: string }, data: TransitionData<K>, extras: TransitionExtras = {}): void {
    const t: Transition<K> = {
      type,
      at: this.clock.now(),
      ...(where.tab_id !== undefined ? { tab_id: where.tab_id } : {}),
      ...(where.profile !== undefined ? { profile: where.profile } : {}),
      data
    }
    this.#byType.get(type)?.emit(t as Transition, extras)
    this.#any.emit(t as Transition, extras)
  }
}
