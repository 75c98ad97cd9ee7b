// How the panel makes a page's UI relay (src/panel/page-ui-relay.ts) for a page it shows: its
// keys go through that page's own input relay, and the dialogs of windows it opened that have no
// page yet are found in the browser's registry (src/page-ui/early-dialogs.ts).
import type { CDPSession, Page } from 'puppeteer-core'
import type { FastifyBaseLogger } from 'fastify'
import type { InputRelay } from './input-relay.js'
import { PageWatch } from '../page-ui/page-watch.js'
import { EarlyDialogs } from '../page-ui/early-dialogs.js'
import { PageUiRelay, type EarlyDialogSource, type UiRelayDeps } from './page-ui-relay.js'

/**
 * The relay for one page the panel shows (the handed-off tab or one of its popups): keys go
 * through that page's own input relay, so they keep their order with the person's other input.
 */
export function pageUiRelayFor (page: Page, session: CDPSession, relay: InputRelay, broadcast: UiRelayDeps['broadcast'], log: FastifyBaseLogger, now: () => number, extras: Pick<UiRelayDeps, 'early' | 'grant'> = {}): PageUiRelay {
  return new PageUiRelay({
    watch: PageWatch.of(page, now),
    ...extras,
    session,
    key: (key) => {
      relay.relay({ t: 'key', g: 0, type: 'down', key, mods: 0 }, true)
      relay.relay({ t: 'key', g: 0, type: 'up', key, mods: 0 }, true)
    },
    delivered: () => relay.delivered(),
    inputEpoch: () => relay.epoch,
    holdInputUntil: (settled) => relay.holdUntil(settled),
    char: (ch) => {
      const code = /^[0-9]$/.test(ch) ? `Digit${ch}` : `Key${ch.toUpperCase()}`
      const base = { key: ch, code, windowsVirtualKeyCode: ch.toUpperCase().charCodeAt(0), nativeVirtualKeyCode: ch.toUpperCase().charCodeAt(0) }
      session.send('Input.dispatchKeyEvent', { type: 'keyDown', ...base, text: ch, unmodifiedText: ch }).catch(() => undefined)
      session.send('Input.dispatchKeyEvent', { type: 'keyUp', ...base }).catch(() => undefined)
    },
    broadcast,
    log
  })
}

/**
 * Dialogs of windows `page` opened that have no page yet, except those `followed` says the panel
 * already shows (their own relay draws their dialogs).
 */
export function earlyDialogsOf (page: Page, followed: (window: ReturnType<Page['target']>) => boolean): EarlyDialogSource | undefined {
  const registry = EarlyDialogs.of(page.browser())
  if (!registry) return undefined
  const opener = page.target()
  return {
    current: () => registry.openedBy(opener, followed),
    on: (listener) => registry.on('change', listener),
    off: (listener) => registry.off('change', listener)
  }
}
