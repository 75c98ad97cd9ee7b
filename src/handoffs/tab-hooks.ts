// The tab inventory's side of a handoff (docs/spec.md section 7 "Hold" and "Popups"): a held tab
// and its popups refuse agent page effects and are never reaped, the inventory view shows who
// controls them, a closed tab revokes its handoff, and a popup of a held tab joins its handoff.
import { AfhttpError } from '../errors.js'
import type { Lifecycle } from '../core/lifecycle.js'
import type { TabRegistry } from '../tabs/types.js'
import { openerTabId } from './popup-chain.js'
import type { HandoffRegistry } from './registry.js'

type TabSide = Pick<HandoffRegistry, 'current' | 'isHeld' | 'summary' | 'holderOf' | 'tabClosed' | 'joinPopup'>

export function wireHandoffsToTabs (
  handoffs: TabSide,
  tabs: Pick<TabRegistry, 'list' | 'addActGuard' | 'addProtector' | 'addDescriber' | 'onClosed'>,
  lifecycle: Pick<Lifecycle, 'on'>
): void {
  tabs.addActGuard((tab) => {
    // A popup of a handed-off tab (a sign-in window) is part of that handoff (docs/spec.md section 7 "Popups").
    const by = handoffs.holderOf(tab)
    if (by) {
      const s = handoffs.summary(by)
      const of = by === tab.id ? 'this tab' : `this popup's opener ${by}`
      throw new AfhttpError('tab_under_human_control', `A person holds ${of} until ${s.expires_at} (state ${s.state}); observe with snapshot or finish the handoff.`, { tab_id: tab.id, ...(by !== tab.id ? { opener_tab_id: by } : {}), handoff: s })
    }
  })
  tabs.addProtector((tab) => {
    const by = handoffs.holderOf(tab)
    return by === undefined ? undefined : by === tab.id ? 'open handoff' : `popup of ${by}, whose handoff is open`
  })
  tabs.addDescriber((tab) => {
    const opener = openerTabId(tabs.list(), tab)
    const extra = opener ? { opener_tab_id: opener } : {}
    const h = handoffs.current(tab.id)
    const by = handoffs.holderOf(tab)
    if (!h) return by && by !== tab.id ? { ...extra, controller: handoffs.current(by)?.control.controller ?? 'agent' } : extra
    const s = handoffs.summary(tab.id)
    return { ...extra, controller: handoffs.isHeld(tab.id) ? s.controller : 'agent', handoff: s }
  })
  tabs.onClosed((tab, reason) => { handoffs.tabClosed(tab, reason) })
  lifecycle.on('tab.opened', (t) => {
    if (!t.data.opener_tab_id || !t.tab_id) return
    handoffs.joinPopup(t.tab_id, t.data.url)
  })
}
