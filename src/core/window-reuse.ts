// Whether a fetch's window may serve the next fetch (docs/spec.md section 14: nothing carries from one
// fetch to the next except the profile's own state). A window is reused only when everything a
// site could leave in it is known to be gone; anything the host could not watch counts against
// it, and such a window is closed as before. Pure: fed what the window's watch saw.

/** What a window's watch saw while one fetch used it (since it was last clean). */
export interface WindowUseFacts {
  /** A document in the window wrote, changed or cleared sessionStorage (it outlives the document). */
  sessionStorageChanged: boolean
  /** A frame ran in another process: its storage writes and state were not watched. */
  outOfProcessFrame: boolean
  /** The page opened a window: it keeps `opener`, a live reference to this one. */
  popupOpened: boolean
  /** A JavaScript dialog (alert, confirm, prompt, beforeunload) opened. */
  dialogOpened: boolean
  /** The page kept reloading itself and a held navigation is still owed to it. */
  reloadHeld: boolean
  /** The window's watch could not be set up (storage events unknown). */
  unwatched: boolean
  /** A raw CDP passthrough client attached to it: its session (and overrides) may outlive the fetch. */
  cdpClient: boolean
}

/** What the window shows after the reset (about:blank), against what it showed when it opened. */
export interface WindowState {
  url: string
  historyLength: number
  frames: number
  name: string
  opener: boolean
  scrollX: number
  scrollY: number
  focused: boolean
  visibility: string
  innerWidth: number
  innerHeight: number
  outerWidth: number
  outerHeight: number
  screenX: number
  screenY: number
  devicePixelRatio: number
  zoom: number
}

/** `fact` names what failed in a word (for counters); `reason` says it in a sentence. */
export type ReuseVerdict = { reuse: true } | { reuse: false, fact: string, reason: string }

const WATCHED: Array<[keyof WindowUseFacts, string]> = [
  ['unwatched', 'its storage could not be watched'],
  ['sessionStorageChanged', 'a page changed sessionStorage'],
  ['outOfProcessFrame', 'a frame ran out of process, unwatched'],
  ['popupOpened', 'a page opened a window that still references it'],
  ['dialogOpened', 'a page opened a dialog'],
  ['reloadHeld', 'a page was still reloading itself'],
  ['cdpClient', 'a raw CDP client attached to it']
]

/** Before the reset: may the window be reset for another fetch at all? */
export function mayReset (facts: WindowUseFacts): ReuseVerdict {
  for (const [key, why] of WATCHED) if (facts[key]) return { reuse: false, fact: key, reason: why }
  return { reuse: true }
}

/**
 * After the reset: the window must look as it did when it opened (a fresh window), with one
 * history entry, no frames, no name and no opener, scrolled to the top.
 */
export function resetClean (opened: WindowState, now: WindowState): ReuseVerdict {
  if (now.url !== 'about:blank') return { reuse: false, fact: 'url', reason: `it shows ${now.url.slice(0, 80)}, not about:blank` }
  if (now.historyLength !== 1) return { reuse: false, fact: 'historyLength', reason: `its history has ${now.historyLength} entries` }
  if (now.frames !== 0) return { reuse: false, fact: 'frames', reason: 'it still has frames' }
  if (now.name !== '') return { reuse: false, fact: 'name', reason: 'it still has a name' }
  if (now.opener) return { reuse: false, fact: 'opener', reason: 'it has an opener' }
  for (const key of ['scrollX', 'scrollY', 'focused', 'visibility', 'innerWidth', 'innerHeight', 'outerWidth', 'outerHeight', 'screenX', 'screenY', 'devicePixelRatio', 'zoom'] as const) {
    if (now[key] !== opened[key]) return { reuse: false, fact: key, reason: `its ${key} is ${String(now[key])}, not ${String(opened[key])} as when it opened` }
  }
  return { reuse: true }
}

/**
 * The site a window last served, as far as reuse is concerned: scheme and host. A reset window
 * keeps its renderer process, which Chromium locked to that site; a fetch of another site swaps
 * in a new process and a new widget that learns the window's size only after the page's first
 * scripts ran (`outerWidth` 0 while parsing, a headless tell). So a reset window serves only its
 * own site. Stricter than Chromium's site (scheme and registrable domain): a subdomain misses a
 * reuse it could have had, never the other way round.
 */
export function reuseSite (url: string): string {
  try {
    const u = new URL(url)
    return `${u.protocol}//${u.hostname}`
  } catch {
    return ''
  }
}
