/**
 * Request and response shapes of the afhttp HTTP API (docs/spec.md sections 5–7), as the client sees them.
 *
 * Every shape is `Static<>` of the schema the host validates, serializes and documents with
 * (src/schemas/), so the client can never disagree with the host. Type-only imports: the
 * client pulls no server code at runtime. The host may add fields over time (the SPEC allows
 * additions, never renames), so consumers should ignore what they do not know.
 */
import type { Static } from 'typebox'
import type {
  Capabilities as CapabilitiesSchema, CdpBody, CdpResult as CdpResultSchema, FetchBody, FetchResult as FetchResultSchema,
  HandoffMint as HandoffMintSchema, HandoffSummary as HandoffSummarySchema, Health as HealthSchema,
  HumanTakeoverAction as HumanTakeoverActionSchema, InvalidProfileListing as InvalidProfileListingSchema,
  LiveCheck as LiveCheckSchema, MintOptions, ProfileCreateBody, ProfileDescription as ProfileDescriptionSchema,
  ProfileList as ProfileListSchema, ProfileMetadata as ProfileMetadataSchema, ProfilePatchBody,
  ProfileRunningState as ProfileRunningStateSchema, ProfileWriteResult as ProfileWriteResultSchema,
  Readiness as ReadinessSchema, Screenshot as ScreenshotSchema, SnapshotBody, SnapshotResult as SnapshotResultSchema,
  TabCloseResult as TabCloseResultSchema, TabDescription as TabDescriptionSchema, TabList as TabListSchema,
  TabView as TabViewSchema, Warning as WarningSchema, Artifacts as ArtifactsSchema, HandoffOutcome as HandoffOutcomeSchema
} from '../schemas/index.js'

export type { Capture, Controller, HandoffState, PageKind, Backend as ProfileBackend, ProfileListing } from '../schemas/index.js'

/** A non-fatal condition reported beside a result, e.g. `takeover_content_unverified`. */
export type Warning = Static<typeof WarningSchema>

// ---------------------------------------------------------------- capabilities, health

/** `GET /capabilities`: configured support, not live availability. Public (no token needed). */
export type Capabilities = Static<typeof CapabilitiesSchema>
/** One bounded live check run by `/health` and before every handoff (docs/spec.md section 9). */
export type LiveCheck = Static<typeof LiveCheckSchema>
/**
 * `GET /health`: a bounded live observation of the host's default profile.
 * The host answers HTTP 200 when takeover is ready and 503 with this same body when it is not;
 * the client returns the body in both cases.
 */
export type Health = Static<typeof HealthSchema>

// ---------------------------------------------------------------- profiles

/** The durable metadata of a profile (`<profiles dir>/<name>/afhttp-profile.json`). */
export type ProfileMetadata = Static<typeof ProfileMetadataSchema>
/** A profile directory whose metadata cannot be used: listed, never hidden. */
export type InvalidProfileListing = Static<typeof InvalidProfileListingSchema>
/** `GET /v1/profiles` */
export type ProfileList = Static<typeof ProfileListSchema>
/** `POST /v1/profiles` body. Names match `^[a-z0-9][a-z0-9._-]{0,62}$`. */
export type ProfileCreateRequest = Static<typeof ProfileCreateBody>
/** `POST /v1/profiles` and `PATCH /v1/profiles/:name` answer. */
export type ProfileWriteResult = Static<typeof ProfileWriteResultSchema>
/** `PATCH /v1/profiles/:name` body; `labels` is a JSON merge patch (null removes a label); `proxy`, `timezone`, `locale` replace (null removes). */
export type ProfilePatch = Static<typeof ProfilePatchBody>
/** Whether a profile's browser is up, or null when the host cannot say. */
export type ProfileRunningState = Static<typeof ProfileRunningStateSchema>
/** `GET /v1/profiles/:name` */
export type ProfileDescription = Static<typeof ProfileDescriptionSchema>

// ---------------------------------------------------------------- fetch

/**
 * `load`, `domcontentloaded`, `networkidle`, `selector:<css>` (present and visible) or
 * `selector-stable:<css>` (present, visible, non-empty text, unchanged for a settle window).
 * The host's schema admits any string here and parses it; this narrows what a driver writes.
 */
export type WaitStrategy = 'load' | 'domcontentloaded' | 'networkidle' | `selector:${string}` | `selector-stable:${string}`

/** `POST /v1/fetch` body (docs/spec.md section 6). */
export type FetchRequest = Omit<Static<typeof FetchBody>, 'wait'> & { wait?: WaitStrategy }
export type Readiness = Static<typeof ReadinessSchema>
export type Screenshot = Static<typeof ScreenshotSchema>
export type Artifacts = Static<typeof ArtifactsSchema>
/**
 * A person is needed to get past this page. `takeover_url_secret` is absent when minting the
 * panel URL failed (a `takeover_url_unavailable` warning then carries the handoff error):
 * never assume every action has a usable URL.
 */
export type HumanTakeoverAction = Static<typeof HumanTakeoverActionSchema>
/** Today the host emits only `human_takeover`. */
export type FetchAction = HumanTakeoverAction
/** `POST /v1/fetch` answer: HTTP 200 whenever a page was loaded, whatever its status. */
export type FetchResult = Static<typeof FetchResultSchema>

/** `POST /v1/tabs/:tab_id/snapshot` body: observation only, allowed while a human drives. */
export type SnapshotRequest = NonNullable<Static<typeof SnapshotBody>>
/** `POST /v1/tabs/:tab_id/snapshot` answer. */
export type SnapshotResult = Static<typeof SnapshotResultSchema>

// ---------------------------------------------------------------- tabs and handoffs

/** `GET /v1/tabs/:tab_id/handoff`. After a lost response read this before deciding; never replay blindly. */
export type HandoffSummary = Static<typeof HandoffSummarySchema>
/** What changed during a finished handoff; cookie names only, never values. */
export type HandoffOutcome = Static<typeof HandoffOutcomeSchema>
/** One row of `GET /v1/tabs`. */
export type TabView = Static<typeof TabViewSchema>
/** `GET /v1/tabs` */
export type TabList = Static<typeof TabListSchema>
/** `GET /v1/tabs/:tab_id` */
export type TabDescription = Static<typeof TabDescriptionSchema>
/** `DELETE /v1/tabs/:tab_id` */
export type TabCloseResult = Static<typeof TabCloseResultSchema>
/** `POST /v1/tabs/:tab_id/handoff` body (optional; host extensions beyond the SPEC's empty mint). */
export type HandoffRequest = Static<typeof MintOptions>
/** `POST /v1/tabs/:tab_id/handoff` answer. A second mint while open returns the same fence and expiry with a fresh URL. */
export type HandoffMint = Static<typeof HandoffMintSchema>
/**
 * What `AfhttpClient.handoff()` returns: the mint, its warnings joined by client-side ones,
 * e.g. `liveness_unattested` when the host has no `/health` to check before minting.
 */
export type HandoffResult = HandoffMint
/** `POST /v1/tabs/:tab_id/handoff/finish` answer: the summary after the finish. */
export type HandoffFinishResult = HandoffSummary
/** `GET …/audit` (docs/spec.md section 19): entries `{at, handoff_fence, kind, …}`, never text, secrets or full URLs. */
export type { AuditEntry, AuditTrailAnswer } from '../schemas/audit.js'

// ---------------------------------------------------------------- cdp

/** `POST /v1/cdp` body: one raw CDP command, browser-level or on a tab. No anchor protection. */
export type CdpRequest = Static<typeof CdpBody>
/** `POST /v1/cdp` answer; `T` is what the caller knows the command returns. */
export type CdpResult<T = unknown> = Omit<Static<typeof CdpResultSchema>, 'result'> & { result: T }

/** One event of `GET /v1/events` (docs/spec.md section 15), as the host's journal defines it. */
export type { HostEvent, EventType } from '../core/event-journal.js'
