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
