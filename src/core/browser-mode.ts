// docs/spec.md section 13: which Chromium runs. Pure: the caller supplies what the machine has.

import { BROWSER_MODES, type BrowserMode } from '../vocabulary/browser.js'

// The words live once, in src/vocabulary/browser.ts.
export { BROWSER_MODES, type BrowserMode }

export interface BrowserModeInputs {
  configured: BrowserMode
  /** The DISPLAY the host was started with, if any. */
  display: string | undefined
  /** An Xvfb executable the host could start, if any. */
  xvfbPath: string | undefined
}

export type BrowserModePlan =
  | { mode: 'headful', display: string, xvfbPath?: undefined, fallback?: undefined }
  /** Headful on an Xvfb the host starts, owns and stops. */
  | { mode: 'headful', display?: undefined, xvfbPath: string, fallback?: undefined }
  /** `fallback` says why `auto` could not be headful; absent when headless was asked for. */
  | { mode: 'headless', display?: undefined, xvfbPath?: undefined, fallback?: string }

export const NO_DISPLAY_REASON = 'DISPLAY is unset and no Xvfb executable was found on PATH (Debian package "xvfb")'

/**
 * headful and auto prefer an existing display, then an Xvfb of our own; auto falls back to
 * headless (with a reason the host logs and /health shows); headful without either is an error.
 */
export function planBrowserMode (inputs: BrowserModeInputs): BrowserModePlan | { error: string } {
  if (inputs.configured === 'headless') return { mode: 'headless' }
  if (inputs.display) return { mode: 'headful', display: inputs.display }
  if (inputs.xvfbPath) return { mode: 'headful', xvfbPath: inputs.xvfbPath }
  if (inputs.configured === 'headful') return { error: `is headful but ${NO_DISPLAY_REASON}` }
  return { mode: 'headless', fallback: `running headless: ${NO_DISPLAY_REASON}; sites see a headless browser` }
}
