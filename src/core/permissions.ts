// Permissions a page could prompt for (docs/spec.md section 16) and the per-origin grants a
// profile's metadata may carry (`permissions`). Pure: validated here, applied by page-ui.

import { PROMPTED_PERMISSIONS, type PromptedPermission } from '../vocabulary/profile.js'

// The names live once, in src/vocabulary/profile.ts.
export { PROMPTED_PERMISSIONS, type PromptedPermission }

/** `{"https://example.com": ["geolocation"]}`: origin → permissions granted to it. */
export type PermissionGrants = Record<string, PromptedPermission[]>

export const PERMISSION_ORIGINS_MAX = 32

/** Why a `permissions` value is unacceptable, or undefined when it is fine. */
export function permissionsProblem (value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object of origin → permission names'
  const entries = Object.entries(value)
  if (entries.length > PERMISSION_ORIGINS_MAX) return `must name at most ${PERMISSION_ORIGINS_MAX} origins`
  for (const [origin, names] of entries) {
    let parsed: URL
    try { parsed = new URL(origin) } catch { return `key "${origin.slice(0, 80)}" is not an origin such as https://example.com` }
    if ((parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || parsed.origin !== origin) return `key "${origin.slice(0, 80)}" must be an http(s) origin exactly, such as https://example.com (no path or trailing slash)`
    if (!Array.isArray(names) || names.length === 0) return `"${origin}" must be a non-empty array of permission names`
    const bad = names.find((n) => !(PROMPTED_PERMISSIONS as readonly unknown[]).includes(n))
    if (bad !== undefined) return `"${origin}" names ${JSON.stringify(bad).slice(0, 60)}; known permissions are ${PROMPTED_PERMISSIONS.join(', ')}`
  }
  return undefined
}
