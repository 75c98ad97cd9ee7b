// Dialogs of windows that have no page yet (docs/spec.md section 16). A popup that asks
// confirm() as it loads blocks its renderer before puppeteer has made a Page of it: the Page's
// making waits for the renderer, so the window is never adopted, its opener's panel never
// shows it, and the person cannot answer what they cannot see. Enabling the Page domain on the
// window's session the moment it attaches — before the browser lets its scripts run — makes
// such a dialog known anyway, and answering it is the browser's business (no renderer needed):
// the opener's panel shows it, the person answers, and the window goes on to be adopted.
import { EventEmitter } from 'node:events'
import { CDPSessionEvent, type Browser, type CDPSession, type Target } from 'puppeteer-core'
import { describeDialog, type OpenDialog } from '../core/page-ui.js'
import { browserSession } from '../browser/window-anchor.js'

interface DialogOpening { type: string, message: string, url: string, defaultPrompt?: string }

/** A dialog open in a window, answered through that window's own session. */
export interface EarlyDialog {
  dialog: OpenDialog
  /** The window (puppeteer's target, which exists as soon as the window attached). */
  target: Target | undefined
  answer: (answer: { accept: boolean, promptText?: string }) => Promise<void>
}

const registries = new WeakMap<Browser, EarlyDialogs>()

export class EarlyDialogs extends EventEmitter {
  readonly #open = new Map<CDPSession, EarlyDialog>()

  /** The registry of a browser whose attaches are watched; undefined for one nobody watches. */
  static of (browser: Browser): EarlyDialogs | undefined {
    return registries.get(browser)
  }

  /** Starts watching a browser's new windows (idempotent); resolves once the hook is in place. */
  static async watch (browser: Browser, now: () => number): Promise<EarlyDialogs> {
    const known = registries.get(browser)
    if (known) return known
    const registry = new EarlyDialogs()
    registries.set(browser, registry)
    // The host's shared browser session (never detached: see browserSession) leads to the connection.
    const connection = (await browserSession(browser)).connection()
    connection?.on(CDPSessionEvent.SessionAttached, (session: CDPSession) => registry.#attached(session, now))
    connection?.on(CDPSessionEvent.SessionDetached, (session: CDPSession) => registry.#gone(session))
    return registry
  }

  /** The open dialog of a window `opener` opened, unless `skip` says that window is looked after already. */
  openedBy (opener: Target, skip: (target: Target) => boolean): EarlyDialog | undefined {
    for (const d of this.#open.values()) {
      if (d.target && d.target.opener() === opener && !skip(d.target)) return d
    }
    return undefined
  }

  #attached (session: CDPSession, now: () => number): void {
    // Sent now, synchronously: it goes out before puppeteer lets the new window run
    // (Runtime.runIfWaitingForDebugger), so a dialog the window opens at once is reported.
    // Sessions without a Page domain (workers) refuse it, harmlessly.
    session.send('Page.enable').catch(() => undefined)
    session.on('Page.javascriptDialogOpening', (ev: DialogOpening) => {
      this.#open.set(session, {
        dialog: describeDialog(ev, now()),
        target: targetOf(session),
        answer: async (answer) => { await session.send('Page.handleJavaScriptDialog', answer) }
      })
      this.emit('change')
    })
    session.on('Page.javascriptDialogClosed', () => this.#gone(session))
  }

  #gone (session: CDPSession): void {
    if (this.#open.delete(session)) this.emit('change')
  }
}

/** Puppeteer sets a session's target as the window attaches (not in its public types). */
function targetOf (session: CDPSession): Target | undefined {
  const withTarget = session as unknown as { target?: () => Target | undefined }
  try { return withTarget.target?.() } catch { return undefined }
}
