// What the browser draws outside the page (docs/spec.md section 16), as plain data: an open
// JavaScript dialog, an open file chooser, and the answers a person may give them.
// Pure: no browser, no socket.

import type { DialogType, FileChooserInfo, OpenDialog } from '../schemas/tabs.js'

// A dialog the page is blocked on and an open file chooser, as drivers (/v1/tabs, snapshots,
// warnings) and the panel see them: the shapes live once, in src/schemas/tabs.ts.
export type { DialogType, FileChooserInfo, OpenDialog }

import { DIALOG_ANSWER_MAX_CHARS, DIALOG_MESSAGE_MAX_CHARS } from '../limits.js'
export { DIALOG_ANSWER_MAX_CHARS, DIALOG_MESSAGE_MAX_CHARS }

const TYPES = new Set<DialogType>(['alert', 'confirm', 'prompt', 'beforeunload'])

/** The frame URL's origin; a data:, about: or file: page says its scheme instead of "null". */
export function dialogOrigin (url: string): string {
  try {
    const u = new URL(url)
    return u.origin !== 'null' ? u.origin : `${u.protocol}`
  } catch {
    return 'unknown'
  }
}

/** The first `max` characters (code points, as the limits count them): never half an emoji. */
function cut (text: string, max: number): string {
  if (text.length <= max) return text
  return Array.from(text).slice(0, max).join('')
}

/** From CDP's Page.javascriptDialogOpening event. */
export function describeDialog (ev: { type: string, message: string, url: string, defaultPrompt?: string }, now: number): OpenDialog {
  const type = TYPES.has(ev.type as DialogType) ? ev.type as DialogType : 'alert'
  return {
    type,
    message: cut(ev.message, DIALOG_MESSAGE_MAX_CHARS),
    origin: dialogOrigin(ev.url),
    ...(type === 'prompt' ? { default_prompt: cut(ev.defaultPrompt ?? '', DIALOG_MESSAGE_MAX_CHARS) } : {}),
    opened_at: new Date(now).toISOString()
  }
}

/**
 * The same dialog announced again (a viewer joined, control moved): the panel keeps what the
 * person typed into a prompt. A dialog is one `opened_at` of one type and message.
 */
export function sameDialog (a: OpenDialog | null | undefined, b: OpenDialog | null | undefined): boolean {
  return !!a && !!b && a.opened_at === b.opened_at && a.type === b.type && a.message === b.message
}

export interface DialogWarning { code: 'dialog_open', message: string, dialog: { type: DialogType, message: string, origin: string } }

/** The fetch warning: the host never answers a dialog, so the driver learns it is there. */
export function dialogWarning (d: OpenDialog): DialogWarning {
  const quoted = JSON.stringify(d.message.length > 200 ? `${d.message.slice(0, 200)}…` : d.message)
  return {
    code: 'dialog_open',
    message: `The page opened a JavaScript ${d.type} dialog (${quoted} from ${d.origin}) and is blocked until a person answers it; the host never answers dialogs.`,
    dialog: { type: d.type, message: d.message, origin: d.origin }
  }
}

/** What Page.handleJavaScriptDialog gets for a person's answer; an alert has only OK. */
export function dialogAnswer (d: OpenDialog, accept: boolean, text?: string): { accept: boolean, promptText?: string } {
  if (d.type === 'alert') return { accept: true }
  if (d.type === 'prompt' && accept) return { accept: true, promptText: text ?? '' }
  return { accept }
}

/** Why a capture cannot be taken while a dialog is open (the page's main thread waits for it). */
export function blockedByDialogReason (d: OpenDialog): string {
  return `the page is blocked by an open ${d.type} dialog`
}

export function fileChooserWarning (): { code: 'file_chooser_open', message: string } {
  return {
    code: 'file_chooser_open',
    message: 'The page opened a file chooser during the fetch; with no person to choose, it was cancelled and the input left empty.'
  }
}

/** One entry of a native select list as the panel draws it. */
export interface SelectOption {
  index: number
  label: string
  disabled: boolean
  /** The optgroup's label, or null outside a group. */
  group: string | null
}

export interface OpenSelect {
  options: SelectOption[]
  /** The option chosen now (-1: none). */
  selected: number
  /** A short human hint: aria-label, name or id of the select. */
  label: string
}

export const SELECT_OPTIONS_MAX = 2_000

/**
 * The keys a person would press in the browser's open select list to go from `from` to
 * `to`: arrow keys step over disabled options, Enter commits (one input/change, as the
 * browser's own choice). Escape when `to` is not a choosable option: the value stays.
 */
export function selectKeys (options: SelectOption[], from: number, to: number | null): string[] {
  const target = to === null ? undefined : options.find((o) => o.index === to)
  if (!target || target.disabled) return ['Escape']
  if (to === from) return ['Enter']
  const enabled = options.filter((o) => !o.disabled).map((o) => o.index)
  const down = to! > from
  const between = enabled.filter((i) => down ? i > from && i <= to! : i < from && i >= to!)
  return [...between.map(() => down ? 'ArrowDown' : 'ArrowUp'), 'Enter']
}

/** Files a person may hand to one file chooser, and the size of each (advertised in /capabilities). */
import { UPLOAD_FILE_BYTES_MAX, UPLOAD_FILES_MAX, UPLOAD_FILES_PER_HANDOFF_MAX, UPLOAD_LIMITS } from '../limits.js'
export { UPLOAD_FILE_BYTES_MAX, UPLOAD_FILES_MAX, UPLOAD_FILES_PER_HANDOFF_MAX, UPLOAD_LIMITS }

/**
 * The name the page will see (File.name is the stored file's base name): the viewer's own
 * name without any path, control characters or reserved names, bounded in length.
 */
export function safeUploadName (name: string): string {
  // eslint-disable-next-line no-control-regex
  const base = name.split(/[/\\]/).pop()!.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 200)
  return base === '' || base === '.' || base === '..' ? 'file' : base
}
