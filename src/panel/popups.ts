// The windows a handed-off page opens (docs/spec.md section 7 "Popups"): each is shown in the same
// panel, under the same handoff and control, through its own CDP session and input relay.
import type { FastifyBaseLogger } from 'fastify'
import type { CDPSession } from 'puppeteer-core'
import type { TabRecord } from '../tabs/types.js'
import { InputRelay, type RelayHooks } from './input-relay.js'
import type { PageUiRelay, UiRelayDeps } from './page-ui-relay.js'
import { pageUiRelayFor } from './page-ui-wiring.js'
import type { TabStreamer } from './streamer.js'
import type { TabsMessage } from './messages.js'
import { openPageSession } from '../browser/page-session.js'

/** A popup of the handed-off tab, as the panel drives it; `ui` draws its own dialogs and select lists (docs/spec.md section 16). */
export interface Popup { tab: TabRecord, session: CDPSession, relay: InputRelay, streamer: TabStreamer, ui: PageUiRelay }

export interface PopupDeps {
  hooks: RelayHooks
  /** Tells every viewer about the popup's dialogs and lists (the panel tab sends only the shown tab's). */
  broadcast: UiRelayDeps['broadcast']
  log: FastifyBaseLogger
  now: () => number
  grant: UiRelayDeps['grant']
}

/** Opens the panel's side of a popup; undefined when it closed meanwhile. */
export async function openPopup (tab: TabRecord, streamer: TabStreamer, deps: PopupDeps): Promise<Popup | undefined> {
  const session = await openPageSession(tab.page).catch(() => undefined)
  if (!session || tab.page.isClosed()) {
    await session?.detach().catch(() => undefined)
    return undefined
  }
  // As for the handed-off tab: the page believes its window has focus.
  session.send('Emulation.setFocusEmulationEnabled', { enabled: true }).catch(() => undefined)
  const relay = new InputRelay(session, deps.hooks, deps.log)
  return { tab, session, relay, streamer, ui: pageUiRelayFor(tab.page, session, relay, deps.broadcast, deps.log, deps.now, { grant: deps.grant }) }
}

/** Lets go of a popup: queued input dropped, held keys and buttons released, session detached. The window stays open. */
export function releasePopup (p: Popup): void {
  p.ui.dispose()
  p.relay.dropQueued()
  p.relay.releaseHeld()
  p.session.detach().catch(() => undefined)
}

/** Host → panel `tabs` message: the windows of this handoff and the one on show. */
export function tabsMessage (root: TabRecord, popups: Iterable<Popup>, shown: string): TabsMessage {
  const tabs = [root, ...[...popups].map((p) => p.tab)].filter((t) => !t.page.isClosed())
  return { t: 'tabs', shown, tabs: tabs.map((t) => ({ tab_id: t.id, url: t.page.url(), popup: t !== root })) }
}
