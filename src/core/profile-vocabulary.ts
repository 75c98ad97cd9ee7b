// The words of a profile's metadata (docs/spec.md section 4), pure and import-free so the schemas, the
// config, the file parser and the panel page's type-check all read the same definitions.

/** A profile's name is its directory name: lower case, no separators, at most 63 characters. */
export const PROFILE_NAME_RE = /^[a-z0-9][a-z0-9._-]{0,62}$/
export const LABEL_KEY_RE = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,62}$/
export const SCHEMA_VERSION = 1
export const BACKENDS = ['chromium', 'cdp'] as const
export type Backend = typeof BACKENDS[number]
