// Profiles (docs/spec.md sections 4 and 5): metadata, listing, create and update.
import { Type, type Static } from 'typebox'
import { BACKENDS, LABEL_KEY_RE, NEXT_START_FIELDS, PROFILE_NAME_RE, PROMPTED_PERMISSIONS, SCHEMA_VERSION } from '../vocabulary/profile.js'
import { PROFILE_METADATA_LIMITS as LIMITS } from '../limits.js'
import { CLOSED, described, Nullable, OPEN, Warnings } from './common.js'

export const Backend = Type.Enum(BACKENDS)
export type Backend = Static<typeof Backend>

const Name = Type.String({ minLength: 1, maxLength: 63, pattern: PROFILE_NAME_RE.source })
const CdpUrl = Type.String({ minLength: 1, maxLength: LIMITS.cdpUrl, pattern: '^(wss?|https?)://' })
const labelKeys = { type: 'string', maxLength: LIMITS.labelKey, pattern: LABEL_KEY_RE.source }
/** Labels as a request sets them: bounded in number, key shape and value length. */
const LabelsIn = Type.Unsafe<Record<string, string>>({
  type: 'object',
  maxProperties: LIMITS.labels,
  propertyNames: labelKeys,
  additionalProperties: { type: 'string', maxLength: LIMITS.labelValue }
})
/** A JSON merge patch: a string sets a label, null removes it. */
const LabelsPatch = Type.Unsafe<Record<string, string | null>>({
  type: 'object',
  maxProperties: LIMITS.labels,
  propertyNames: labelKeys,
  additionalProperties: { type: ['string', 'null'], maxLength: LIMITS.labelValue }
})

// docs/spec.md section 21. Checked by src/core/network-identity.ts, whose messages name the field and
// never repeat a proxy URL (it may hold a password).
const ProxyUrl = described(Type.String({ minLength: 1, maxLength: LIMITS.proxy }),
  'egress proxy: `http://`, `https://` or `socks5://` URL, optionally with `user:password@`; no path. Answers show the password as `redacted`. Takes effect when the profile\'s browser next starts')
const Timezone = described(Type.String({ minLength: 1, maxLength: 64 }), 'IANA time zone (e.g. `Europe/Paris`) every page of this profile uses; takes effect at the next browser start')
const Locale = described(Type.String({ minLength: 1, maxLength: 35 }), 'BCP 47 language tag (e.g. `fr-FR`): navigator.language, Accept-Language and Intl; takes effect at the next browser start')

export const ProfileParams = Type.Object({ name: Name })

/** `POST /v1/profiles`. Names match `^[a-z0-9][a-z0-9._-]{0,62}$`. */
export const ProfileCreateBody = Type.Object({
  name: Name,
  backend: Type.Optional(Backend),
  cdp_url: Type.Optional(described(CdpUrl, 'required exactly when `backend` is `cdp`')),
  labels: Type.Optional(LabelsIn),
  proxy: Type.Optional(ProxyUrl),
  timezone: Type.Optional(Timezone),
  locale: Type.Optional(Locale)
}, CLOSED)
export type ProfileCreateBody = Static<typeof ProfileCreateBody>

/** `PATCH /v1/profiles/:name`: `labels` merge (null removes one), `cdp_url` replaces; `proxy`, `timezone`, `locale` replace (null removes). */
export const ProfilePatchBody = Type.Object({
  cdp_url: Type.Optional(CdpUrl),
  labels: Type.Optional(LabelsPatch),
  proxy: Type.Optional(Nullable(ProxyUrl)),
  timezone: Type.Optional(Nullable(Timezone)),
  locale: Type.Optional(Nullable(Locale))
}, { ...CLOSED, minProperties: 1 })
export type ProfilePatch = Static<typeof ProfilePatchBody>

const metadataFields = {
  schema_version: Type.Literal(SCHEMA_VERSION),
  name: Type.String(),
  backend: Backend,
  cdp_url: Type.Optional(Type.String({ description: 'present exactly when backend is `cdp`' })),
  labels: Type.Record(Type.String(), Type.String()),
  /** Per-origin permission grants (docs/spec.md section 16); everything else is denied. */
  permissions: Type.Optional(Type.Record(Type.String(), Type.Array(Type.Enum(PROMPTED_PERMISSIONS)))),
  /** docs/spec.md section 21: the network identity; answers carry the proxy with its password redacted. */
  proxy: Type.Optional(Type.String({ description: 'egress proxy URL; in answers the password reads `redacted`' })),
  timezone: Type.Optional(Type.String({ description: 'IANA time zone every page of this profile uses' })),
  locale: Type.Optional(Type.String({ description: 'BCP 47 language tag every page of this profile uses' })),
  created_at: Type.String(),
  updated_at: Type.String()
}
/** The durable metadata of a profile (`<profiles dir>/<name>/afhttp-profile.json`). */
export const ProfileMetadata = Type.Object(metadataFields, OPEN)
/** The fields a metadata file may hold, in the order it is written (src/core/profile-metadata.ts). */
export const METADATA_KEYS = Object.keys(metadataFields) as ReadonlyArray<keyof typeof metadataFields>
export type ProfileMetadata = Static<typeof ProfileMetadata>

/** A profile directory whose metadata cannot be used: listed, never hidden. */
export const InvalidProfileListing = Type.Object({
  name: Type.String(),
  error: Type.Object({ code: Type.String(), message: Type.String() }, OPEN)
}, OPEN)
export type InvalidProfileListing = Static<typeof InvalidProfileListing>
export const ProfileListing = Type.Union([ProfileMetadata, InvalidProfileListing])
export type ProfileListing = Static<typeof ProfileListing>
export const ProfileList = Type.Object({ profiles: Type.Array(ProfileListing) }, OPEN)

/** `POST /v1/profiles` (201) and `PATCH /v1/profiles/:name`. */
export const ProfileWriteResult = Type.Object({
  profile: ProfileMetadata,
  warnings: described(Warnings, 'e.g. `metadata_durability_unconfirmed` when the directory sync failed after the rename; `browser_restart_needed` when a running browser keeps its old network identity'),
  applies_at_next_start: Type.Optional(Type.Array(Type.Enum(NEXT_START_FIELDS), {
    description: 'fields this write changed that take effect only when the profile\'s browser next starts (`proxy`, `timezone`, `locale`); absent when none changed'
  }))
}, OPEN)

export type ProfileWriteAnswer = Static<typeof ProfileWriteResult>

/** Whether a profile's browser is up; null when the host has no browser backend to ask. */
export const ProfileRunningState = Type.Object({
  running: Type.Boolean(),
  connected: Type.Boolean(),
  backend: Type.Optional(Backend),
  pid: Type.Optional(Type.Number({ description: 'the browser process a `chromium` profile runs, while it runs' })),
  starting: Type.Optional(Type.Boolean({ description: 'true while the browser is being started (docs/spec.md section 22: the host serves before its browsers are up)' })),
  error: Type.Optional(Type.String({ description: 'why the last browser went away or failed to start' }))
}, OPEN)
export type ProfileRunningState = Static<typeof ProfileRunningState>
export const ProfileDescription = Type.Object({
  profile: Type.Object({ ...metadataFields, running: Nullable(ProfileRunningState) }, OPEN)
}, OPEN)
