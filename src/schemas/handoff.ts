// The driver's side of a handoff (docs/spec.md section 7): mint options, the mint answer, the summary.
import { Type, type Static } from 'typebox'
import { DECLINE_NOTE_MAX_CHARS } from '../limits.js'
import { CLOSED, described, OPEN, Warnings } from './common.js'
import { Instructions, Selector } from './fetch.js'

export const HandoffState = Type.Enum(['open', 'human', 'human_disconnected', 'finished', 'expired', 'revoked'])
export type HandoffState = Static<typeof HandoffState>
export const FinishReason = Type.Enum(['driver', 'human_done', 'human_declined', 'auto_detected', 'tab_closed', 'browser_lost', 'shutdown', 'api_close'])
export type FinishReason = Static<typeof FinishReason>
export const Controller = Type.Enum(['agent', 'human', 'human_disconnected'])
export type Controller = Static<typeof Controller>
/** `view` links watch only: the host refuses them control, Done, decline and input. */
export const HANDOFF_MODES = ['control', 'view'] as const
export const HandoffMode = Type.Enum(HANDOFF_MODES)
export type HandoffMode = Static<typeof HandoffMode>

/** What changed during the handoff (docs/spec.md section 7 "Outcome"): cookie names, never values. */
export const HandoffOutcome = Type.Object({
  final_url: Type.String(),
  navigated: Type.Boolean({ description: 'the top document changed since the handoff began, or the frame that fills the view moved on from the document its challenge was last seen in' }),
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
  auto_done: Type.Boolean({ description: 'the host detected completion itself (challenge gone, or the selector-stable target ready)' }),
  will_check_again: Type.Boolean({ description: 'false once the host has used its completion checks: only Done (or finish) ends the handoff now' }),
  checks_left: Type.Number(),
  warnings: Type.Optional(described(Warnings, 'present when something the driver asked for could not be honoured in the panel')),
  instructions: Type.Optional(Type.String()),
  human_note: Type.Optional(Type.String({ description: 'the person\'s reason when finish_reason is `human_declined`' })),
  outcome: Type.Optional(HandoffOutcome),
  tab_closed: Type.Optional(Type.Boolean({ description: 'a closed tab\'s last handoff is still answered, revoked, with this flag' }))
}, OPEN)
export type HandoffSummary = Static<typeof HandoffSummary>

/** Optional mint options (docs/spec.md section 7 "Mint options"); a missing or null body is the plain mint. */
export const MintOptions = Type.Object({
  region: Type.Optional(described(Selector, 'CSS selector of the part of the page to show the person')),
  ready_selector: Type.Optional(described(Selector, 'a `selector-stable` target whose readiness counts as completion')),
  instructions: Type.Optional(Instructions),
  mode: Type.Optional(described(HandoffMode, 'default `control`'))
}, CLOSED)
export type MintOptions = Static<typeof MintOptions>
export const MintBody = Type.Unsafe<MintOptions | null>({ ...MintOptions, type: ['object', 'null'] })

/** The one-time panel secret of `GET /takeover/:secret`; its shape is checked by the route, which answers a person in HTML. */
export const TakeoverParams = Type.Object({ secret: Type.String() })

export const FinishBody = Type.Object({
  handoff_fence: Type.String({ minLength: 1, maxLength: 128 }),
  // A driver that asked its person elsewhere (an MCP client's URL elicitation, docs/spec.md section 18)
  // reports their refusal as the panel's decline would: the same reason, the tab stays retained.
  reason: Type.Optional(Type.Enum(['driver', 'human_declined'], { description: 'default `driver`; `human_declined` when the person the driver asked said no outside the panel (e.g. declined an MCP elicitation)' })),
  human_note: Type.Optional(Type.String({ maxLength: DECLINE_NOTE_MAX_CHARS, description: 'with `human_declined`: why, for the record (`human_note`)' }))
}, CLOSED)

export const AimRect = Type.Object({ x: Type.Number(), y: Type.Number(), width: Type.Number(), height: Type.Number() }, OPEN)
export type AimRect = Static<typeof AimRect>
/** What the panel shows: the driver's region, a recognised challenge widget, or the whole viewport. */
export const Aim = Type.Object({
  kind: Type.Enum(['selector', 'detected', 'viewport']),
  selector: Type.Optional(Type.String()),
  rect: Type.Optional(described(AimRect, 'viewport CSS pixels at the time of measuring; the panel re-measures per frame')),
  missed: Type.Optional(Type.Boolean({ description: 'the driver\'s region selector matched nothing visible (warning takeover_selector_missed)' }))
}, OPEN)
export type Aim = Static<typeof Aim>

/** A second mint while open returns the same fence and expiry with a fresh URL. */
export const HandoffMint = Type.Object({
  takeover_url_secret: Type.Optional(Type.String({ description: 'single-use secret panel URL: hand it to a person, never log it; absent only on an Idempotency-Key repeat whose handoff is no longer open (warning `takeover_url_unavailable`)' })),
  handoff_fence: Type.String(),
  expires_at: Type.String(),
  surface: Type.Object({ tab_id: Type.String(), url: Type.String(), aim: Aim }, OPEN),
  warnings: Warnings
}, OPEN)
export type HandoffMint = Static<typeof HandoffMint>
