// The host's lifecycle, typed once (docs/spec.md sections 7, 15, 19): what the handoff service, the tab
// registry and the browser pool announce as it happens. Every consumer — the event stream and
// webhook, /metrics, the panel, the audit trail — subscribes to these transitions instead of
// rebuilding the state machine. No payload ever holds a secret: a panel URL travels beside the
// `handoff.opened` transition as an opaque capability (src/core/lifecycle.ts), never inside it.
import { Type, type Static, type TSchema } from 'typebox'
import { OPEN } from './common.js'
import { Aim, Controller, FinishReason, HandoffMode, HandoffState, HandoffSummary } from './handoff.js'

const Fence = Type.String({ description: 'the handoff this transition belongs to' })

/** Why the host began a handoff: a takeover fetch met a challenge, or the driver asked. */
export const MintReason = Type.Enum(['challenge', 'driver'])
export type MintReason = Static<typeof MintReason>

const Minted = {
  handoff_fence: Fence,
  expires_at: Type.String({ description: 'ISO time the hold ends unless finished first' }),
  mode: HandoffMode,
  instructions: Type.Optional(Type.String({ description: 'the driver\'s plain-text note for the person' })),
  surface: Type.Object({ tab_id: Type.String(), url: Type.String(), aim: Aim }, OPEN)
}

/** Who ended a handoff: its driver (finish, DELETE), the person in the panel, or the host itself. */
export const EndedBy = Type.Enum(['driver', 'person', 'host'])
export type EndedBy = Static<typeof EndedBy>

const Ended = {
  ...Type.Omit(HandoffSummary, ['tab_id']).properties,
  by: EndedBy,
  held_ms: Type.Union([Type.Number(), Type.Null()], { description: 'from mint to the end of the hold; null when the hold had already expired' })
}

/**
 * Every transition and its payload. The page effects a person causes during a handoff (navigated,
 * popup_opened, …) carry origins and counts only, never text, key codes or full URLs.
 */
export const TRANSITIONS = {
  'handoff.opened': Type.Object({ ...Minted, reason: MintReason }, { description: 'a handoff began (its panel URL rides beside, never inside)' }),
  'handoff.url_reissued': Type.Object({ ...Minted, reason: MintReason }, { description: 'a second mint of the open handoff: a fresh URL, the earlier unused one revoked' }),
  'handoff.exchanged': Type.Object({
    handoff_fence: Fence,
    mode: HandoffMode,
    remote_address: Type.String({ description: 'the address the panel link was opened from' }),
    user_agent: Type.String({ maxLength: 256, description: 'the User-Agent header, cut to 256 characters' })
  }),
  'handoff.viewer_joined': Type.Object({ handoff_fence: Fence, viewers: Type.Number(), viewer_id: Type.String(), mode: HandoffMode }, { description: 'a panel connected' }),
  'handoff.viewer_left': Type.Object({ handoff_fence: Fence, viewers: Type.Number(), viewer_id: Type.String() }, { description: 'a panel disconnected' }),
  'handoff.control': Type.Object({ handoff_fence: Fence, controller: Controller, generation: Type.Number(), state: HandoffState, viewer_id: Type.Optional(Type.String()) }, { description: 'controller and generation changed' }),
  'handoff.finished': Type.Object(Ended, { description: 'the handoff ended: Done, decline, completion detected or the driver\'s finish' }),
  'handoff.expired': Type.Object(Ended, { description: 'the hold ran out (the service\'s own timer)' }),
  'handoff.revoked': Type.Object(Ended, { description: 'the tab or browser closed, or the host shut down' }),
  'handoff.navigated': Type.Object({ handoff_fence: Fence, origin: Type.String({ description: 'scheme://host:port of the new document, never its path or query' }), popup_tab_id: Type.Optional(Type.String()) }, { description: 'the page a person works on loaded a new document' }),
  'handoff.popup_opened': Type.Object({ handoff_fence: Fence, popup_tab_id: Type.String(), origin: Type.String() }, { description: 'the page opened a popup that joined the handoff' }),
  'handoff.dialog_answered': Type.Object({ handoff_fence: Fence, dialog_type: Type.String({ description: 'alert, confirm, prompt or beforeunload; never the answer' }) }, { description: 'a person answered a JavaScript dialog' }),
  'handoff.file_uploaded': Type.Object({ handoff_fence: Fence, count: Type.Number(), bytes: Type.Number() }, { description: 'a person chose files for a file chooser' }),
  'handoff.permission_granted': Type.Object({ handoff_fence: Fence, permission: Type.String(), origin: Type.String() }, { description: 'a person granted a site permission' }),
  'tab.opened': Type.Object({ url: Type.String(), origin: Type.Enum(['host', 'adopted']), opener_tab_id: Type.Optional(Type.String()) }, { description: 'a tab the host tracks, popups with their opener' }),
  'tab.closed': Type.Object({ reason: Type.Enum(['api', 'fetch_cleanup', 'reaper', 'page_closed', 'browser_lost', 'recycled']) }, { description: 'a tab left the inventory' }),
  'browser.started': Type.Object({ pid: Type.Union([Type.Number(), Type.Null()]) }, { description: 'the profile\'s browser started' }),
  'browser.lost': Type.Object({}, { description: 'the profile\'s browser went away without the host asking' })
} satisfies Record<string, TSchema>

export type TransitionType = keyof typeof TRANSITIONS
export type TransitionData<K extends TransitionType> = Static<typeof TRANSITIONS[K]>

/** One transition as its listeners hear it: `at` is the host clock in ms. */
export interface Transition<K extends TransitionType = TransitionType> {
  type: K
  at: number
  tab_id?: string
  profile?: string
  data: TransitionData<K>
}

/** Transitions that end a handoff's hold (each handoff ends its hold once; a revoke may follow an expiry). */
export const HANDOFF_ENDINGS = ['handoff.finished', 'handoff.expired', 'handoff.revoked'] as const
export type FinishReasonValue = Static<typeof FinishReason>
