// Which raw CDP commands act on a page (docs/spec.md section 12). Pure: the CDP route and the
// passthrough ask this, then refuse the command when that page's tab is held by a person.

/** `session`: acts on the page its session is attached to; `target`: on `params.targetId`. */
export type PageEffect = { scope: 'session' } | { scope: 'target', targetId: string }

// Whole domains whose every command changes what the page does or how it is shown.
const EFFECT_DOMAINS = new Set(['Input', 'Emulation'])
// Navigation and the page's lifetime. Everything else (Runtime.evaluate, DOM reads,
// Page.captureScreenshot, Network.getCookies, enabling domains) is an observation here.
const EFFECT_METHODS = new Set(['Page.navigate', 'Page.reload', 'Page.close', 'Page.navigateToHistoryEntry'])
const TARGET_EFFECT_METHODS = new Set(['Target.closeTarget', 'Target.activateTarget'])

/** The page effect of one command, or undefined when it only observes. */
export function pageEffectOf (method: string, params: unknown): PageEffect | undefined {
  if (TARGET_EFFECT_METHODS.has(method)) {
    const targetId = (params as { targetId?: unknown } | null | undefined)?.targetId
    return typeof targetId === 'string' ? { scope: 'target', targetId } : undefined
  }
  const domain = method.split('.', 1)[0]
  if (EFFECT_DOMAINS.has(domain) || EFFECT_METHODS.has(method)) return { scope: 'session' }
  return undefined
}

/** The text of the CDP error a passthrough client gets for a refused command. */
export function heldCommandMessage (method: string, why: string): string {
  return `tab_under_human_control: ${method} was refused. ${why}`
}

/** A command carried inside another: `Target.sendMessageToTarget` (the older, non-flat protocol). */
export interface NestedCommand { method: string, params: unknown, targetId?: string, sessionId?: string }

/** The inner command of a `Target.sendMessageToTarget`, so holds cannot be stepped around. */
export function nestedCommand (method: string, params: unknown): NestedCommand | undefined {
  if (method !== 'Target.sendMessageToTarget') return undefined
  const p = (params ?? {}) as { message?: unknown, targetId?: unknown, sessionId?: unknown }
  let inner: { method?: unknown, params?: unknown }
  try { inner = JSON.parse(String(p.message)) as typeof inner } catch { return undefined }
  if (!inner || typeof inner.method !== 'string') return undefined
  return {
    method: inner.method,
    params: inner.params,
    ...(typeof p.targetId === 'string' ? { targetId: p.targetId } : {}),
    ...(typeof p.sessionId === 'string' ? { sessionId: p.sessionId } : {})
  }
}

/**
 * An emulation asked for on a held tab (docs/spec.md section 17): acknowledged, kept, and applied when
 * the hold ends — a driver that connects with its default options (puppeteer's 800×600
 * viewport, touch emulation) must not fail at attach because a person holds one tab. Only
 * commands that set, clear or reset something answer nothing a client reads (`{}`), so only
 * those are deferred; the rest of the domain still reads as it did.
 */
export function isDeferredEmulation (method: string): boolean {
  return /^Emulation\.(set|clear|reset)[A-Z]/.test(method) && method !== 'Emulation.setVirtualTimePolicy'
}

/** One deferred command, kept per session in the order asked; a later same command replaces an earlier one. */
export interface DeferredCommand { sessionId: string, method: string, params: unknown }

/** Emulations waiting for their tab's hold to end, per client session. Pure. */
export class DeferredEmulations {
  readonly #bySession = new Map<string, { targetId: string, commands: DeferredCommand[] }>()

  get size (): number { let n = 0; for (const s of this.#bySession.values()) n += s.commands.length; return n }

  add (targetId: string, cmd: DeferredCommand): void {
    const entry = this.#bySession.get(cmd.sessionId) ?? { targetId, commands: [] }
    entry.commands = entry.commands.filter((c) => c.method !== cmd.method)
    entry.commands.push(cmd)
    this.#bySession.set(cmd.sessionId, entry)
  }

  /**
   * The commands whose hold is over (`held(targetId)` false), in order, removed from the wait;
   * those of sessions that are gone (`live(sessionId)` false) are forgotten: a detached session's
   * emulation ended with it.
   */
  due (held: (targetId: string) => boolean, live: (sessionId: string) => boolean): DeferredCommand[] {
    const out: DeferredCommand[] = []
    for (const [sessionId, entry] of this.#bySession) {
      if (!live(sessionId)) { this.#bySession.delete(sessionId); continue }
      if (held(entry.targetId)) continue
      out.push(...entry.commands)
      this.#bySession.delete(sessionId)
    }
    return out
  }
}
