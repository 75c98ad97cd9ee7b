// The panel page's own calls (docs/spec.md section 7): made by a person's browser with the UI lease
// cookie (`afhttp_lease_<tab>`, same origin), never with the API token. Their shapes live here
// once: the routes validate and serialize with them, the OpenAPI document lists them, and the
// panel page reads its types from them.
import { Type, type Static } from 'typebox'
import { DECLINE_NOTE_MAX_CHARS, UPLOAD_FILES_MAX } from '../limits.js'
import { CLOSED, OPEN } from './common.js'
import { HandoffMode, HandoffSummary } from './handoff.js'

/** Which handed-off tab the panel belongs to; a missing or unknown one is `panel_lease_invalid`. */
const PanelTab = Type.Optional(Type.String({ maxLength: 64 }))
export const PanelTabQuery = Type.Object({ tab: PanelTab })

/** GET /panel/api/status: the connection banner's poll, and the handoff while the socket is down. */
export const PanelStatus = Type.Object({
  now: Type.String({ description: 'the host\'s clock, for the hold countdown' }),
  lease_expires_at: Type.String(),
  handoff: HandoffSummary,
  viewers: Type.Number(),
  mode: HandoffMode,
  backend_connected: Type.Boolean()
}, OPEN)
export type PanelStatus = Static<typeof PanelStatus>

/** POST /panel/api/lease: the UI lease renewed (live checks first). */
export const LeaseRenewal = Type.Object({ lease_expires_at: Type.String(), handoff: HandoffSummary }, OPEN)

/** The person's note when they cannot do it (over HTTP here, or the socket's `decline`). */
export const DeclineReason = Type.Optional(Type.String({ maxLength: DECLINE_NOTE_MAX_CHARS, description: 'why the person could not do it, for the driver (`human_note`)' }))
const DeclineOptions = Type.Object({ reason: DeclineReason }, CLOSED)
/** POST /panel/api/decline: "I can't do this" without the socket; a missing or null body declines with no reason. */
export const DeclineBody = Type.Unsafe<Static<typeof DeclineOptions> | null>({ ...DeclineOptions, type: ['object', 'null'] })

/** POST /panel/api/files: one raw file (`application/octet-stream`) for the open file chooser. */
export const PanelFileQuery = Type.Object({ tab: PanelTab, name: Type.Optional(Type.String({ description: 'the file name the page will see (made safe, shortened if need be)' })) })
export const StoredFile = Type.Object({ file_id: Type.String(), name: Type.String(), size: Type.Number() }, OPEN)
export type StoredFile = Static<typeof StoredFile>

/** POST /panel/api/chooser: the chooser answered with files stored before (none cancels it). */
export const ChooserBody = Type.Object({ files: Type.Array(Type.String({ maxLength: 64 }), { maxItems: UPLOAD_FILES_MAX, description: '`file_id`s from /panel/api/files' }) }, CLOSED)
export const ChooserAnswer = Type.Object({ ok: Type.Boolean(), files: Type.Number() }, OPEN)
