// Targets a raw CDP passthrough client attached to (docs/spec.md section 5's raw CDP). Such a client may
// keep a session, and overrides set through it, on a window after the fetch that used it is
// done, so the window pool never resets such a window for another fetch (see WindowUse).

// Target ids are never reused by Chromium; the oldest are forgotten past this many.
const REMEMBERED = 4096
const attached = new Set<string>()

export function noteClientAttached (targetId: string): void {
  attached.delete(targetId)
  attached.add(targetId)
  if (attached.size > REMEMBERED) attached.delete(attached.values().next().value as string)
}

export function clientAttached (targetId: string | undefined): boolean {
  return targetId !== undefined && attached.has(targetId)
}
