// Which stream a viewer gets (docs/spec.md section 10 "Stream", docs/panel.md "A slow viewer").
//
// Every viewer starts on the full stream. A viewer whose link cannot carry it (the host's
// newest-frame-wins sink drops a good share of the frames the page paints, and fewer than
// LEAN_BELOW_FPS reach it) moves to the lean stream: smaller, lower-quality frames from a
// second screencast, so the same link carries more of them. Every so often a lean viewer tries
// the full stream again; a try that fails doubles the wait before the next, up to a ceiling.
// Pure: the caller measures and keeps the state; this only decides.

export type StreamTier = 'full' | 'lean'

export interface TierState {
  tier: StreamTier
  /** When the tier last changed (ms, the caller's clock). */
  since: number
  /** How long a lean viewer waits before it tries the full stream again. */
  retryMs: number
  /** On the full stream because of a try, not from the start. */
  trying: boolean
}

/** What the viewer's sink did over one measuring window. */
export interface DeliveryWindow {
  /** Frames handed to the viewer's socket. */
  sent: number
  /** Frames replaced by a newer one before they could be sent. */
  skipped: number
  ms: number
}

/** Fewer frames a second than this is a picture that stutters; the lean stream should do better. */
export const LEAN_BELOW_FPS = 20
/** The share of the page's frames a sink must drop before its link, not the page, is the limit. */
export const LEAN_SKIP_SHARE = 0.25
/** Windows shorter than this say too little to act on. */
export const TIER_WINDOW_MS = 1_500
export const FULL_RETRY_MS = 15_000
export const FULL_RETRY_MAX_MS = 120_000
/** A try of the full stream that held this long succeeded: the next fall starts the waits anew. */
export const FULL_TRY_HELD_MS = 10_000

export function initialTier (now: number): TierState {
  return { tier: 'full', since: now, retryMs: FULL_RETRY_MS, trying: false }
}

/** True when the window shows a link that drops frames and delivers too few of them. */
export function linkIsTheLimit (w: DeliveryWindow): boolean {
  const offered = w.sent + w.skipped
  if (w.ms < TIER_WINDOW_MS || offered === 0) return false
  const fps = w.sent * 1000 / w.ms
  return fps < LEAN_BELOW_FPS && w.skipped / offered >= LEAN_SKIP_SHARE
}

export function nextTier (state: TierState, w: DeliveryWindow, now: number): TierState {
  if (state.tier === 'full') {
    if (!linkIsTheLimit(w)) return state
    const failedTry = state.trying && now - state.since < FULL_TRY_HELD_MS
    const retryMs = failedTry ? Math.min(FULL_RETRY_MAX_MS, state.retryMs * 2) : FULL_RETRY_MS
    return { tier: 'lean', since: now, retryMs, trying: false }
  }
  if (now - state.since >= state.retryMs) return { tier: 'full', since: now, retryMs: state.retryMs, trying: true }
  return state
}

/**
 * The lean stream: half the width and height the viewer could show (a quarter of the pixels)
 * at a lower JPEG quality, about a third of a full frame's bytes. Text stays legible when the
 * person zooms in, where stills of the zoomed part sharpen it (docs/panel.md "Sharp when zoomed").
 */
export const LEAN_SCALE = 0.5
export const LEAN_QUALITY = 40
const LEAN_MIN_WIDTH = 320

export function leanSize (size: { maxWidth: number, maxHeight: number }): { maxWidth: number, maxHeight: number } {
  const scale = Math.max(LEAN_SCALE, Math.min(1, LEAN_MIN_WIDTH / size.maxWidth))
  return { maxWidth: Math.round(size.maxWidth * scale), maxHeight: Math.round(size.maxHeight * scale) }
}
