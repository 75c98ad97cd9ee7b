// POST /v1/fetch (docs/spec.md section 6): the body, the result and the pieces other answers reuse.
import { Type, type Static } from 'typebox'
import { PROFILE_NAME_RE } from '../vocabulary/profile.js'
import { INSTRUCTIONS_MAX_CHARS, MAX_TIMEOUT_MS } from '../limits.js'
import { CaptureList, CLOSED, described, Nullable, OPEN, TabId, Warnings } from './common.js'

export const PAGE_KINDS = ['content', 'challenge', 'denied', 'http_error', 'empty'] as const
/** Absent when the host cannot tell. */
export const PageKind = Type.Enum(PAGE_KINDS)
export type PageKind = Static<typeof PageKind>

/** A CSS selector a driver hands in (`region`, `ready_selector`). */
export const Selector = Type.String({ minLength: 1, maxLength: 1024 })
/** Plain text for the person, shown in the panel as text, never as HTML. */
export const Instructions = Type.String({ maxLength: INSTRUCTIONS_MAX_CHARS })
export const ProfileName = Type.String({ pattern: PROFILE_NAME_RE.source })

export const FetchBody = Type.Object({
  url: Type.Optional(Type.String({ minLength: 1, maxLength: 8192, description: 'http: or https: URL; required unless `tab_id` is given, then the tab\'s current document is captured without navigating' })),
  profile: Type.Optional(ProfileName),
  tab_id: Type.Optional(described(TabId, 'reuse a retained tab; a plain fetch never closes it')),
  takeover: Type.Optional(Type.Boolean({ description: 'keep the tab and mint a panel URL unless the page is verifiably content' })),
  wait: Type.Optional(Type.String({ minLength: 1, maxLength: 1100, description: '`load` (default), `domcontentloaded`, `networkidle`, `selector:<css>`, `selector-stable:<css>`' })),
  timeout_ms: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_TIMEOUT_MS, description: 'default 30000' })),
  capture: Type.Optional(described(CaptureList, 'default `["html","text"]`')),
  region: Type.Optional(described(Selector, 'CSS selector of the part of the page the person should be shown')),
  instructions: Type.Optional(described(Instructions, 'plain text for the person if the tab is handed off; shown as text, never as HTML'))
}, CLOSED)
export type FetchBody = Static<typeof FetchBody>

// docs/spec.md section 6: who put the gate there, and the signals that decided (docs/recognition.md).
export const Challenge = Type.Object({
  provider: Type.String({ description: 'Who put the gate there: a vendor (cloudflare, datadome, perimeterx, akamai, imperva, distil, …) or "generic" when the page is a gate by its shape and carries no vendor marker' }),
  evidence: Type.Array(Type.String(), {
    description: 'The signals that decided, as short names: vendor markers (e.g. "element #px-captcha", "vendor marker distilnetworks") and the page\'s shape ("shape: verification widget", "shape: asks for verification", "shape: a single action", "shape: little else on the page", "shape: short notice", "shape: status 403", "shape: challenge path", "shape: form fields"), so a driver can judge a borderline answer'
  })
}, OPEN)
export type Challenge = Static<typeof Challenge>

export const Readiness = Type.Object({
  strategy: Type.String(),
  measured: Type.Boolean(),
  satisfied: Type.Boolean(),
  elapsed_ms: Type.Number(),
  target_ready: Type.Boolean(),
  samples: Type.Number()
}, OPEN)
export type Readiness = Static<typeof Readiness>

export const Screenshot = Type.Object({ mime: Type.String(), base64: Type.String() }, OPEN)
export const Artifacts = Type.Object({
  html: Type.Optional(Type.String()),
  text: Type.Optional(Type.String()),
  screenshot: Type.Optional(Screenshot)
}, OPEN)
export type Artifacts = Static<typeof Artifacts>

/**
 * A person is needed to get past this page. `takeover_url_secret` is absent when minting the
 * panel URL failed (a `takeover_url_unavailable` warning then carries the handoff error).
 */
export const HumanTakeoverAction = Type.Object({
  kind: Type.Literal('human_takeover'),
  reason: Type.String(),
  takeover_url_secret: Type.Optional(Type.String({ description: 'single-use secret panel URL: hand it to a person, never log it; absent when minting failed (warning `takeover_url_unavailable`)' })),
  handoff_fence: Type.Optional(Type.String()),
  expires_at: Type.Optional(Type.String())
}, OPEN)
export type HumanTakeoverAction = Static<typeof HumanTakeoverAction>

/** HTTP 200 whenever a page was loaded, whatever its status. */
export const FetchResult = Type.Object({
  ok: Type.Boolean({ description: 'true exactly when all five pieces of mechanical evidence hold (docs/spec.md section 6)' }),
  url: Type.String(),
  final_url: Type.String(),
  status: Nullable(Type.Number(), { description: 'the main document\'s HTTP status; null when the host saw no response (a document captured in place)' }),
  page_kind: Type.Optional(described(PageKind, 'absent when the host cannot tell')),
  challenge: Type.Optional(Challenge),
  readiness: Readiness,
  artifacts: Artifacts,
  warnings: Warnings,
  tab_id: Type.String(),
  tab_retained: Type.Boolean(),
  actions: Type.Array(HumanTakeoverAction),
  trace: Type.Object({
    timings: Type.Record(Type.String(), Type.Number()),
    retained_tab_id: Type.Optional(Type.String({ description: 'the tab kept open for a person or a re-fetch' }))
  }, OPEN)
}, OPEN)
export type FetchResult = Static<typeof FetchResult>
