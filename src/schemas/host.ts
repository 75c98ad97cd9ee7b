// What the host says about itself: /capabilities (configuration) and /health (live observation).
import { Type, type Static } from 'typebox'
import { BROWSER_MODES } from '../vocabulary/browser.js'
import { described, Nullable, OPEN, Warnings } from './common.js'
import { HandoffMode } from './handoff.js'

/** One bounded live check run by `/health` and before every handoff (docs/spec.md section 9). */
export const LiveCheck = Type.Object({
  name: Type.String(),
  ok: Type.Boolean(),
  ms: Type.Number(),
  error: Type.Optional(Type.String())
}, OPEN)
export type LiveCheck = Static<typeof LiveCheck>

/** What the idle reaper closed, could not close, and kept (docs/spec.md section 8). */
export const ReapReport = Type.Object({
  at: Type.String(),
  closed: Type.Array(Type.Object({ tab_id: Type.String(), idle_ms: Type.Number() }, OPEN)),
  failed: Type.Array(Type.Object({ tab_id: Type.String(), error: Type.String() }, OPEN)),
  protected: Type.Array(Type.Object({ tab_id: Type.String(), idle_ms: Type.Number(), by: Type.String() }, OPEN))
}, OPEN)
export type ReapReport = Static<typeof ReapReport>

/** The resolved mode (`auto` has become one of these). */
const BrowserMode = Type.Enum(['headful', 'headless'])

/**
 * `GET /health`: HTTP 200 when takeover is ready, 503 with this same body when it is not.
 * A degraded answer still carries the profile identity and the backend error.
 */
export const Health = Type.Object({
  status: Type.Object({
    running: Type.Boolean({ description: 'the process is up; true even when takeover is unavailable' }),
    host_build: Type.String(),
    backend_connected: Type.Boolean(),
    takeover_configured: Type.Boolean(),
    takeover_health: Type.Enum(['ok', 'degraded', 'unavailable']),
    takeover_ready: Type.Boolean({ description: 'from live checks only: the browser answers and a screencast frame arrives' })
  }, OPEN),
  build: Type.Object({
    version: Type.String(),
    commit: Type.String(),
    node: Type.String(),
    chromium: Nullable(Type.String()),
    browser_mode: BrowserMode
  }, OPEN),
  takeover: Type.Object({ checks: Type.Array(LiveCheck) }, OPEN),
  profile: Type.Object({ name: Type.String(), backend: Nullable(Type.String()) }, OPEN),
  backend_error: Type.Optional(Type.String()),
  warnings: Type.Optional(described(Warnings, 'e.g. `browser_headless_fallback` when `auto` found no display')),
  /** The idle reaper's last pass, null before the first. */
  reaper: Nullable(ReapReport),
  elapsed_ms: Type.Number()
}, OPEN)
export type Health = Static<typeof Health>

/** `GET /capabilities`: configured support, not live availability. Public (no token needed). */
export const Capabilities = Type.Object({
  service: Type.String(),
  version: Type.String(),
  api_version: Type.String(),
  takeover: Type.Object({ configured: Type.Boolean(), backend: Type.String(), provider: Type.String() }, OPEN),
  browser_mode: BrowserMode,
  browser_mode_configured: Type.Enum(BROWSER_MODES),
  wait_strategies: Type.Array(Type.String()),
  captures: Type.Array(Type.String()),
  handoff_modes: Type.Immutable(Type.Array(HandoffMode)),
  idempotency: Type.Object({
    header: Type.String(),
    routes: Type.Array(Type.String()),
    ttl_ms: Type.Number(),
    keys_max: Type.Number(),
    answers_bytes_max: Type.Number(),
    survives_restart: Type.Boolean()
  }, OPEN),
  events: Type.Object({
    route: Type.String(),
    types: Type.Immutable(Type.Array(Type.String())),
    journal_max: Type.Number(),
    streams_max: Type.Number(),
    heartbeat_ms: Type.Number(),
    /** Whether a webhook is configured, never where it points. */
    webhook: Type.Object({ configured: Type.Boolean(), attempts: Type.Number(), timeout_ms: Type.Number(), queue_max: Type.Number() }, OPEN)
  }, OPEN),
  /** Every bound the host enforces, by name (e.g. `timeout_ms_max`, `body_bytes_max`). */
  limits: Type.Record(Type.String(), Type.Number())
}, OPEN)
export type Capabilities = Static<typeof Capabilities>
