// How long a completion check keeps looking (docs/spec.md section 7), as pure arithmetic over
// performance.now() times so its rules are tested without a page or a clock. A check looks until
// WATCH_MS after the last release. Every release gets that whole window, however long the check has
// run: a release is the person's new attempt, and one absorbed into a check about to stop would
// never be looked at (a clean-clone run left a phone's Continue unfinished that way, or so its
// timing allows). A look that got no answer (a busy page, a document loading) or found the target
// still settling keeps the check going too, but at most MAX_WATCH_MS after the last release, so a
// page that never settles does not keep a check alive on its own.

/** How long a check keeps looking after the last release: long enough for a navigation. */
export const WATCH_MS = 4_000
/** The furthest a page's own lateness carries a check past the last release. */
export const MAX_WATCH_MS = 30_000

export interface CompletionWindow {
  /** When the last release (or Enter) was. */
  releasedAt: number
  /** When the check stops looking, unless a look extends it. */
  until: number
}

export function windowFromRelease (now: number): CompletionWindow {
  return { releasedAt: now, until: now + WATCH_MS }
}

/** Another release during the check: the whole window again, from now. Never shortens it. */
export function afterRelease (w: CompletionWindow, now: number): CompletionWindow {
  return { releasedAt: now, until: Math.max(w.until, now + WATCH_MS) }
}

/** A look without an answer, or with the target still settling: a little longer, up to the cap. */
export function afterLateLook (w: CompletionWindow, now: number): CompletionWindow {
  return { releasedAt: w.releasedAt, until: Math.max(w.until, Math.min(w.releasedAt + MAX_WATCH_MS, now + WATCH_MS)) }
}
