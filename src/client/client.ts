import { setTimeout as sleep } from 'node:timers/promises'
import { Pool, type Dispatcher } from 'undici'
import { AfhttpClientError, answerError, transportError } from './errors.js'
import { hostForUrl, hostRef, parseHostList, rendezvousPick, routeOf, tabIdsIn, TabDirectory, DEFAULT_ROUTE_PROFILE, type HostRef, type Route } from './routing.js'
import type {
  AuditTrailAnswer, Capabilities, CdpRequest, CdpResult, FetchRequest, FetchResult, HandoffFinishResult, HandoffMint, HandoffRequest, HandoffResult,
  HandoffSummary, Health, ProfileCreateRequest, ProfileDescription, ProfileList, ProfilePatch, ProfileWriteResult,
  SnapshotRequest, SnapshotResult, TabCloseResult, TabDescription, TabList, Warning
} from './types.js'
import { eventStream, lastIdFor, waitForHandoffEnd, type EventsOptions, type WaitForHandoffOptions } from './events.js'
import { mergeTagged } from './merge-streams.js'
import type { HostEvent } from './types.js'

/** How to reach a host. */
export interface AfhttpClientOptions {
  /**
   * Base URL of the host, e.g. `http://127.0.0.1:8787`. A path prefix (behind a proxy) is kept.
   * Several hosts may be given comma-separated (like `AFHTTP_URL`), or in `hosts`.
   */
  url?: string | URL
  /**
   * Several hosts (docs/spec.md section 14): each call goes to the host that owns its profile
   * (rendezvous hashing on the profile name) or its tab (learned from answers, else asked of
   * every host). Inventory calls (`listTabs`, `listProfiles`) ask every host and merge.
   */
  hosts?: ReadonlyArray<string | URL>
  /** The API bearer token (`AFHTTP_TOKEN` of the host). Only `capabilities()` works without it. */
  token?: string
  /** Default per-call timeout in ms (default 30000). `fetch()` adds its navigation budget on top. */
  timeoutMs?: number
  /** Keep-alive connections to the host (default 8). */
  connections?: number
}

/** Per-call options. */
/** How often /health is asked before a mint is refused as takeover_unavailable, and how far apart. */
export const LIVENESS_ATTEMPTS = 3
export const LIVENESS_RETRY_MS = 500

export interface CallOptions {
  /** Overrides the client's per-call timeout; the call fails with `request_timeout` after it. */
  timeoutMs?: number
  /** Cancels the call; the promise rejects with the signal's reason. */
  signal?: AbortSignal
  /**
   * `Idempotency-Key` for `fetch()` and `handoff()` (1–128 printable characters): send the same key
   * when retrying after a lost answer and the host answers with the first result (docs/spec.md section 5).
   */
  idempotencyKey?: string
}

const DEFAULT_TIMEOUT_MS = 30_000
const DEFAULT_NAVIGATION_MS = 30_000
// A fetch answers after its own navigation budget; leave room for captures and the answer.
const FETCH_MARGIN_MS = 15_000

/**
 * Typed client of one afhttp host. One instance keeps a keep-alive pool: reuse it, and call
 * `close()` when done. Every method returns the host's JSON body and throws `AfhttpClientError`.
 */
export class AfhttpClient {
  /** The host's base URL without credentials, safe to print. */
  readonly baseUrl: string
  readonly #token: string | undefined
  readonly #timeoutMs: number
  readonly #hosts = new Map<string, { ref: HostRef, pool: Pool }>()
  readonly #tabs = new TabDirectory()
  // The first host's pool and path prefix, for calls that are not routed by profile or tab.
  readonly #pool: Pool
  readonly #prefix: string

  constructor (opts: AfhttpClientOptions) {
    const list = parseHostList(opts.hosts?.length ? opts.hosts : opts.url ?? '')
    const poolFor = (origin: string): Pool => new Pool(origin, { connections: opts.connections ?? 8, keepAliveTimeout: 10_000 })
    const first = hostRef(list[0])
    this.#prefix = first.prefix
    this.#pool = poolFor(first.origin)
    this.#hosts.set(first.base, { ref: { ...first, prefix: this.#prefix }, pool: this.#pool })
    for (const base of list.slice(1)) {
      const ref = hostRef(base)
      this.#hosts.set(ref.base, { ref, pool: poolFor(ref.origin) })
    }
    this.baseUrl = list.join(',')
    this.#token = opts.token
    this.#timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS
  }

  /** The hosts this client routes over (base URLs), in the order given. */
  get hosts (): string[] { return [...this.#hosts.keys()] }

  /**
   * The host a profile, a tab or a panel URL belongs to: what the next call about it uses.
   * A tab this client has not seen is looked up on every host.
   */
  async hostFor (ref: { profile?: string, tabId?: string, panelUrl?: string }, opts?: CallOptions): Promise<string> {
    if (ref.panelUrl) {
      const byUrl = hostForUrl(ref.panelUrl, this.hosts)
      if (byUrl) return byUrl
    }
    if (ref.tabId) return this.#hostForTab(ref.tabId, opts)
    return rendezvousPick(ref.profile ?? DEFAULT_ROUTE_PROFILE, this.hosts)
  }

  /** `GET /capabilities`: configured support (public). */
  capabilities (opts?: CallOptions): Promise<Capabilities> {
    return this.#call('GET', '/capabilities', undefined, opts)
  }

  /**
   * `GET /health`: live observation. Resolves with the body on HTTP 200 (ready) and on 503 (not
   * ready): read `status.takeover_ready`. Rejects on other answers, e.g. 404 from a host without `/health`.
   */
  health (opts?: CallOptions): Promise<Health> {
    return this.#call('GET', '/health', undefined, opts, (status, body) => status === 503 && isHealth(body))
  }

  /** `GET /v1/profiles` (of every host when there are several). */
  async listProfiles (opts?: CallOptions): Promise<ProfileList> {
    const all = await this.#everyHost<ProfileList>('/v1/profiles', opts)
    return { ...all[0], profiles: all.flatMap((l) => l.profiles) }
  }

  /** `POST /v1/profiles` (a durable metadata write; check `warnings`). */
  createProfile (input: ProfileCreateRequest, opts?: CallOptions): Promise<ProfileWriteResult> {
    return this.#call('POST', '/v1/profiles', input, opts)
  }

  /** `GET /v1/profiles/:name`: metadata plus running state. */
  getProfile (name: string, opts?: CallOptions): Promise<ProfileDescription> {
    return this.#call('GET', `/v1/profiles/${enc(name)}`, undefined, opts)
  }

  /** `PATCH /v1/profiles/:name`: update `labels` (merge patch), `cdp_url`, or `proxy`/`timezone`/`locale` (docs/spec.md section 21; null removes; they apply at the browser's next start). */
  updateProfile (name: string, patch: ProfilePatch, opts?: CallOptions): Promise<ProfileWriteResult> {
    return this.#call('PATCH', `/v1/profiles/${enc(name)}`, patch, opts)
  }

  /**
   * `POST /v1/fetch`. Resolves whenever a page loaded (check `ok`, `page_kind` and `actions`);
   * rejects with `navigation_failed`/`navigation_timeout` (and `details`/`trace` of a retained tab) otherwise.
   * The default call timeout is the request's `timeout_ms` plus a margin. With `takeover: true` it
   * checks `/health` first, like `handoff()`: not ready → `takeover_unavailable`; no `/health` → warning.
   */
  async fetch (req: FetchRequest, opts: CallOptions = {}): Promise<FetchResult> {
    // A takeover fetch may mint a panel URL: attest liveness first (docs/spec.md section 11), as handoff() does.
    const warnings = req.takeover ? await this.#attestLiveness(opts, routeOf('POST', '/v1/fetch', req)) : []
    const timeoutMs = opts.timeoutMs ?? (req.timeout_ms ?? DEFAULT_NAVIGATION_MS) + FETCH_MARGIN_MS
    const result = await this.#call<FetchResult>('POST', '/v1/fetch', req, { ...opts, timeoutMs })
    if (warnings.length) result.warnings = [...(result.warnings ?? []), ...warnings]
    return result
  }

  /** `GET /v1/tabs` (of every host when there are several). */
  async listTabs (opts?: CallOptions): Promise<TabList> {
    const all = await this.#everyHost<TabList>('/v1/tabs', opts)
    return { ...all[0], tabs: all.flatMap((l) => l.tabs) }
  }

  /** `GET /v1/tabs/:tab_id` */
  getTab (tabId: string, opts?: CallOptions): Promise<TabDescription> {
    return this.#call('GET', `/v1/tabs/${enc(tabId)}`, undefined, opts)
  }

  /** `POST /v1/tabs/:tab_id/snapshot`: observe without page effects (works while a person drives). */
  snapshot (tabId: string, req: SnapshotRequest = {}, opts?: CallOptions): Promise<SnapshotResult> {
    return this.#call('POST', `/v1/tabs/${enc(tabId)}/snapshot`, req, opts)
  }

  /** `DELETE /v1/tabs/:tab_id`: close through the window-anchor guard; also revokes a handoff. */
  closeTab (tabId: string, opts?: CallOptions): Promise<TabCloseResult> {
    return this.#call('DELETE', `/v1/tabs/${enc(tabId)}`, undefined, opts)
  }

  /**
   * Mints a panel URL for a tab (`POST /v1/tabs/:tab_id/handoff`) after checking `/health`:
   * - backend not connected or takeover not ready → rejects with `takeover_unavailable` (no mint);
   * - host without `/health` (404) → mints anyway and adds warning `liveness_unattested`.
   * The host runs its own live checks on the tab before minting as well.
   */
  async handoff (tabId: string, req: HandoffRequest = {}, opts?: CallOptions): Promise<HandoffResult> {
    const warnings = await this.#attestLiveness(opts, { kind: 'tab', tabId })
    const mint = await this.#call<HandoffMint>('POST', `/v1/tabs/${enc(tabId)}/handoff`, req, opts)
    const hostWarnings = Array.isArray(mint.warnings) ? mint.warnings as Warning[] : []
    return { ...mint, warnings: [...hostWarnings, ...warnings] }
  }

  /** `GET /v1/tabs/:tab_id/handoff`: read this after a lost response instead of replaying. */
  handoffSummary (tabId: string, opts?: CallOptions): Promise<HandoffSummary> {
    return this.#call('GET', `/v1/tabs/${enc(tabId)}/handoff`, undefined, opts)
  }

  /** `POST /v1/tabs/:tab_id/handoff/finish`: end the hold from the driver side (`handoff_fence_stale` if not current). */
  finishHandoff (tabId: string, handoffFence: string, opts?: CallOptions): Promise<HandoffFinishResult> {
    return this.#call('POST', `/v1/tabs/${enc(tabId)}/handoff/finish`, { handoff_fence: handoffFence }, opts)
  }

  /**
   * Ends the handoff as declined (`finish_reason: human_declined`, `human_note`): for a driver that
   * asked its person outside the panel and heard "no" (an MCP client's URL elicitation). The tab
   * stays retained, as after a decline in the panel.
   */
  declineHandoff (tabId: string, handoffFence: string, note?: string, opts?: CallOptions): Promise<HandoffFinishResult> {
    const body = { handoff_fence: handoffFence, reason: 'human_declined', ...(note !== undefined ? { human_note: note } : {}) }
    return this.#call('POST', `/v1/tabs/${enc(tabId)}/handoff/finish`, body, opts)
  }

  /** `GET /v1/tabs/:tab_id/handoff/audit`: the audit trail of a tab's handoffs, readable after the tab is gone. */
  handoffAudit (tabId: string, opts?: CallOptions): Promise<AuditTrailAnswer> {
    return this.#call('GET', `/v1/tabs/${enc(tabId)}/handoff/audit`, undefined, opts)
  }

  /** `GET /v1/profiles/:name/audit`: a profile's trail across handoffs, entries at or after `since`, at most `limit`. */
  profileAudit (name: string, query: { since?: string, limit?: number } = {}, opts?: CallOptions): Promise<AuditTrailAnswer> {
    const q = new URLSearchParams()
    if (query.since !== undefined) q.set('since', query.since)
    if (query.limit !== undefined) q.set('limit', String(query.limit))
    const qs = q.size ? `?${q.toString()}` : ''
    return this.#call('GET', `/v1/profiles/${enc(name)}/audit${qs}`, undefined, opts)
  }

  /** `POST /v1/cdp`: one raw CDP command (low level; `Target.closeTarget` here has no anchor protection). */
  cdp<T = unknown> (req: CdpRequest, opts?: CallOptions): Promise<CdpResult<T>> {
    return this.#call('POST', '/v1/cdp', req, opts)
  }

  /**
   * `GET /v1/events` as an async iterator of events. It reconnects by itself with
   * `Last-Event-ID` after a drop; an `events.gap` event means events were missed: re-read state.
   * Break out of the loop (or abort `signal`) to close the stream.
   *
   * Over several hosts it follows every host (or only `opts.host`): each event then carries
   * `host`, the base URL it came from, and event ids are per host, so resume with
   * `lastEventId` as a map from host to the last id seen there.
   */
  events (opts: EventsOptions = {}): AsyncGenerator<HostEvent & { host?: string }> {
    const hosts = opts.host !== undefined ? [this.#knownHost(opts.host)] : this.hosts
    if (hosts.length > 1 && (typeof opts.lastEventId === 'number' || typeof opts.lastEventId === 'string')) {
      // An id means something on one host only: resuming every host after it would skip or repeat.
      throw new AfhttpClientError('invalid_request', 'lastEventId: with several hosts, give a map from host to id, or pick one host with `host`.', { details: { field: 'lastEventId' } })
    }
    const streamOf = (host: string): AsyncGenerator<HostEvent> =>
      eventStream((lastId, signal) => this.#openEvents(host, lastId, signal), { ...opts, lastEventId: lastIdFor(opts.lastEventId, host) })
    if (this.#hosts.size === 1) return streamOf(hosts[0])
    return (async function * () {
      for await (const { key, value } of mergeTagged(hosts.map((host) => ({ key: host, stream: streamOf(host) })))) yield { ...value, host: key }
    })()
  }

  /**
   * Waits until a tab's handoff is no longer live and resolves with its summary (`finished`,
   * `expired` or `revoked`; read `finish_reason`). Uses the event stream of the tab's own host,
   * polling the summary on a host without one. Rejects with `tab_not_found`/`handoff_not_found`
   * when the tab is gone.
   */
  async waitForHandoff (tabId: string, opts: WaitForHandoffOptions = {}): Promise<HandoffSummary> {
    const host = await this.#hostForTab(tabId, { signal: opts.signal })
    return waitForHandoffEnd({
      open: (lastId, signal) => this.#openEvents(host, lastId, signal),
      summary: (id, signal) => this.handoffSummary(id, { signal })
    }, tabId, opts)
  }

  #knownHost (host: string): string {
    const [base] = parseHostList(host)
    if (!this.#hosts.has(base)) throw new AfhttpClientError('invalid_request', `host: ${base} is not one of this client's hosts (${this.hosts.join(', ')}).`, { details: { field: 'host' } })
    return base
  }

  async #openEvents (host: string, lastEventId: string | undefined, signal: AbortSignal): Promise<Dispatcher.ResponseData> {
    const { ref, pool } = this.#hosts.get(host)!
    const headers: Record<string, string> = { accept: 'text/event-stream', 'user-agent': 'afhttp-client' }
    if (this.#token !== undefined) headers.authorization = `Bearer ${this.#token}`
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId
    let res: Dispatcher.ResponseData
    try {
      // No body or headers timeout: the stream is long-lived and the host sends heartbeats.
      res = await pool.request({ path: `${ref.prefix}/v1/events`, method: 'GET', headers, signal, bodyTimeout: 0 })
    } catch (err) {
      if (signal.aborted) throw signal.reason
      throw transportError(err, host, 'GET')
    }
    if (res.statusCode === 200) return res
    const text = await res.body.text()
    throw answerError(res.statusCode, parseJson(text), text)
  }

  /** Closes the keep-alive pool. */
  async close (): Promise<void> {
    await Promise.all([...this.#hosts.values()].map((h) => h.pool.close()))
  }

  async #hostFor (route: Route, opts?: CallOptions): Promise<string> {
    const hosts = this.hosts
    if (hosts.length === 1) return hosts[0]
    if (route.kind === 'tab') return this.#hostForTab(route.tabId, opts)
    return rendezvousPick(route.kind === 'profile' ? route.profile : DEFAULT_ROUTE_PROFILE, hosts)
  }

  // A tab lives where it was opened: remembered from answers, else asked of every host.
  async #hostForTab (tabId: string, opts?: CallOptions): Promise<string> {
    const known = this.#tabs.owner(tabId)
    if (known || this.#hosts.size === 1) return known ?? this.hosts[0]
    const found = await Promise.all(this.hosts.map((h) => this.#callOn(h, 'GET', `/v1/tabs/${enc(tabId)}`, undefined, opts).then(() => h, () => undefined)))
    // Nobody has it: the tab id's own rendezvous host answers tab_not_found, as one host would.
    return found.find((h) => h !== undefined) ?? rendezvousPick(tabId, this.hosts)
  }

  async #everyHost<T> (path: string, opts?: CallOptions): Promise<T[]> {
    return Promise.all(this.hosts.map((h) => this.#callOn<T>(h, 'GET', path, undefined, opts)))
  }

  async #attestLiveness (opts?: CallOptions, route: Route = { kind: 'default' }): Promise<Warning[]> {
    let health: Health
    for (let attempt = 1; ; attempt++) {
      try {
        const host = await this.#hostFor(route, opts)
        health = await this.#callOn(host, 'GET', '/health', undefined, opts, (status, body) => status === 503 && isHealth(body))
      } catch (err) {
        if (err instanceof AfhttpClientError && err.status === 404) {
          return [{ code: 'liveness_unattested', message: `${this.baseUrl} has no /health route, so the client cannot attest that the browser and takeover are live; minting anyway` }]
        }
        throw err
      }
      if (health.status.backend_connected && health.status.takeover_ready) return []
      // A live check can fail for a moment on a busy host (a frame that took longer than its
      // budget): ask again before refusing, as a person would reload once.
      if (attempt === LIVENESS_ATTEMPTS) break
      await sleep(LIVENESS_RETRY_MS, undefined, { signal: opts?.signal })
    }
    const { backend_connected: connected, takeover_ready: ready } = health.status
    const failed = (health.takeover?.checks ?? []).filter((c) => !c.ok).map((c) => `${c.name}${c.error ? `: ${c.error}` : ''}`)
    const why = health.backend_error ?? failed[0] ?? (connected ? 'takeover is not ready' : 'the browser backend is not connected')
    throw new AfhttpClientError('takeover_unavailable', `not minting a panel URL: /health says ${why}`, {
      status: 503,
      retryable: true,
      details: { backend_connected: connected, takeover_ready: ready, failed_checks: failed, profile: health.profile }
    })
  }

  async #call<T> (method: Dispatcher.HttpMethod, path: string, body: unknown, opts: CallOptions = {}, acceptError?: (status: number, body: unknown) => boolean): Promise<T> {
    const host = await this.#hostFor(routeOf(method, path, body), opts)
    return this.#callOn(host, method, path, body, opts, acceptError)
  }

  async #callOn<T> (host: string, method: Dispatcher.HttpMethod, path: string, body: unknown, opts: CallOptions = {}, acceptError?: (status: number, body: unknown) => boolean): Promise<T> {
    const { ref, pool } = this.#hosts.get(host)!
    const timeoutMs = opts.timeoutMs ?? this.#timeoutMs
    const timeout = AbortSignal.timeout(timeoutMs)
    const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'afhttp-client' }
    if (this.#token !== undefined) headers.authorization = `Bearer ${this.#token}`
    if (body !== undefined) headers['content-type'] = 'application/json'
    if (opts.idempotencyKey !== undefined) headers['idempotency-key'] = opts.idempotencyKey
    let statusCode: number
    let text: string
    try {
      const res = await pool.request({ path: ref.prefix + path, method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal })
      statusCode = res.statusCode
      text = await res.body.text()
    } catch (err) {
      if (opts.signal?.aborted) throw opts.signal.reason
      if (timeout.aborted) {
        throw new AfhttpClientError('request_timeout', `${method} ${path}: no answer from ${host} within ${timeoutMs} ms`, {
          retryable: true, details: { timeout_ms: timeoutMs, may_have_taken_effect: method !== 'GET' }
        })
      }
      throw transportError(err, host, method)
    }
    const parsed = parseJson(text)
    // A 404 names the tab it did not find here: only other answers say where a tab lives.
    if (this.#hosts.size > 1 && statusCode !== 404) for (const id of tabIdsIn(parsed)) this.#tabs.learn(id, host)
    if (statusCode >= 200 && statusCode < 300) {
      if (parsed === undefined) throw new AfhttpClientError('invalid_response', `${method} ${path}: HTTP ${statusCode} but the body is not JSON`, { status: statusCode })
      return parsed as T
    }
    if (acceptError?.(statusCode, parsed)) return parsed as T
    throw answerError(statusCode, parsed, text)
  }
}

function enc (segment: string): string {
  return encodeURIComponent(segment)
}

function parseJson (text: string): unknown {
  if (!text) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function isHealth (body: unknown): body is Health {
  const status = (body as { status?: unknown } | undefined)?.status
  return typeof status === 'object' && status !== null && 'takeover_ready' in status
}
