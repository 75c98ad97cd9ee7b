// The handoff service's public face: what the routes, the panel and the fetch pipeline may ask
// of it. HandoffRegistry (src/handoffs/registry.ts) implements it; the plugin (src/plugins/handoffs.ts) wires it.
import type { LiveCheck } from '../browser/live-checks.js'
import type { HandoffMint } from '../schemas/handoff.js'
import type { ControlEvent, ControlResult } from '../core/control.js'
import type { FinishReason, Handoff, HandoffMode, HandoffSummary, HandoffWarning } from '../core/handoff.js'
import type { TabRecord } from '../tabs/types.js'

/** Why a panel secret cannot be exchanged; each gets its own wording on the 410 page. */
export type SecretProblem = 'unknown' | 'used' | 'revoked' | 'finished' | 'expired'

/** Proves the screencast delivers a frame, through the tab's shared stream when there is one. */
export type FrameProver = (tab: TabRecord, opts: { keepStreaming: boolean, timeoutMs: number }) => Promise<void>

export interface LiveCheckOptions {
  screencast?: boolean
  /** The caller expects a viewer soon (exchange, panel document): keep the proving stream warm. */
  keepStreaming?: boolean
}

export interface MintOptions {
  region?: string
  readySelector?: string
  challengeSeen?: boolean
  widgetSelector?: string
  /**
   * The document of a frame that fills the view and holds the challenge, when the fetch judged the
   * page by it (src/fetch/filling-frame.ts documentOf): the completion check's start in that frame.
   */
  gateFrame?: string
  /** Plain text for the person, shown in #afhttp-instructions. */
  instructions?: string
  /** Why a person is needed (the fetch's takeover reason), shown in the operator inbox (docs/spec.md section 20). */
  reason?: string
  /**
   * Only a fresh link for the open handoff with this fence: never opens a new handoff (the
   * operator inbox takes what is open; a hold that ended meanwhile is `handoff_expired`).
   */
  reissueOf?: string
  /** `view`: the link only watches (docs/spec.md section 7 "Mint options"). Default `control`. */
  mode?: HandoffMode
}

/** The `POST /v1/tabs/:tab_id/handoff` answer; the shape lives in src/schemas/handoff.ts. */
export type MintResult = HandoffMint

/** What every caller reads: the open handoff of a tab and whether it is held. */
export interface HandoffReader {
  current (tabId: string): Handoff | undefined
  isHeld (tabId: string): boolean
}

/** What a driver (routes, the fetch pipeline, the MCP server and the inbox through them) asks. */
export interface DriverHandoffs extends HandoffReader {
  mint (tabId: string, opts?: MintOptions): Promise<MintResult>
  summary (tabId: string): HandoffSummary
  /** `note` is kept as `human_note` (a driver reporting its person's decline, docs/spec.md section 18). */
  finish (tabId: string, fence: string, reason: FinishReason, note?: string): HandoffSummary
  /** Resolves once the last ending of `tabId` has its outcome (cookie names read). */
  settled (tabId: string): Promise<void>
  /** The summary once the last ending of `tabId` has its outcome: what every route answers. */
  settledSummary (tabId: string): Promise<HandoffSummary>
  /** How the last handoff of a tab that has since closed ended (bounded memory), if any. */
  closedSummary (tabId: string): (HandoffSummary & { tab_closed: true }) | undefined
  /** The tab whose open handoff covers `tabId` (itself or a popup's opener), if any. */
  heldBy (tabId: string): string | undefined
  /** Open popups of `tabId` (and of its popups), oldest first. */
  popupsOf (tabId: string): TabRecord[]
  /**
   * Hears every change of a handoff's summary (checks left, warnings, control, the ending). The
   * transitions themselves (opened, control, finished, expired, …) are on app.lifecycle.
   */
  onChange (fn: (tabId: string, summary: HandoffSummary) => void): void
  liveChecks (tab: TabRecord, opts?: LiveCheckOptions): Promise<LiveCheck[]>
  /** The host is shutting down: every open handoff ends `revoked`/`shutdown` (its panels hear it). */
  shutdown (): Promise<void>
}

/** What the person's side asks: the secret's exchange and the panel's viewers (routes/panel-*, src/panel). */
export interface ViewerHandoffs extends HandoffReader {
  /** Exchanges a panel secret once; the caller runs live checks first. `viewer` is recorded (docs/spec.md section 19). */
  consumeSecret (secret: string, viewer?: { remoteAddress: string, userAgent: string }): Handoff
  /** Whether a live secret is a control or a view link (before it is consumed). */
  secretMode (secret: string): HandoffMode | undefined
  /** Looks a secret up without consuming it (for the 410/503 decision). */
  peekSecret (secret: string): Handoff | undefined
  /** Why `secret` cannot be exchanged now, or undefined when it can. */
  secretProblem (secret: string): SecretProblem | undefined
  control (tabId: string, event: ControlEvent): ControlResult
  /** A viewer pressed Done: refused (panel_control_held) while another viewer drives. */
  finishByViewer (tabId: string, viewerId: string): HandoffSummary
  /** The person said "I can't do this": ends the handoff with human_declined and their note. */
  declineByViewer (tabId: string, viewerId: string, note?: string): HandoffSummary
  warn (tabId: string, warning: HandoffWarning): void
  liveChecks (tab: TabRecord, opts?: LiveCheckOptions): Promise<LiveCheck[]>
}

/** What completion detection asks (src/panel/completion.ts, docs/spec.md section 7). */
export interface CompletionHandoffs extends HandoffReader {
  /** Spends one of the handoff's finite completion checks; false when none is left. */
  takeCheck (tabId: string): boolean
  /** Emits a change (after completion checks update a record). */
  touched (tabId: string): void
  /** Completion detection saw the page get through (docs/spec.md section 7). */
  autoFinish (tabId: string): void
  /**
   * A challenge showed up during the handoff: "challenge gone" now counts as completion. On a page
   * whose view is one frame, `gateFrame` names the frame document it showed up in; without one it
   * showed up in the top document, and a frame document noted before is forgotten.
   */
  noteChallenge (tabId: string, widgetSelector?: string, gateFrame?: string): void
  /** The frame that fills the view showed another document than the one the challenge was seen in (for the outcome). */
  noteFrameMovedOn (tabId: string): void
  /** A main-frame document loaded since the handoff began (or the URL changed). */
  navigatedSince (tabId: string): boolean
}

/** The whole service, split above by who calls it; HandoffRegistry (src/handoffs/registry.ts) implements it. */
export interface HandoffService extends DriverHandoffs, ViewerHandoffs, CompletionHandoffs {
  /** The panel plugin proves frames through its shared streams (set once, at start). */
  setFrameProver (fn: FrameProver): void
}
