// The audit trail of docs/spec.md section 19: who passed a check, when, and what they did there.
// Entries hold origins, counts, kinds and who — never typed or pasted text, key codes, cookie
// values, secrets, query strings or full URLs.
import { Type, type Static } from 'typebox'
import { CLOSED, described, OPEN, TabId, Warnings } from './common.js'
import { Controller, HandoffMode } from './handoff.js'
import { EndedBy } from './lifecycle.js'

export const AUDIT_KINDS = ['minted', 'exchanged', 'viewer_left', 'control', 'navigated', 'popup_opened', 'dialog_answered', 'file_uploaded', 'permission_granted', 'finished', 'expired', 'revoked'] as const
export const AuditKind = Type.Enum(AUDIT_KINDS)
export type AuditKind = Static<typeof AuditKind>

const Origin = Type.String({ description: 'scheme://host:port only (or the scheme, e.g. `about:`), never a path or query' })

export const AuditEntry = Type.Object({
  at: Type.String({ description: 'ISO time of the transition' }),
  handoff_fence: Type.String(),
  kind: AuditKind,
  tab_id: Type.String(),
  profile: Type.String(),
  mode: Type.Optional(described(HandoffMode, 'minted: the link minted')),
  reason: Type.Optional(Type.String({ description: 'minted: `challenge` or `driver`; finished and revoked: the finish_reason' })),
  reissued: Type.Optional(Type.Boolean({ description: 'minted: a second mint of the open handoff (a fresh link)' })),
  instructions: Type.Optional(Type.String({ description: 'minted: the driver\'s note for the person' })),
  expires_at: Type.Optional(Type.String()),
  viewer: Type.Optional(Type.Object({
    remote_address: Type.String(),
    user_agent: Type.String(),
    mode: HandoffMode
  }, { ...OPEN, description: 'exchanged: who opened the panel link' })),
  viewer_id: Type.Optional(Type.String({ description: 'the panel connection (viewer_left, control)' })),
  to: Type.Optional(described(Controller, 'control: who controls the page now')),
  generation: Type.Optional(Type.Number()),
  origin: Type.Optional(Origin),
  popup_tab_id: Type.Optional(Type.String()),
  dialog_type: Type.Optional(Type.String({ description: 'dialog_answered: alert, confirm, prompt or beforeunload; never the text' })),
  count: Type.Optional(Type.Number({ description: 'file_uploaded: files handed to the page' })),
  bytes: Type.Optional(Type.Number()),
  permission: Type.Optional(Type.String()),
  by: Type.Optional(described(EndedBy, 'finished, expired, revoked: who ended it')),
  outcome: Type.Optional(Type.Object({
    navigated: Type.Boolean(),
    final_origin: Origin,
    cookies_set: Type.Array(Type.String(), { description: 'cookie names only' })
  }, { ...OPEN, description: 'finished: what the person achieved' }))
}, OPEN)
export type AuditEntry = Static<typeof AuditEntry>

export const AuditQuery = Type.Object({
  /** Only entries at or after this ISO time. */
  since: Type.Optional(Type.String({ maxLength: 40 })),
  /** At most this many entries (default 100, at most AUDIT_PAGE_MAX); query strings are text, range-checked by the route. */
  limit: Type.Optional(Type.String({ pattern: '^\\d{1,7}$' }))
}, CLOSED)
export type AuditQuery = Static<typeof AuditQuery>
export const ProfileAuditParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 64 }) })

export const AuditTrailAnswer = Type.Object({
  entries: Type.Array(AuditEntry),
  /** The trail could not reach the disk (a full disk): entries are kept in memory and retried. */
  warnings: Type.Optional(Warnings),
  more: Type.Optional(Type.Boolean({ description: 'more entries matched than `limit`; ask again with `since` at the last one' }))
}, OPEN)
export type AuditTrailAnswer = Static<typeof AuditTrailAnswer>

export const TabAuditParams = Type.Object({ tab_id: TabId })
