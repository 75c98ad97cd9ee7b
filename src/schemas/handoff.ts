// The driver's side of a handoff (SPEC section 7): mint options, the mint answer, the summary.
import { Type, type Static } from 'typebox'
import { HANDOFF_MODES } from '../core/handoff.js'
import { CLOSED, OPEN, Warnings } from './common.js'
import { Instructions, Selector } from './fetch.js'

export const HandoffState = Type.Enum(['open', 'human', 'human_disconnected', 'finished', 'expired', 'revoked'])
export type HandoffState = Static<typeof HandoffState>
export const FinishReason = Type.Enum(['driver', 'human_done', 'human_declined', 'auto_detected', 'tab_closed', 'browser_lost', 'shutdown', 'api_close'])
export type FinishReason = Static<typeof FinishReason>
export const Controller = Type.Enum(['agent', 'human', 'human_disconnected'])
export type Controller = Static<typeof Controller>
/** `view` links watch only: the host refuses them control, Done, decline and input. */
export const HandoffMode = Type.Enum(HANDOFF_MODES)

/** What changed during the handoff (SPEC section 7 "Outcome"): cookie names, never values. */
export const HandoffOutcome = Type.Object({
  final_url: Type.String(),
  navigated: Type.Boolean(),
  cookies_set: Type.Array(Type.String())
}, OPEN)
export type HandoffOutcome = Static<typeof HandoffOutcome>

/** After a lost response a driver reads this before deciding; it never blindly replays. */
export const HandoffSummary = Type.Object({
  tab_id: Type.String(),
  state: HandoffState,
  finish_reason: Type.Optional(FinishReason),
  handoff_fence: Type.String(),
  expires_at: Type.String(),
  controller: Controller,
  generation: Type.Number(),
  /** The host detected completion itself (challenge gone, or the selector-stable target ready). */
  auto_done: Type.Boolean(),
  /** False once the host has used its completion checks: only Done (or finish) ends the handoff now. */
  will_check_again: Type.Boolean(),
  checks_left: Type.Number(),
  /** Present when something the driver asked for could not be honoured in the panel. */
  warnings: Type.Optional(Warnings),
  instructions: Type.Optional(Type.String()),
  /** The person's reason when finish_reason is `human_declined`. */
  human_note: Type.Optional(Type.String()),
  outcome: Type.Optional(HandoffOutcome),
  /** A closed tab's last handoff is still answered, revoked, with this flag. */
  tab_closed: Type.Optional(Type.Boolean())
}, OPEN)
export type HandoffSummary = Static<typeof HandoffSummary>

/** Optional mint options (SPEC section 7 "Mint options"); a missing or null body is the plain mint. */
export const MintOptions = Type.Object({
  /** CSS selector of the part of the page to show the person. */
  region: Type.Optional(Selector),
  /** A `selector-stable` target whose readiness counts as completion. */
  ready_selector: Type.Optional(Selector),
  instructions: Type.Optional(Instructions),
  /** Default `control`. */
  mode: Type.Optional(HandoffMode)
}, CLOSED)
export type MintOptions = Static<typeof MintOptions>
export const MintBody = Type.Unsafe<MintOptions | null>({ ...MintOptions, type: ['object', 'null'] })

/** The one-time panel secret of `GET /takeover/:secret`; its shape is checked by the route, which answers a person in HTML. */
export const TakeoverParams = Type.Object({ secret: Type.String() })

export const FinishBody = Type.Object({ handoff_fence: Type.String({ minLength: 1, maxLength: 128 }) }, CLOSED)

export const AimRect = Type.Object({ x: Type.Number(), y: Type.Number(), width: Type.Number(), height: Type.Number() }, OPEN)
export type AimRect = Static<typeof AimRect>
/** What the panel shows: the driver's region, a recognised challenge widget, or the whole viewport. */
export const Aim = Type.Object({
  kind: Type.Enum(['selector', 'detected', 'viewport']),
  selector: Type.Optional(Type.String()),
  /** Viewport CSS pixels at the time of measuring; the panel re-measures per frame. */
  rect: Type.Optional(AimRect),
  /** The driver's region selector matched nothing visible (warning takeover_selector_missed). */
  missed: Type.Optional(Type.Boolean())
}, OPEN)
export type Aim = Static<typeof Aim>

/** A second mint while open returns the same fence and expiry with a fresh URL. */
export const HandoffMint = Type.Object({
  /**
   * Single-use secret panel URL; hand it to a person, do not log it. Absent only on an
   * Idempotency-Key repeat whose handoff is no longer open (warning `takeover_url_unavailable`).
   */
  takeover_url_secret: Type.Optional(Type.String()),
  handoff_fence: Type.String(),
  expires_at: Type.String(),
  surface: Type.Object({ tab_id: Type.String(), url: Type.String(), aim: Aim }, OPEN),
  warnings: Warnings
}, OPEN)
export type HandoffMint = Static<typeof HandoffMint>
