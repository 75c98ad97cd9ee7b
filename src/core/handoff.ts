// The handoff record and its summary (docs/spec.md section 7). Pure: the handoffs plugin owns
// the records, the clock and the browser; this file decides what a record means.
import { initialControl, type ControlState } from './control.js'

import { HANDOFF_MODES, type FinishReason, type HandoffMode, type HandoffOutcome, type HandoffState, type HandoffSummary } from '../schemas/handoff.js'
import type { Warning } from '../schemas/common.js'

// The public shapes and the vocabulary (modes: docs/spec.md section 7) live once, in src/schemas/handoff.ts.
export type { FinishReason, HandoffMode, HandoffOutcome, HandoffState, HandoffSummary }
export { HANDOFF_MODES }

import { DECLINE_NOTE_MAX_CHARS, INSTRUCTIONS_MAX_CHARS, MAX_FINISHED_PER_TAB } from '../limits.js'
export { DECLINE_NOTE_MAX_CHARS, INSTRUCTIONS_MAX_CHARS, MAX_FINISHED_PER_TAB }
export const COMPLETION_CHECKS_PER_HANDOFF = 12

export interface Handoff {
  readonly fence: string
  readonly tabId: string
  readonly openedAt: number
  readonly expiresAt: number
  /** Terminal outcome; undefined while the handoff is live (or only expired). */
  ended?: { state: 'finished' | 'revoked', reason: FinishReason, at: number }
  control: ControlState
  /** sha256 of the one usable panel secret; a second mint replaces it. */
  secretHash?: string
  secretUsed: boolean
  /** sha256 of the one usable view-only secret (`mode: view`); a second view mint replaces it. */
  viewSecretHash?: string
  /** Plain text for the person (≤ INSTRUCTIONS_MAX_CHARS); the panel never renders it as HTML. */
  instructions?: string
  /** Why a person is needed (the fetch's `human_takeover` reason); undefined when a driver minted by API. */
  reason?: string
  /** The person's reason when they declined. */
  humanNote?: string
  /** Filled when the handoff ends. */
  outcome?: HandoffOutcome
  /** What the driver asked the human to reach: a `selector-stable:` target and/or a region. */
  readySelector?: string
  region?: string
  /** A challenge was seen during this handoff (makes "challenge gone" a completion signal). */
  challengeSeen: boolean
  /** The recognised challenge widget the panel aims at when no region matches. */
  widgetSelector?: string
  /** On a page whose view is one frame, the frame document the challenge was last seen in (by the fetch that began the handoff, or a completion check). */
  gateFrame?: string
  /** A completion check, or the ending's last look, saw the frame that fills the view show another document than `gateFrame`: the page moved on, though its top document did not. */
  frameMovedOn?: boolean
  /** Warnings for the driver that arose after the mint (e.g. takeover_selector_missed). */
  warnings: HandoffWarning[]
  /** URL when the handoff began, to tell whether the page navigated. */
  startUrl: string
  checksLeft: number
  autoDone: boolean
}

export type HandoffWarning = Warning

export function newHandoff (init: { fence: string, tabId: string, now: number, holdMs: number, startUrl: string, generation: number, readySelector?: string, region?: string, challengeSeen: boolean, widgetSelector?: string, gateFrame?: string, instructions?: string, reason?: string }): Handoff {
  return {
    fence: init.fence,
    tabId: init.tabId,
    openedAt: init.now,
    expiresAt: init.now + init.holdMs,
    control: initialControl(init.generation),
    secretUsed: false,
    readySelector: init.readySelector,
    region: init.region,
    challengeSeen: init.challengeSeen,
    widgetSelector: init.widgetSelector,
    ...(init.gateFrame !== undefined ? { gateFrame: init.gateFrame } : {}),
    ...(init.instructions !== undefined ? { instructions: init.instructions } : {}),
    ...(init.reason !== undefined ? { reason: init.reason } : {}),
    warnings: [],
    startUrl: init.startUrl,
    checksLeft: COMPLETION_CHECKS_PER_HANDOFF,
    autoDone: false
  }
}

export function handoffState (h: Handoff, now: number): HandoffState {
  if (h.ended) return h.ended.state
  if (now >= h.expiresAt) return 'expired'
  if (h.control.controller === 'human') return 'human'
  if (h.control.controller === 'human_disconnected') return 'human_disconnected'
  return 'open'
}

/** The states in which the hold protects the tab; written once, asked everywhere. */
export const LIVE_STATES: readonly HandoffState[] = ['open', 'human', 'human_disconnected']

/** Live: the hold still protects the tab from agent page effects and the reaper. */
export function isLiveState (state: HandoffState): boolean {
  return LIVE_STATES.includes(state)
}

export function isHeld (h: Handoff | undefined, now: number): boolean {
  return h !== undefined && isLiveState(handoffState(h, now))
}

/** Who ended a handoff, for the lifecycle and the audit trail (docs/spec.md section 19 "finished (reason, by)"). */
export function endedBy (reason: FinishReason, tabClosedByDriver = false): 'driver' | 'person' | 'host' {
  if (reason === 'driver' || reason === 'api_close' || (reason === 'tab_closed' && tabClosedByDriver)) return 'driver'
  if (reason === 'human_done' || reason === 'human_declined') return 'person'
  return 'host'
}

/** From mint to the end of the hold; null when the hold had expired before the handoff ended. */
export function heldMs (h: Handoff): number | null {
  if (!h.ended) return h.expiresAt - h.openedAt
  return h.ended.at >= h.expiresAt ? null : h.ended.at - h.openedAt
}

export function summarize (h: Handoff, now: number): HandoffSummary {
  const state = handoffState(h, now)
  const live = isLiveState(state)
  return {
    tab_id: h.tabId,
    state,
    ...(h.ended ? { finish_reason: h.ended.reason } : {}),
    handoff_fence: h.fence,
    expires_at: new Date(h.expiresAt).toISOString(),
    controller: h.control.controller,
    generation: h.control.generation,
    auto_done: h.autoDone,
    will_check_again: live && h.checksLeft > 0 && (h.challengeSeen || h.readySelector !== undefined),
    checks_left: live ? h.checksLeft : 0,
    ...(h.warnings.length ? { warnings: h.warnings.map((w) => ({ ...w })) } : {}),
    ...(h.instructions !== undefined ? { instructions: h.instructions } : {}),
    ...(h.humanNote !== undefined ? { human_note: h.humanNote } : {}),
    ...(h.outcome ? { outcome: { ...h.outcome, cookies_set: [...h.outcome.cookies_set] } } : {})
  }
}

/** Adds a driver warning once per code. */
export function addWarning (h: Handoff, warning: HandoffWarning): boolean {
  if (h.warnings.some((w) => w.code === warning.code)) return false
  h.warnings.push({ ...warning })
  return true
}

export interface CompletionObservation {
  url: string
  /**
   * A main-frame document load happened since the handoff began. A solved challenge often
   * reloads the very URL it guarded, so a changed URL is not the only sign of navigation.
   */
  navigated: boolean
  challengePresent: boolean
  /** The `selector-stable` target is present, visible, non-empty and settled. */
  targetReady: boolean
}

/**
 * docs/spec.md section 7 completion: done if a challenge seen during this handoff is gone and the page
 * navigated, or the handoff's selector-stable target is ready. "Nothing recognisable" counts only
 * when a challenge was seen. A selector that stops matching never counts.
 */
export function completionReached (h: Handoff, obs: CompletionObservation): boolean {
  if (h.readySelector !== undefined && obs.targetReady) return true
  if (!h.challengeSeen) return false
  const navigated = obs.navigated || obs.url !== h.startUrl
  return !obs.challengePresent && navigated
}

/** A cookie as the jar reports it; only the identity and value matter here. */
export interface JarCookie { name: string, domain: string, path: string, value: string }

/**
 * Names of the cookies set during the handoff: new, or with a changed value. Values are
 * compared, never returned; a cookie the page deleted was not "set".
 */
export function cookiesSetBetween (before: readonly JarCookie[], after: readonly JarCookie[]): string[] {
  const key = (c: JarCookie): string => `${c.name}\u0000${c.domain}\u0000${c.path}`
  const was = new Map(before.map((c) => [key(c), c.value]))
  const names = new Set<string>()
  for (const c of after) if (was.get(key(c)) !== c.value) names.add(c.name)
  return [...names].sort()
}
