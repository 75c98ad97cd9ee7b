// Text messages between the panel and the host (docs/panel.md "Messages"): the panel's are
// validated here before anything reaches the page; the host's are typed here too. The panel
// page (src/panel-page/) imports these types, so both ends are checked against one shape at
// compile time. Pure: no socket, no browser; loaded by the panel page in the browser.
import { NAMED_KEYS } from './keys.js'
import {
  DECLINE_NOTE_MAX_CHARS, DIALOG_ANSWER_MAX_CHARS, PASTE_CHARS_MAX as MAX_PASTE_CHARS,
  TEXT_CHARS_MAX as MAX_TEXT_CHARS, UPLOAD_LIMITS, WS_MESSAGE_BYTES_MAX as MAX_MESSAGE_BYTES
} from '../limits.js'
import type { FinishReason, HandoffMode, HandoffState, HandoffSummary } from '../core/handoff.js'
import type { FileChooserInfo, OpenDialog, OpenSelect } from '../core/page-ui.js'
import type { DetailRect } from '../core/detail.js'

// The panel's limits live in src/limits.ts with every other public limit.
export { MAX_MESSAGE_BYTES, MAX_PASTE_CHARS, MAX_TEXT_CHARS }

export type MouseButton = 'left' | 'right' | 'middle' | 'none'

export type InputMessage =
  | { t: 'mouse'; g: number; type: 'down' | 'move' | 'up'; x: number; y: number; button: MouseButton; clicks: number; mods: number }
  | { t: 'wheel'; g: number; x: number; y: number; dx: number; dy: number; mods: number }
  | { t: 'key'; g: number; type: 'down' | 'up'; key: string; mods: number }
  | { t: 'shortcut'; g: number; key: string; shift: boolean }
  | { t: 'text'; g: number; text: string }
  | { t: 'paste'; g: number; text: string }

/** A person's answer to browser UI the panel drew (SPEC section 16); needs control, like input. */
export type UiAnswer =
  | { t: 'dialog'; g: number; accept: boolean; text?: string }
  | { t: 'select'; g: number; index: number | null }
  | { t: 'chooser'; g: number; cancel: true }
  | { t: 'picker'; g: number; kind: PickerKind; value: string }

/** Inputs whose value the person picks in their own browser's input of that type. */
export const PICKER_KINDS = ['date', 'time', 'datetime-local', 'month', 'week', 'color'] as const
export type PickerKind = typeof PICKER_KINDS[number]
/** The value syntax of each native input type (HTML's own); anything else is refused. */
const PICKER_VALUE: Record<PickerKind, RegExp> = {
  date: /^\d{4,6}-\d{2}-\d{2}$/,
  time: /^\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/,
  'datetime-local': /^\d{4,6}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/,
  month: /^\d{4,6}-\d{2}$/,
  week: /^\d{4,6}-W\d{2}$/,
  color: /^#[0-9a-f]{6}$/i
}

export type PanelMessage =
  | InputMessage
  | UiAnswer
  | { t: 'size'; width: number; height: number; dpr: number; whole: boolean }
  /**
   * The part of the viewport this viewer shows (viewport CSS px) and the device pixels per CSS
   * pixel it shows it at: asks for a sharp still of it (docs/panel.md "Sharp when zoomed").
   * `rect: null` says the stream alone is sharp enough again.
   */
  | { t: 'detail'; rect: DetailRect | null; scale: number }
  | { t: 'take' } | { t: 'release' } | { t: 'done' }
  | { t: 'decline'; reason?: string }
  /** Show another tab of this handoff (a popup) to every viewer. */
  | { t: 'show'; tab_id: string }

export type Parsed = { ok: true; msg: PanelMessage } | { ok: false; error: string }

/** Fields the parser fills in when a message leaves them out (clicks 1, mods 0, button none…). */
type Defaulted = 'clicks' | 'mods' | 'button' | 'shift' | 'dpr' | 'whole'
type Loosen<T> = T extends unknown ? Omit<T, Defaulted & keyof T> & Partial<Pick<T, Defaulted & keyof T>> : never
/** A message as the panel may send it: what parsePanelMessage accepts. */
export type PanelWireMessage = Loosen<PanelMessage>
/** Input and answers before the panel stamps its control generation `g` on them. */
type WithoutGeneration<T> = T extends unknown ? Omit<T, 'g'> : never
export type PanelInput = WithoutGeneration<Loosen<InputMessage | UiAnswer>>

// ---------------------------------------------------------------- host → panel (text)

/** Whether the page holds the keyboard (SPEC section 10 "Focus"). */
export interface FocusState {
  /** true: an editable element has focus; false: typing goes nowhere; null: unknown (inside a cross-origin frame). */
  editable: boolean | null
  /** e.g. `input[email]`, `textarea`, `contenteditable`, `frame`. */
  kind: string
  /** A short human hint: aria-label, placeholder or name. Never the field's value. */
  label: string
}

/** A date/time field the person picks in their own browser. */
export interface PickerInfo { kind: PickerKind; value: string; min: string; max: string; step: string; label: string }
/** A file chooser as the panel draws it, with what it may take. */
export interface ChooserInfo extends FileChooserInfo { limits: Record<keyof typeof UPLOAD_LIMITS, number> }

export type LiveStateMessage = HandoffSummary & { t: 'state'; viewer: string; you_control: boolean; mode: HandoffMode; viewers: number; now: number }
export type StateMessage = LiveStateMessage | { t: 'state'; viewer: string; state: 'revoked' }
export type PageUiMessage =
  | { t: 'dialog'; dialog: OpenDialog | null }
  | { t: 'select'; select: OpenSelect | null }
  | { t: 'picker'; picker: PickerInfo | null }
  | { t: 'chooser'; chooser: ChooserInfo | null }
export interface TabsMessage { t: 'tabs'; shown: string; tabs: Array<{ tab_id: string; url: string; popup: boolean }> }
export type EndedMessage = { t: 'ended'; state: HandoffState; finish_reason: FinishReason | null; auto_done: boolean; human_note?: string }

/** Every text message the host sends on the panel WebSocket; frames go as binary (frame-codec.ts). */
export type HostMessage =
  | StateMessage
  | PageUiMessage
  | TabsMessage
  | EndedMessage
  | ({ t: 'focus'; url: string } & FocusState)
  | { t: 'refused'; action: string; reason?: string; message?: string }
  | { t: 'error'; message: string }

/** GET /panel/api/status (its schema is src/schemas/panel.ts). */
export type { PanelStatus } from '../schemas/panel.js'

const COORD_LIMIT = 100_000
const BUTTONS = new Set<MouseButton>(['left', 'right', 'middle', 'none'])

type Raw = Record<string, unknown>

const num = (v: unknown, min: number, max: number): v is number => typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max
const int = (v: unknown, min: number, max: number): v is number => num(v, min, max) && Number.isInteger(v)
const mods = (v: unknown): number => int(v, 0, 15) ? v : 0

function input (m: Raw): PanelMessage | string {
  if (!int(m.g, 0, Number.MAX_SAFE_INTEGER)) return 'g (generation) must be a non-negative integer'
  const g = m.g
  switch (m.t) {
    case 'mouse': {
      if (m.type !== 'down' && m.type !== 'move' && m.type !== 'up') return 'mouse.type must be down, move or up'
      if (!num(m.x, -COORD_LIMIT, COORD_LIMIT) || !num(m.y, -COORD_LIMIT, COORD_LIMIT)) return 'mouse x/y must be finite numbers'
      const button = (m.button ?? 'none') as MouseButton
      if (!BUTTONS.has(button)) return 'mouse.button is not a known button'
      if (m.type !== 'move' && button === 'none') return 'mouse down/up need a button'
      return { t: 'mouse', g, type: m.type, x: m.x, y: m.y, button, clicks: int(m.clicks, 1, 3) ? m.clicks : 1, mods: mods(m.mods) }
    }
    case 'wheel':
      if (!num(m.x, -COORD_LIMIT, COORD_LIMIT) || !num(m.y, -COORD_LIMIT, COORD_LIMIT)) return 'wheel x/y must be finite numbers'
      if (!num(m.dx, -COORD_LIMIT, COORD_LIMIT) || !num(m.dy, -COORD_LIMIT, COORD_LIMIT)) return 'wheel dx/dy must be finite numbers'
      return { t: 'wheel', g, x: m.x, y: m.y, dx: m.dx, dy: m.dy, mods: mods(m.mods) }
    case 'key':
      if (m.type !== 'down' && m.type !== 'up') return 'key.type must be down or up'
      if (typeof m.key !== 'string' || !Object.hasOwn(NAMED_KEYS, m.key)) return 'key.key is not a relayed key; printable characters go as text'
      return { t: 'key', g, type: m.type, key: m.key, mods: mods(m.mods) }
    case 'shortcut':
      if (m.key !== 'a' && m.key !== 'z' && m.key !== 'y') return 'shortcut.key must be a, z or y'
      return { t: 'shortcut', g, key: m.key, shift: m.shift === true }
    case 'text':
    case 'paste': {
      const limit = m.t === 'text' ? MAX_TEXT_CHARS : MAX_PASTE_CHARS
      if (typeof m.text !== 'string' || m.text.length === 0) return `${m.t}.text must be a non-empty string`
      if (m.text.length > limit) return `${m.t}.text is ${m.text.length} characters; the limit is ${limit}`
      return { t: m.t, g, text: m.text }
    }
    default:
      return `unknown message type ${JSON.stringify(String(m.t)).slice(0, 40)}`
  }
}

function uiAnswer (m: Raw): UiAnswer | string {
  if (!int(m.g, 0, Number.MAX_SAFE_INTEGER)) return 'g (generation) must be a non-negative integer'
  const g = m.g
  switch (m.t) {
    case 'dialog':
      if (typeof m.accept !== 'boolean') return 'dialog.accept must be true or false'
      if (m.text !== undefined && (typeof m.text !== 'string' || m.text.length > DIALOG_ANSWER_MAX_CHARS)) return `dialog.text must be a string of at most ${DIALOG_ANSWER_MAX_CHARS} characters`
      return { t: 'dialog', g, accept: m.accept, ...(typeof m.text === 'string' ? { text: m.text } : {}) }
    case 'select':
      if (m.index !== null && !int(m.index, 0, 100_000)) return 'select.index must be an option index or null (dismiss)'
      return { t: 'select', g, index: m.index as number | null }
    case 'chooser':
      if (m.cancel !== true) return 'chooser messages only cancel; files go over POST /panel/api/files'
      return { t: 'chooser', g, cancel: true }
    default: {
      if (!PICKER_KINDS.includes(m.kind as PickerKind)) return `picker.kind must be one of ${PICKER_KINDS.join(', ')}`
      const kind = m.kind as PickerKind
      if (typeof m.value !== 'string' || !PICKER_VALUE[kind].test(m.value)) return `picker.value is not a ${kind} value`
      return { t: 'picker', g, kind, value: m.value }
    }
  }
}

export function isUiAnswer (msg: PanelMessage): msg is UiAnswer {
  return msg.t === 'dialog' || msg.t === 'select' || msg.t === 'chooser' || msg.t === 'picker'
}

export function parsePanelMessage (raw: string): Parsed {
  if (raw.length > MAX_MESSAGE_BYTES) return { ok: false, error: 'message too large' }
  let m: unknown
  try { m = JSON.parse(raw) } catch { return { ok: false, error: 'not JSON' } }
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return { ok: false, error: 'not an object' }
  const r = m as Raw
  switch (r.t) {
    case 'take': case 'release': case 'done':
      return { ok: true, msg: { t: r.t } }
    case 'show':
      if (typeof r.tab_id !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(r.tab_id)) return { ok: false, error: 'show.tab_id must be a tab id' }
      return { ok: true, msg: { t: 'show', tab_id: r.tab_id } }
    case 'decline':
      if (r.reason !== undefined && (typeof r.reason !== 'string' || r.reason.length > DECLINE_NOTE_MAX_CHARS)) return { ok: false, error: `decline.reason must be a string of at most ${DECLINE_NOTE_MAX_CHARS} characters` }
      return { ok: true, msg: { t: 'decline', ...(typeof r.reason === 'string' && r.reason.trim() !== '' ? { reason: r.reason.trim() } : {}) } }
    case 'size':
      if (!num(r.width, 0, 20_000) || !num(r.height, 0, 20_000)) return { ok: false, error: 'size width/height out of range' }
      return { ok: true, msg: { t: 'size', width: r.width, height: r.height, dpr: num(r.dpr, 0.25, 8) ? r.dpr : 1, whole: r.whole === true } }
    case 'detail': {
      if (!num(r.scale, 0, 100)) return { ok: false, error: 'detail.scale must be a number from 0 to 100' }
      if (r.rect === null || r.rect === undefined) return { ok: true, msg: { t: 'detail', rect: null, scale: r.scale } }
      const q = r.rect as Raw
      if (typeof q !== 'object' || !num(q.x, -COORD_LIMIT, COORD_LIMIT) || !num(q.y, -COORD_LIMIT, COORD_LIMIT) || !num(q.width, 0, COORD_LIMIT) || !num(q.height, 0, COORD_LIMIT)) {
        return { ok: false, error: 'detail.rect must be {x, y, width, height} in CSS px, or null' }
      }
      return { ok: true, msg: { t: 'detail', rect: { x: q.x, y: q.y, width: q.width, height: q.height }, scale: r.scale } }
    }
    case 'dialog': case 'select': case 'chooser': case 'picker': {
      const res = uiAnswer(r)
      return typeof res === 'string' ? { ok: false, error: res } : { ok: true, msg: res }
    }
    default: {
      const res = input(r)
      return typeof res === 'string' ? { ok: false, error: res } : { ok: true, msg: res }
    }
  }
}

export function isInput (msg: PanelMessage): msg is InputMessage {
  return 'g' in msg && !isUiAnswer(msg)
}
