// Keys the panel relays as key events rather than text (docs/spec.md section 10 "Keyboard").
// Printable characters never come through here: they arrive as text (Input.insertText)
// so AltGr, dead keys and IME composition land exactly as typed.

export interface KeySpec {
  key: string
  code: string
  /** Without windowsVirtualKeyCode Chromium ignores non-printable keys (docs/panel.md "CDP facts" 7). */
  keyCode: number
  /** Enter types a line break in text fields and submits forms only with text "\r". */
  text?: string
}

const spec = (key: string, keyCode: number, text?: string): KeySpec => ({ key, code: key, keyCode, ...(text ? { text } : {}) })

export const NAMED_KEYS: Readonly<Record<string, KeySpec>> = Object.freeze({
  Tab: spec('Tab', 9),
  Enter: spec('Enter', 13, '\r'),
  Backspace: spec('Backspace', 8),
  Delete: spec('Delete', 46),
  Escape: spec('Escape', 27),
  ArrowLeft: spec('ArrowLeft', 37),
  ArrowUp: spec('ArrowUp', 38),
  ArrowRight: spec('ArrowRight', 39),
  ArrowDown: spec('ArrowDown', 40),
  Home: spec('Home', 36),
  End: spec('End', 35),
  PageUp: spec('PageUp', 33),
  PageDown: spec('PageDown', 34),
  // Space goes as a key, not as text: it must press buttons and tick boxes as well as type.
  ' ': { key: ' ', code: 'Space', keyCode: 32, text: ' ' }
})

/** The relayed key with this DOM `code` (HeldInput remembers codes). */
export function keyByCode (code: string): KeySpec | undefined {
  return Object.values(NAMED_KEYS).find((k) => k.code === code)
}

/** CDP modifier bits. */
export const MOD = Object.freeze({ alt: 1, ctrl: 2, meta: 4, shift: 8 })

export interface Shortcut { key: string; code: string; keyCode: number; commands: string[] }

/** The letters whose Ctrl/Cmd shortcut belongs to the page (every other one is the browser's). */
export const PAGE_SHORTCUT_KEYS = ['a', 'z', 'y'] as const
export type PageShortcutKey = typeof PAGE_SHORTCUT_KEYS[number]

/**
 * Ctrl/Cmd shortcuts that belong to the page. The page runs on Linux, so a Mac viewer's
 * Cmd-A arrives as Ctrl-A; the editing command is named too so it works in any field.
 */
export function shortcutFor(letter: string, shift: boolean): Shortcut | undefined {
  switch (letter) {
    case 'a': return { key: 'a', code: 'KeyA', keyCode: 65, commands: ['selectAll'] }
    case 'z': return { key: 'z', code: 'KeyZ', keyCode: 90, commands: [shift ? 'redo' : 'undo'] }
    case 'y': return { key: 'y', code: 'KeyY', keyCode: 89, commands: ['redo'] }
    default: return undefined
  }
}
