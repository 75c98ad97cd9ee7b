// Tab inventory and snapshots (docs/spec.md sections 5, 8 and 16).
import { Type, type Static } from 'typebox'
import { Capture, CaptureList, Nullable, OPEN, TabId, Warnings } from './common.js'
import { Artifacts, Challenge, PageKind } from './fetch.js'
import { Controller, HandoffSummary } from './handoff.js'

/** A JavaScript dialog the page is blocked on; its message is shown as text, never as HTML. */
export const DialogType = Type.Enum(['alert', 'confirm', 'prompt', 'beforeunload'])
export type DialogType = Static<typeof DialogType>
export const OpenDialog = Type.Object({
  type: DialogType,
  message: Type.String(),
  origin: Type.String({ description: 'origin of the frame that opened it (a person must know who is asking)' }),
  default_prompt: Type.Optional(Type.String({ description: 'prompt() only: the text the page proposed' })),
  opened_at: Type.String()
}, OPEN)
export type OpenDialog = Static<typeof OpenDialog>

export const FileChooser = Type.Object({
  mode: Type.Enum(['selectSingle', 'selectMultiple']),
  accept: Type.String({ description: 'the input\'s accept attribute, passed to the viewer\'s own picker' }),
  opened_at: Type.String()
}, OPEN)
export type FileChooserInfo = Static<typeof FileChooser>

/** One row of `GET /v1/tabs`. */
export const TabView = Type.Object({
  tab_id: Type.String(),
  profile: Type.String(),
  url: Type.String(),
  title: Nullable(Type.String()),
  controller: Controller,
  retained: Type.Boolean(),
  idle_ms: Type.Number(),
  handoff: Nullable(HandoffSummary),
  opener_tab_id: Type.Optional(Type.String({ description: 'a popup of a handed-off tab names the tab that opened it (docs/spec.md section 7 "Popups")' })),
  dialog: Type.Optional(Nullable(OpenDialog)),
  file_chooser: Type.Optional(FileChooser)
}, OPEN)
export type TabView = Static<typeof TabView>

export const TabList = Type.Object({ tabs: Type.Array(TabView) }, OPEN)
export const TabDescription = Type.Object({ tab: TabView }, OPEN)
export const TabCloseResult = Type.Object({ closed: Type.Boolean(), tab_id: TabId }, OPEN)

const SnapshotOptions = Type.Object({ capture: Type.Optional(CaptureList) }, { additionalProperties: false })
/** Observation only, allowed while a person drives; a missing or null body captures html and text. */
export const SnapshotBody = Type.Unsafe<{ capture?: Capture[] } | null>({ ...SnapshotOptions, type: ['object', 'null'] })

export const SnapshotResult = Type.Object({
  tab_id: Type.String(),
  url: Type.String(),
  title: Nullable(Type.String()),
  status: Nullable(Type.Number()),
  page_kind: Type.Optional(PageKind),
  challenge: Type.Optional(Challenge),
  artifacts: Artifacts,
  warnings: Warnings,
  dialog: Nullable(OpenDialog),
  handoff: Nullable(HandoffSummary)
}, OPEN)
export type SnapshotResult = Static<typeof SnapshotResult>
