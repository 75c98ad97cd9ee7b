// Popups belong to the handoff of the tab that opened them (docs/spec.md section 7 "Popups"): a sign-in
// window is held with its opener. These walk the opener chain over the tab inventory.
import type { TabRecord } from '../tabs/types.js'

/** Popups of popups belong to the same handoff; the chain is short, bound it anyway. */
const MAX_CHAIN = 8

/** The host's tab for the page that opened `tab` (window.open, target=_blank), if it has one. */
export function openerTabId (tabs: readonly TabRecord[], tab: TabRecord): string | undefined {
  const opener = tab.page.target().opener()
  if (!opener) return undefined
  return tabs.find((t) => t.page.target() === opener)?.id
}

/** The tab whose open handoff holds `tab`: itself, or the opener it was popped up from. */
export function holderOf (tabs: readonly TabRecord[], tab: TabRecord, isHeld: (tabId: string) => boolean): string | undefined {
  let at: TabRecord | undefined = tab
  for (let depth = 0; at && depth < MAX_CHAIN; depth++) {
    if (isHeld(at.id)) return at.id
    const up = openerTabId(tabs, at)
    at = up ? tabs.find((t) => t.id === up) : undefined
  }
  return undefined
}

/** Open popups of `tabId` (and of its popups), oldest first. */
export function popupsOf (tabs: readonly TabRecord[], tabId: string): TabRecord[] {
  const out: TabRecord[] = []
  const ids = new Set([tabId])
  // Listing order is opening order, so an opener is always seen before its popups.
  for (const t of tabs) {
    const opener = openerTabId(tabs, t)
    if (opener && ids.has(opener)) { out.push(t); ids.add(t.id) }
  }
  return out
}
