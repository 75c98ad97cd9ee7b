// Which Chromium runs (docs/spec.md section 13): the words the config, the schemas and the
// planner (src/core/browser-mode.ts) share.

export const BROWSER_MODES = ['auto', 'headful', 'headless'] as const
export type BrowserMode = typeof BROWSER_MODES[number]
