// Which target each CDP session of a passthrough client is attached to, learned from the
// browser's own Target.attachedToTarget / detachedFromTarget events. Pure: fed message text.

const ATTACHED = 'Target.attachedToTarget'
const DETACHED = 'Target.detachedFromTarget'

export class CdpSessionMap {
  readonly #targets = new Map<string, string>()

  /** `onAttached` hears the target of every session the client attaches. */
  constructor (private readonly onAttached?: (targetId: string) => void) {}

  /** A byte-level pre-check, so large frames (screenshots) are never decoded to find nothing. */
  static mayConcern (data: Buffer): boolean {
    return data.includes(ATTACHED) || data.includes(DETACHED)
  }

  /** Reads one browser→client message; cheap for the many messages that are not about sessions. */
  observe (text: string): void {
    if (!text.includes(ATTACHED) && !text.includes(DETACHED)) return
    let msg: { method?: string, params?: { sessionId?: string, targetInfo?: { targetId?: string } } }
    try { msg = JSON.parse(text) as typeof msg } catch { return }
    const sessionId = msg.params?.sessionId
    if (typeof sessionId !== 'string') return
    if (msg.method === ATTACHED && typeof msg.params?.targetInfo?.targetId === 'string') {
      this.#targets.set(sessionId, msg.params.targetInfo.targetId)
      this.onAttached?.(msg.params.targetInfo.targetId)
    }
    else if (msg.method === DETACHED) this.#targets.delete(sessionId)
  }

  /** The target a session is attached to; undefined for the browser session or an unknown one. */
  targetOf (sessionId: string | undefined): string | undefined {
    return sessionId === undefined ? undefined : this.#targets.get(sessionId)
  }
}
