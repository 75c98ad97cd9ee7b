// Text messages between the panel and the host (docs/panel.md "Messages"). The panel's
// messages have their schemas in src/schemas/panel-messages.ts and are validated here before
// anything reaches the page; the host's are typed here. The panel page imports these types,
// so both ends are checked against one shape at compile time.
import { Compile, type Validator } from 'typebox/compile'
import type { TSchema } from 'typebox'
import type { TLocalizedValidationError } from 'typebox/error'
import {
  PASTE_CHARS_MAX as MAX_PASTE_CHARS, TEXT_CHARS_MAX as MAX_TEXT_CHARS, UPLOAD_LIMITS, WS_MESSAGE_BYTES_MAX as MAX_MESSAGE_BYTES
} from '../limits.js'
import {
  DPR_MAX, DPR_MIN, PANEL_MESSAGES, PICKER_KINDS, PICKER_VALUE,
  type DEFAULTED, type InputWire, type PanelWireMessage, type PickerKind, type UiAnswerWire
} from '../schemas/panel-messages.js'
import type { FinishReason, HandoffMode, HandoffState, HandoffSummary } from '../core/handoff.js'
import type { FileChooserInfo, OpenDialog, OpenSelect } from '../core/page-ui.js'

// The panel's limits live in src/limits.ts with every other public limit.
export { MAX_MESSAGE_BYTES, MAX_PASTE_CHARS, MAX_TEXT_CHARS }
export { PICKER_KINDS }
export type { MouseButton, PanelWireMessage, PickerKind } from '../schemas/panel-messages.js'

/** Fields the parser fills in when a message leaves them out (clicks 1, mods 0, button none…). */
type Defaulted = typeof DEFAULTED[number]
type Filled<T> = T extends unknown ? Omit<T, Defaulted & keyof T> & { [K in Defaulted & keyof T]-?: Exclude<T[K], undefined> } : never

export type InputMessage = Filled<InputWire>
/** A person's answer to browser UI the panel drew (docs/spec.md section 16); needs control, like input. */
export type UiAnswer = Filled<UiAnswerWire>
/** A message as the host works with it: checked, with every defaulted field filled in. */
export type PanelMessage = Filled<PanelWireMessage>

export type Parsed = { ok: true; msg: PanelMessage } | { ok: false; error: string }

/** Input and answers before the panel stamps its control generation `g` on them. */
type WithoutGeneration<T> = T extends unknown ? Omit<T, 'g'> : never
export type PanelInput = WithoutGeneration<InputWire | UiAnswerWire>

// ---------------------------------------------------------------- host → panel (text)

/** Whether the page holds the keyboard (docs/spec.md section 10 "Focus"). */
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
  | { t: 'granted'; permission: string; origin: string }
  | { t: 'error'; message: string }

/** GET /panel/api/status (its schema is src/schemas/panel.ts). */
export type { PanelStatus } from '../schemas/panel.js'

const validators = new Map<string, Validator>(Object.entries(PANEL_MESSAGES).map(([t, schema]) => [t, Compile(schema)]))

export function isUiAnswer (msg: PanelMessage): msg is UiAnswer {
  return msg.t === 'dialog' || msg.t === 'select' || msg.t === 'chooser' || msg.t === 'picker' || msg.t === 'permission'
}

/** The schema of a message by its `t`, or why there is none. */
function validatorFor (m: Record<string, unknown>): Validator | string {
  if (typeof m.t !== 'string') return 't must be a message type'
  return validators.get(m.t) ?? `unknown message type ${JSON.stringify(m.t).slice(0, 40)}`
}

/** The field at a path below an object schema, for its description. */
function fieldAt (schema: TSchema, path: string[]): TSchema | undefined {
  let at: TSchema | undefined = schema
  for (const name of path) at = (at as { properties?: Record<string, TSchema> } | undefined)?.properties?.[name]
  return at
}

/** What is wrong, in words a person reading the panel's console can act on. */
function wrong (e: TLocalizedValidationError, value: unknown, field: { const?: unknown } | undefined): string {
  const params = e.params as { limit?: number, allowedValues?: unknown[] }
  const text = typeof value === 'string' ? [...value] : undefined
  if (e.keyword === 'type' && typeof value === 'number') return 'must be a finite number'
  if (e.keyword === 'const' && field?.const !== undefined) return `must be ${JSON.stringify(field.const)}`
  if (e.keyword === 'maxLength' && text) return `is ${text.length} characters; the limit is ${params.limit}`
  if (e.keyword === 'minLength' && text?.length === 0) return 'must not be empty'
  const allowed = e.keyword === 'enum' ? params.allowedValues ?? [] : []
  if (allowed.length > 0 && allowed.length <= 6) return `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`
  // A pattern or a union reads badly spelled out; the field's description says what it takes.
  if (e.keyword === 'pattern' || e.keyword === 'anyOf') return 'is not valid'
  return e.message
}

/**
 * One line for the panel from the schema's first complaint: the field, what is wrong, and the
 * field's own description. A union's complaints about one field end with its summary.
 */
function complaint (t: string, schema: TSchema, value: unknown, errors: TLocalizedValidationError[]): string {
  const first = errors[0]
  const e = errors.filter((x) => x.instancePath === first.instancePath).at(-1) ?? first
  const path = e.instancePath.split('/').filter(Boolean)
  const missing = e.keyword === 'required' ? (e.params as { requiredProperties?: string[] }).requiredProperties ?? [] : []
  // One missing field is described; several are only named.
  const field = (missing.length > 1 ? undefined : fieldAt(schema, missing.length === 1 ? [...path, missing[0]] : path)) as { description?: string, const?: unknown } | undefined
  const hint = field?.description ? ` (${field.description})` : ''
  const at = path.reduce<unknown>((v, name) => (v as Record<string, unknown> | undefined)?.[name], value)
  return `${[t, ...path].join('.')} ${wrong(e, at, field)}${hint}`
}

export function parsePanelMessage (raw: string): Parsed {
  if (raw.length > MAX_MESSAGE_BYTES) return { ok: false, error: 'message too large' }
  let m: unknown
  try { m = JSON.parse(raw) } catch { return { ok: false, error: 'not JSON' } }
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return { ok: false, error: 'not an object' }
  const validator = validatorFor(m as Record<string, unknown>)
  if (typeof validator === 'string') return { ok: false, error: validator }
  try {
    // Fields the schema does not name are dropped, never passed on; left-out ones get their default.
    const value = validator.Default(validator.Clean(m))
    if (!validator.Check(value)) return { ok: false, error: complaint(String((m as { t: unknown }).t), validator.Type(), value, validator.Errors(value)) }
    return settled(value as PanelMessage)
  } catch {
    // TypeBox walks values recursively: a field nested thousands deep (within the size limit)
    // overflows the stack. It is refused like any other bad message, never the host's crash.
    return { ok: false, error: 'a field is nested too deep' }
  }
}

// What a schema cannot say: rules across fields, and values brought into range.
function settled (msg: PanelMessage): Parsed {
  switch (msg.t) {
    case 'mouse':
      if (msg.type !== 'move' && msg.button === 'none') return { ok: false, error: 'mouse down/up need a button' }
      return { ok: true, msg }
    case 'size':
      return { ok: true, msg: { ...msg, dpr: Math.min(DPR_MAX, Math.max(DPR_MIN, msg.dpr)) } }
    case 'picker':
      if (!PICKER_VALUE[msg.kind].test(msg.value)) return { ok: false, error: `picker.value is not a ${msg.kind} value in HTML's own syntax` }
      return { ok: true, msg }
    case 'decline': {
      const reason = msg.reason?.trim()
      return { ok: true, msg: { t: 'decline', ...(reason ? { reason } : {}) } }
    }
    default:
      return { ok: true, msg }
  }
}

export function isInput (msg: PanelMessage): msg is InputMessage {
  return 'g' in msg && !isUiAnswer(msg)
}
