// The words of a profile's metadata (docs/spec.md section 4), pure and import-free so the schemas, the
// config, the file parser and the panel page's type-check all read the same definitions.

/** A profile's name is its directory name: lower case, no separators, at most 63 characters. */
export const PROFILE_NAME_RE = /^[a-z0-9][a-z0-9._-]{0,62}$/
export const LABEL_KEY_RE = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,62}$/
export const SCHEMA_VERSION = 1
export const BACKENDS = ['chromium', 'cdp'] as const
export type Backend = typeof BACKENDS[number]

/** Permissions a page could prompt for (docs/spec.md section 16), denied for every origin when a browser starts; the names of the Permissions API. */
export const PROMPTED_PERMISSIONS = ['notifications', 'geolocation', 'camera', 'microphone', 'clipboard-read', 'clipboard-write'] as const
export type PromptedPermission = typeof PROMPTED_PERMISSIONS[number]

/** A profile's egress proxy schemes (docs/spec.md section 21). */
export const PROXY_SCHEMES = ['http:', 'https:', 'socks5:'] as const
/** The metadata fields that take effect only when the profile's browser next starts. */
export const NEXT_START_FIELDS = ['proxy', 'timezone', 'locale'] as const
export type NextStartField = typeof NEXT_START_FIELDS[number]
