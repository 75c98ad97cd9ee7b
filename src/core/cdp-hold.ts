// Which raw CDP commands act on a page (SPEC section 12). Pure: the CDP route and the
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
