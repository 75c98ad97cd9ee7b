// What every screencast of every tab shares (the full stream and the lean one): the event's
// shape, the size asked of Chromium, the clock frames are stamped with, and frame numbers.

export interface ScreencastSize { maxWidth: number, maxHeight: number }

export interface ScreencastFrameEvent {
  data: string
  sessionId: number
  metadata: { deviceWidth: number, deviceHeight: number, pageScaleFactor: number, scrollOffsetX: number, scrollOffsetY: number }
}

/** Wall-clock milliseconds (fractional): frames carry it, and the viewer compares it with its own. */
export const wallClock = (): number => performance.timeOrigin + performance.now()

/**
 * Frame numbers run across every tab's streams: a viewer shown a popup and then its opener (or
 * moved between the full and the lean stream) must never take a frame, or a still naming one,
 * of the one for the other.
 */
let frameSeq = 0
export const nextFrameSeq = (): number => ++frameSeq
