/**
 * Request and response shapes of the afhttp HTTP API (SPEC sections 5–7), as the client sees them.
 *
 * Every response type is the host's JSON body exactly; the host may add fields over time
 * (the SPEC allows additions, never renames), so consumers should ignore what they do not know.
 */

/** A non-fatal condition reported beside a result, e.g. `takeover_content_unverified`. */
export interface Warning {
  code: string
  message: string
  [extra: string]: unknown
}

// ---------------------------------------------------------------- capabilities, health

/** `GET /capabilities`: configured support, not live availability. Public (no token needed). */
export interface Capabilities {
  service: string
  version: string
  api_version: string
  takeover: { configured: boolean, backend: string, provider: string }
  wait_strategies: string[]
  captures: Capture[]
  limits: Record<string, number>
  [extra: string]: unknown
}

/** One bounded live check run by `/health` and before every handoff (SPEC section 9). */
export interface LiveCheck {
  name: string
  ok: boolean
  ms: number
  error?: string
}

/**
 * `GET /health`: a bounded live observation of the host's default profile.
 * The host answers HTTP 200 when takeover is ready and 503 with this same body when it is not;
 * the client returns the body in both cases.
 */
export interface Health {
  status: {
    /** The process is up; true even when takeover is unavailable. */
    running: boolean
    host_build: string
    backend_connected: boolean
    takeover_configured: boolean
    takeover_health: 'ok' | 'degraded' | 'unavailable' | string
    /** From live checks only: the browser answers and a screencast frame arrives. */
    takeover_ready: boolean
  }
  build: { version: string, commit: string, node: string, chromium: string | null }
  takeover: { checks: LiveCheck[] }
  profile: { name: string, backend: string | null }
  backend_error?: string
  [extra: string]: unknown
}

// ---------------------------------------------------------------- profiles

export type ProfileBackend = 'chromium' | 'cdp'

/** The durable metadata of a profile (`<profiles dir>/<name>/afhttp-profile.json`). */
export interface ProfileMetadata {
  schema_version: number
  name: string
  backend: ProfileBackend
  /** Present exactly when `backend` is `cdp`. */
  cdp_url?: string
  labels: Record<string, string>
  created_at: string
  updated_at: string
}

/** A profile directory whose metadata cannot be used: listed, never hidden. */
export interface InvalidProfileListing {
  name: string
  error: { code: string, message: string }
}

export type ProfileListing = ProfileMetadata | InvalidProfileListing

/** `GET /v1/profiles` */
export interface ProfileList { profiles: ProfileListing[] }

/** `POST /v1/profiles` body. Names match `^[a-z0-9][a-z0-9._-]{0,62}$`. */
export interface ProfileCreateRequest {
  name: string
  backend?: ProfileBackend
  cdp_url?: string
  labels?: Record<string, string>
}

/** `POST /v1/profiles` and `PATCH /v1/profiles/:name` answer. */
export interface ProfileWriteResult {
  profile: ProfileMetadata
  /** E.g. `metadata_durability_unconfirmed` when the directory sync failed after the rename. */
  warnings: Warning[]
}

/** `PATCH /v1/profiles/:name` body; `labels` is a JSON merge patch (null removes a label). */
export interface ProfilePatch {
  labels?: Record<string, string | null>
  cdp_url?: string
}

/** Whether a profile's browser is up, or null when the host cannot say. */
export interface ProfileRunningState { running: boolean, connected: boolean, error?: string }

/** `GET /v1/profiles/:name` */
export interface ProfileDescription {
  profile: ProfileMetadata & { running: ProfileRunningState | null }
}

// ---------------------------------------------------------------- fetch

export type Capture = 'html' | 'text' | 'screenshot'

/**
 * `load`, `domcontentloaded`, `networkidle`, `selector:<css>` (present and visible) or
 * `selector-stable:<css>` (present, visible, non-empty text, unchanged for a settle window).
 */
export type WaitStrategy = 'load' | 'domcontentloaded' | 'networkidle' | `selector:${string}` | `selector-stable:${string}`

/** `POST /v1/fetch` body (SPEC section 6). */
export interface FetchRequest {
  /** Required unless `tab_id` is given; with only `tab_id` the tab's current document is captured without navigating. */
  url?: string
  profile?: string
  /** Reuse a retained tab. A plain fetch never closes the caller's tab. */
  tab_id?: string
  /** Keep the tab and mint a panel URL unless the page is verifiably content. */
  takeover?: boolean
  /** Default `load`. */
  wait?: WaitStrategy
  /** Default 30000, bounded by the host (see `capabilities().limits.timeout_ms_max`). */
  timeout_ms?: number
  /** Default `["html","text"]`. */
  capture?: Capture[]
  /** CSS selector of the part of the page the human should be shown. */
  region?: string
  /** Plain text (≤ 500 characters) shown to the person if the fetch hands the tab off. */
  instructions?: string
}

/** `content`, `challenge`, `denied`, `http_error` or `empty`; absent when the host cannot tell. */
export type PageKind = 'content' | 'challenge' | 'denied' | 'http_error' | 'empty'

export interface Readiness {
  strategy: string
  measured: boolean
  satisfied: boolean
  elapsed_ms: number
  target_ready?: boolean
  samples?: number
  [extra: string]: unknown
}

export interface Screenshot { mime: 'image/jpeg' | 'image/png' | string, base64: string }

export interface Artifacts {
  html?: string
  text?: string
  screenshot?: Screenshot
}

/**
 * A person is needed to get past this page. `takeover_url_secret` is absent when minting the
 * panel URL failed (a `takeover_url_unavailable` warning then carries the handoff error):
 * never assume every action has a usable URL.
 */
export interface HumanTakeoverAction {
  kind: 'human_takeover'
  reason: string
  /** Single-use secret panel URL; hand it to a person, do not log it. */
  takeover_url_secret?: string
  handoff_fence?: string
  expires_at?: string
  [extra: string]: unknown
}

/** Actions are open-ended; today the host emits only `human_takeover`. */
export type FetchAction = HumanTakeoverAction | { kind: string, [extra: string]: unknown }

/** `POST /v1/fetch` answer: HTTP 200 whenever a page was loaded, whatever its status. */
export interface FetchResult {
  /** True exactly when all five pieces of mechanical evidence hold (SPEC section 6). */
  ok: boolean
  url: string
  final_url?: string
  status?: number
  page_kind?: PageKind
  challenge?: { provider?: string, evidence: string[] }
  readiness?: Readiness
  artifacts?: Artifacts
  warnings?: Warning[]
  tab_id?: string
  tab_retained?: boolean
  actions?: FetchAction[]
  trace?: { timings?: Record<string, number>, retained_tab_id?: string, [extra: string]: unknown }
  [extra: string]: unknown
}

/** `POST /v1/tabs/:tab_id/snapshot` body: observation only, allowed while a human drives. */
export interface SnapshotRequest {
  capture?: Capture[]
}

/** `POST /v1/tabs/:tab_id/snapshot` answer; the SPEC fixes only that it carries the captures. */
export interface SnapshotResult {
  tab_id?: string
  url?: string
  artifacts?: Artifacts
  warnings?: Warning[]
  [extra: string]: unknown
}

// ---------------------------------------------------------------- tabs and handoffs

export type Controller = 'agent' | 'human' | 'human_disconnected'
export type HandoffState = 'open' | 'human' | 'human_disconnected' | 'finished' | 'expired' | 'revoked'

/** `GET /v1/tabs/:tab_id/handoff`. After a lost response read this before deciding; never replay blindly. */
export interface HandoffSummary {
  state: HandoffState
  finish_reason?: string
  handoff_fence: string
  expires_at: string
  controller: Controller | string
  generation: number
  /** The host detected completion itself (challenge gone, or the selector-stable target ready). */
  auto_done: boolean
  /** False once the host has used its completion checks: only Done (or finish) ends the handoff now. */
  will_check_again: boolean
  checks_left: number
  instructions?: string
  /** The person's reason when finish_reason is `human_declined`. */
  human_note?: string
  outcome?: HandoffOutcome
  [extra: string]: unknown
}

/** One row of `GET /v1/tabs`. */
export interface TabView {
  tab_id: string
  profile: string
  url: string
  title: string | null
  controller: Controller | string
  retained: boolean
  idle_ms: number
  handoff: HandoffSummary | null
  [extra: string]: unknown
}

/** `GET /v1/tabs` */
export interface TabList { tabs: TabView[] }
/** `GET /v1/tabs/:tab_id` */
export interface TabDescription { tab: TabView }
/** `DELETE /v1/tabs/:tab_id` */
export interface TabCloseResult { closed: boolean, tab_id: string }

/** `POST /v1/tabs/:tab_id/handoff` body (optional; host extensions beyond the SPEC's empty mint). */
export interface HandoffRequest {
  /** CSS selector of the part of the page to show the person. */
  region?: string
  /** A `selector-stable` target whose readiness counts as completion. */
  ready_selector?: string
  /** Plain text (≤ 500 characters) shown to the person above the view. */
  instructions?: string
  /** `view`: a watch-only link (no control, Done, decline or input). Default `control`. */
  mode?: 'control' | 'view'
}

/** What changed during a finished handoff; cookie names only, never values. */
export interface HandoffOutcome { final_url: string, navigated: boolean, cookies_set: string[] }

/** `POST /v1/tabs/:tab_id/handoff` answer. A second mint while open returns the same fence and expiry with a fresh URL. */
export interface HandoffMint {
  takeover_url_secret: string
  handoff_fence: string
  expires_at: string
  surface: { tab_id: string, url: string, aim: string | Record<string, unknown> }
  [extra: string]: unknown
}

/**
 * What `AfhttpClient.handoff()` returns: the mint plus client-side warnings, e.g.
 * `liveness_unattested` when the host has no `/health` to check before minting.
 */
export interface HandoffResult extends HandoffMint {
  warnings: Warning[]
}

/** `POST /v1/tabs/:tab_id/handoff/finish` answer; the SPEC leaves its shape open (usually the final summary). */
export interface HandoffFinishResult {
  state?: HandoffState
  finish_reason?: string
  handoff_fence?: string
  [extra: string]: unknown
}

// ---------------------------------------------------------------- cdp

/** `POST /v1/cdp` body: one raw CDP command, browser-level or on a tab. No anchor protection. */
export interface CdpRequest {
  method: string
  params?: Record<string, unknown>
  profile?: string
  tab_id?: string
}

/** `POST /v1/cdp` answer. */
export interface CdpResult<T = unknown> { result: T }

/** One event of `GET /v1/events` (SPEC section 15), as the host's journal defines it. */
export type { HostEvent, EventType } from '../core/event-journal.js'
