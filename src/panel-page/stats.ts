// What the panel page tells the page around it (tests, benchmarks, embedding pages) through
// window.afhttpPanelStats and window.afhttpOnFrame: a stable hook, typed once here.
import type { FrameHeader } from '../panel/frame-codec.js'
import type { AimKind } from '../panel/frame-codec.js'

export interface PanelStats {
  frames: number
  bytes: number
  last_frame_at: number | null
  inputs_sent: number
  /** Inputs waiting to be sent now, ever made to wait, and refused with a notice (docs/spec.md section 17). */
  inputs_held: number
  inputs_waited: number
  inputs_refused: number
  frames_drawn: number
  frames_skipped: number
  first_frame_at: number | null
  last_drawn_at: number | null
  script_at: number
  last_input_at: number | null
  ws_connects: number
  ws_open_at: number | null
  aim: AimKind | null
  controller: string | null
  you_control: boolean
  state: string | null
  /** The control generation the panel stamps its input with (input under an older one is dropped). */
  generation: number | null
  /** Status poll answers handled, and those ignored as older than the socket's latest state. */
  status_answers: number
  status_stale: number
  mode: string | null
  zoom: number
  tab_id: string
  tabs?: number
  device?: { width: number, height: number }
  /** Sharp stills of a zoomed view (docs/panel.md "Sharp when zoomed"). */
  stills_drawn: number
  stills_dropped: number
  still_bytes: number
  /** The last still drawn: its part of the viewport (CSS px), scale and image size. */
  still?: { x: number, y: number, width: number, height: number, scale: number, imageWidth: number, imageHeight: number, scrollY: number }
  /** How much of that still newer frames have replaced since. */
  still_stale_share?: number
  finish_reason?: string | null
}

declare global {
  interface Window {
    afhttpPanelStats: PanelStats
    afhttpOnFrame?: (frame: { header: FrameHeader, bitmap: ImageBitmap, drawnAt: number }) => void
    /** After a frame is drawn and laid out (`first` for the panel's first picture). */
    afhttpOnDrawn?: (frame: { header: FrameHeader, drawnAt: number, first: boolean }) => void
  }
}
