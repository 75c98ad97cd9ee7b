// What the panel page sends the host on its WebSocket (docs/panel.md "Messages"), once: the
// host validates each message with its schema before anything reaches the page
// (src/panel/messages.ts), docs/panel.md's table is rendered from the descriptions, and both
// ends take their types from here (the panel page imports types only). Fields a message may
// leave out carry their `default`. Lengths count characters (code points), as for every
// request body of the HTTP API.
import { Type, type Static, type TSchema } from 'typebox'
import { DIALOG_ANSWER_MAX_CHARS, PASTE_CHARS_MAX, TEXT_CHARS_MAX } from '../limits.js'
import { NAMED_KEYS, PAGE_SHORTCUT_KEYS } from '../vocabulary/keys.js'
import { PROMPTED_PERMISSIONS } from '../vocabulary/profile.js'
import { CLOSED, Nullable, TAB_ID_RE } from './common.js'
import { DeclineReason } from './panel.js'

// Far beyond any viewport: a coordinate past it is a broken panel, not a person.
const COORD_LIMIT = 100_000
const Coord = Type.Number({ minimum: -COORD_LIMIT, maximum: COORD_LIMIT })
const Extent = Type.Number({ minimum: 0, maximum: COORD_LIMIT })
// No screen is this wide: a view size past it is a broken panel.
const VIEW_SIDE_MAX = 20_000
const ViewSide = Type.Number({ minimum: 0, maximum: VIEW_SIDE_MAX })
/** The device pixel ratios a view's size is taken at; a ratio outside is brought to the nearer end. */
export const DPR_MIN = 0.25
export const DPR_MAX = 8
const Generation = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'the control generation the input was sent under' })
const Mods = Type.Optional(Type.Integer({ minimum: 0, maximum: 15, default: 0, description: 'CDP modifier bits: Alt 1, Ctrl 2, Meta 4, Shift 8' }))

export const MOUSE_BUTTONS = ['left', 'right', 'middle', 'none'] as const
export const MouseButton = Type.Enum(MOUSE_BUTTONS)
export type MouseButton = Static<typeof MouseButton>

/** Inputs whose value the person picks in their own browser's input of that type. */
export const PICKER_KINDS = ['date', 'time', 'datetime-local', 'month', 'week', 'color'] as const
export type PickerKind = typeof PICKER_KINDS[number]
/** The value syntax of each native input type (HTML's own); anything else is refused. */
export const PICKER_VALUE: Readonly<Record<PickerKind, RegExp>> = {
  date: /^\d{4,6}-\d{2}-\d{2}$/,
  time: /^\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/,
  'datetime-local': /^\d{4,6}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/,
  month: /^\d{4,6}-\d{2}$/,
  week: /^\d{4,6}-W\d{2}$/,
  color: /^#[0-9a-f]{6}$/i
}

const message = <T extends string, P extends Record<string, TSchema>> (t: T, properties: P, description: string) =>
  Type.Object({ t: Type.Literal(t), ...properties }, { ...CLOSED, description })

// ------------------------------------------------------------------ input (needs control)

export const MouseMessage = message('mouse', {
  g: Generation,
  type: Type.Enum(['down', 'move', 'up']),
  x: Coord,
  y: Coord,
  button: Type.Optional(Type.Enum(MOUSE_BUTTONS, { default: 'none', description: 'none only for a move' })),
  clicks: Type.Optional(Type.Integer({ minimum: 1, maximum: 3, default: 1 })),
  mods: Mods
}, 'pointer, in page viewport CSS px')

export const WheelMessage = message('wheel', { g: Generation, x: Coord, y: Coord, dx: Coord, dy: Coord, mods: Mods }, 'scrolling')

const KEY_NAMES = Object.keys(NAMED_KEYS)
export const KeyMessage = message('key', {
  g: Generation,
  type: Type.Enum(['down', 'up']),
  key: Type.Enum(KEY_NAMES, { description: 'a relayed key; printable characters go as text' }),
  mods: Mods
}, `a named key: ${KEY_NAMES.map((k) => k === ' ' ? 'Space' : k).join(', ')}`)

export const ShortcutMessage = message('shortcut', {
  g: Generation,
  key: Type.Enum(PAGE_SHORTCUT_KEYS, { description: 'never reload, close or print: those are the browser\'s' }),
  shift: Type.Optional(Type.Boolean({ default: false }))
}, 'Ctrl/Cmd-A, -Z, -Shift-Z, -Y for the page')

export const TextMessage = message('text', { g: Generation, text: Type.String({ minLength: 1, maxLength: TEXT_CHARS_MAX }) }, 'typed text, a chunk at a time')
export const PasteMessage = message('paste', { g: Generation, text: Type.String({ minLength: 1, maxLength: PASTE_CHARS_MAX }) }, 'a paste; a bigger one is refused, never cut')

// ------------------------------------------------- answers to browser UI (docs/spec.md section 16)

export const DialogAnswer = message('dialog', {
  g: Generation,
  accept: Type.Boolean(),
  text: Type.Optional(Type.String({ maxLength: DIALOG_ANSWER_MAX_CHARS, description: 'a prompt\'s answer' }))
}, 'the person\'s answer to the open JavaScript dialog')

export const SelectAnswer = message('select', {
  g: Generation,
  index: Nullable(Type.Integer({ minimum: 0, maximum: 100_000 }), { description: 'an option\'s index, or null to dismiss the list' })
}, 'the option chosen in the panel\'s list for the page\'s `<select>`')

export const ChooserCancel = message('chooser', {
  g: Generation,
  cancel: Type.Literal(true, { description: 'the socket only cancels; files go over POST /panel/api/files' })
}, 'close the page\'s file chooser without files')

/** Its value is checked against its kind's syntax (PICKER_VALUE) once the shape is right. */
export const PickerAnswer = message('picker', {
  g: Generation,
  kind: Type.Enum(PICKER_KINDS),
  value: Type.String({ maxLength: 64, description: 'in HTML\'s own syntax for the kind' })
}, 'a date, time or colour value in HTML\'s own syntax (`2026-05-17`, `14:30`, `2026-05-17T09:00`, `2026-05`, `2026-W07`, `#1e90ff`)')

export const PermissionAnswer = message('permission', {
  g: Generation,
  permission: Type.Enum(PROMPTED_PERMISSIONS, { description: 'what the site may use' })
}, 'allow the shown page\'s origin a permission, as the browser\'s own prompt would (every prompt is denied otherwise); kept in the profile')

// ------------------------------------------------------------------------ the view, control

export const SizeMessage = message('size', {
  width: ViewSide,
  height: ViewSide,
  dpr: Type.Optional(Type.Number({ exclusiveMinimum: 0, default: 1, description: `device pixel ratio (kept within ${DPR_MIN}–${DPR_MAX})` })),
  whole: Type.Optional(Type.Boolean({ default: false, description: 'the person asked to see the whole viewport' }))
}, 'the view\'s size in CSS px and device pixel ratio (sent on connect and resize); sets the frame size')

export const DetailRect = Type.Object({ x: Coord, y: Coord, width: Extent, height: Extent }, CLOSED)
export type DetailRect = Static<typeof DetailRect>
export const DetailMessage = message('detail', {
  rect: Type.Optional(Nullable(DetailRect, { default: null, description: '`{x, y, width, height}` in viewport CSS px, or null to withdraw the ask' })),
  scale: Type.Number({ minimum: 0, maximum: 100, description: 'device px per CSS px it is shown at' })
}, 'the part of the viewport on show: asks for one sharp still of it ("Sharp when zoomed" below); view links may send it')

export const AckMessage = message('ack', {
  n: Type.Integer({ minimum: 0, description: 'binary messages (frames and stills) received on this socket so far' })
}, 'the viewer received that many frames; the host keeps on their way only as many as the viewer\'s link carries ("A slow viewer" below); view links send it too')

export const TakeMessage = message('take', {}, 'take control (docs/spec.md section 7)')
export const ReleaseMessage = message('release', {}, 'hand control back')
export const DoneMessage = message('done', {}, 'the person is done: the agent gets the tab back')
export const DeclineMessage = message('decline', { reason: DeclineReason }, '"I can\'t do this", with an optional note for the driver')
export const ShowMessage = message('show', { tab_id: Type.String({ pattern: TAB_ID_RE.source, description: 'a tab id from the `tabs` message' }) }, 'show another tab of this handoff (a popup) to every viewer')

/** Every panel → host text message by its `t`, in the order docs/panel.md lists them. */
export const PANEL_MESSAGES = {
  mouse: MouseMessage,
  wheel: WheelMessage,
  key: KeyMessage,
  shortcut: ShortcutMessage,
  text: TextMessage,
  paste: PasteMessage,
  dialog: DialogAnswer,
  select: SelectAnswer,
  chooser: ChooserCancel,
  picker: PickerAnswer,
  permission: PermissionAnswer,
  size: SizeMessage,
  detail: DetailMessage,
  ack: AckMessage,
  take: TakeMessage,
  release: ReleaseMessage,
  done: DoneMessage,
  decline: DeclineMessage,
  show: ShowMessage
} as const

/** The fields some message may leave out, filled in from their schema's `default` (a test checks the list). */
export const DEFAULTED = ['button', 'clicks', 'mods', 'shift', 'dpr', 'whole', 'rect'] as const

type Wire<S> = S extends TSchema ? Static<S> : never
/** Input as the panel may send it (defaulted fields may be left out). */
export type InputWire = Wire<typeof MouseMessage | typeof WheelMessage | typeof KeyMessage | typeof ShortcutMessage | typeof TextMessage | typeof PasteMessage>
export type UiAnswerWire = Wire<typeof DialogAnswer | typeof SelectAnswer | typeof ChooserCancel | typeof PickerAnswer | typeof PermissionAnswer>
/** A message as the panel may send it: what parsePanelMessage accepts. */
export type PanelWireMessage = InputWire | UiAnswerWire | Wire<typeof SizeMessage | typeof DetailMessage | typeof AckMessage | typeof TakeMessage | typeof ReleaseMessage | typeof DoneMessage | typeof DeclineMessage | typeof ShowMessage>
