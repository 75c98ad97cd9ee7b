// What one look at a page found: the shape the pipeline (src/fetch/pipeline.ts) and a page
// blocked by a dialog (src/fetch/blocked.ts) both answer with.
import type { Recognition } from '../core/challenge.js'
import type { Verdict } from '../core/verdict.js'
import type { OpenDialog } from '../core/page-ui.js'
import type { Warning } from '../schemas/index.js'
import type { MainResponse } from './navigate.js'
import type { Readiness } from './readiness.js'
import type { Artifacts } from './capture.js'

export interface Inspection {
  response?: MainResponse
  readiness: Readiness
  recognition: Recognition
  verdict: Verdict
  artifacts: Artifacts
  warnings: Warning[]
  /**
   * When the page was judged by the frame that fills its view (src/core/frame-view.ts), that
   * frame's document (src/fetch/filling-frame.ts documentOf).
   */
  frameDocument?: string
  /** The page is blocked by this dialog: nothing in it could be observed. */
  blocked?: OpenDialog
}
