// The operator inbox (docs/spec.md section 20): its live list, fed by the host's own events, and
// Web Push of each new handoff to subscribed browsers. Its sources are injected, so it is tested
// with fakes (test/inbox/operator-inbox.test.ts); src/plugins/inbox.ts only wires it to the app.
import type { Page } from 'puppeteer-core'
import { isHeld, type Handoff } from '../core/handoff.js'
import type { Clock } from '../core/clock.js'
import type { HostEvent } from '../core/event-journal.js'
import type { InboxEnded, InboxList } from '../schemas/inbox.js'
import { endedEntry, inboxEntry, keepEnded } from './listing.js'
import type { PushSubscriptions } from './push-store.js'
import { handoffPayload, type PushSender } from './push-sender.js'
import type { VapidKeys } from './vapid.js'

export interface InboxService {
  /** False without AFHTTP_OPERATOR_TOKEN: every /inbox route then says the inbox is not configured. */
  readonly enabled: boolean
  /** Open handoffs (oldest first) and the ones that ended a moment ago. */
  list (): Promise<InboxList>
  /** Called (coalesced) whenever the list may have changed; returns the unsubscribe. */
  onChange (fn: () => void): () => void
  /** The VAPID public key, or undefined when Web Push could not be set up. */
  readonly vapid?: VapidKeys
  readonly subscriptions?: PushSubscriptions
  readonly push?: PushSender
  /** Notifications still being delivered (tests and shutdown wait on them). */
  pushesSettled (): Promise<void>
}

/** Web Push as set up at start; all three are absent when it could not be (or no inbox is configured). */
export interface InboxPush {
  vapid?: VapidKeys
  subscriptions?: PushSubscriptions
  push?: PushSender
}

/** A tab as the inbox reads it. */
export interface InboxTab { id: string, profile: string, page: Page }

export interface OperatorInboxDeps {
  clock: Pick<Clock, 'now'>
  log: { error: (obj: object, msg: string) => void }
  tabs: { list: () => InboxTab[], find: (id: string) => InboxTab | undefined }
  handoffs: { current: (tabId: string) => Handoff | undefined, onChange: (fn: () => void) => void }
  events: { subscribe: (fn: (event: HostEvent) => void) => () => void }
  /** Panel viewers connected to a tab now. */
  viewers: (tabId: string) => number
  /** The page's title from the browser's own record (no renderer round trip), or null when it cannot be read. */
  title: (page: Page) => Promise<string | null>
  /** Where the inbox is served (the configuration is replaced once the server knows its port). */
  inboxUrl: () => string
}

/** Changes within this window reach open inboxes as one update. */
export const INBOX_COALESCE_MS = 40
const CHANGES = /^(handoff\.|tab\.closed$|browser\.lost$)/
const ENDINGS = new Set(['handoff.finished', 'handoff.expired', 'handoff.revoked'])

/** The VAPID `sub` claim: push services want a way to reach the sender's operator. */
export function pushSubject (config: { pushSubject?: string, publicUrl: string }): string {
  if (config.pushSubject) return config.pushSubject
  return config.publicUrl.startsWith('https:') ? new URL(config.publicUrl).origin : 'mailto:afhttp@localhost'
}

/** The inbox of a host with an operator token; `DisabledInbox` stands in without one. */
export class OperatorInbox implements InboxService {
  readonly enabled = true
  readonly vapid?: VapidKeys
  readonly subscriptions?: PushSubscriptions
  readonly push?: PushSender
  readonly #d: OperatorInboxDeps
  readonly #listeners = new Set<() => void>()
  readonly #titles = new Map<string, string | null>()
  readonly #pending = new Set<Promise<void>>()
  #ended: InboxEnded[] = []
  #timer: NodeJS.Timeout | undefined
  #unsubscribe: (() => void) | undefined

  constructor (deps: OperatorInboxDeps, push: InboxPush) {
    this.#d = deps
    this.vapid = push.vapid
    this.subscriptions = push.subscriptions
    this.push = push.push
  }

  /** Starts listening to the host's events (and to control and viewer changes of held handoffs). */
  start (): void {
    this.#unsubscribe = this.#d.events.subscribe((e) => this.#onEvent(e))
    this.#d.handoffs.onChange(() => this.#changed())
  }

  /** Stops listening; waits for notifications in flight and the subscriptions' last write. */
  async close (): Promise<void> {
    this.#unsubscribe?.()
    if (this.#timer) clearTimeout(this.#timer)
    await this.pushesSettled()
    await this.subscriptions?.flushed()
  }

  async list (): Promise<InboxList> {
    const { tabs, handoffs, clock } = this.#d
    const now = clock.now()
    const held = tabs.list().flatMap((tab) => {
      const h = handoffs.current(tab.id)
      return h && isHeld(h, now) ? [{ tab, h }] : []
    })
    const entries = await Promise.all(held.map(async ({ tab, h }) => {
      // A read that fails keeps the last title seen: a busy page must not hold up every inbox.
      const read = tab.page.isClosed() ? null : await this.#d.title(tab.page)
      const title = read ?? this.#titles.get(tab.id) ?? null
      this.#titles.set(tab.id, title)
      return inboxEntry(h, { id: tab.id, profile: tab.profile, url: tab.page.url(), title }, this.#d.viewers(tab.id), now)
    }))
    for (const id of this.#titles.keys()) if (!tabs.find(id)) this.#titles.delete(id)
    entries.sort((a, b) => Date.parse(a.opened_at) - Date.parse(b.opened_at))
    this.#ended = keepEnded(this.#ended, undefined, now)
    return { now: new Date(now).toISOString(), handoffs: entries, ended: this.#ended.map((e) => ({ ...e })) }
  }

  onChange (fn: () => void): () => void {
    this.#listeners.add(fn)
    return () => { this.#listeners.delete(fn) }
  }

  async pushesSettled (): Promise<void> { await Promise.all([...this.#pending]) }

  #changed (): void {
    if (this.#timer) return
    this.#timer = setTimeout(() => {
      this.#timer = undefined
      for (const fn of this.#listeners) {
        try { fn() } catch (err) { this.#d.log.error({ err }, 'inbox listener failed') }
      }
    }, INBOX_COALESCE_MS)
    this.#timer.unref()
  }

  #onEvent (e: HostEvent): void {
    if (!CHANGES.test(e.type)) return
    this.#changed()
    const { tabs, handoffs, clock } = this.#d
    const h = e.tab_id ? handoffs.current(e.tab_id) : undefined
    if (ENDINGS.has(e.type) && h && e.tab_id) {
      const tab = tabs.find(e.tab_id)
      const url = tab && !tab.page.isClosed() ? tab.page.url() : h.outcome?.final_url ?? h.startUrl
      this.#ended = keepEnded(this.#ended, endedEntry(h, e.profile ?? tab?.profile ?? '', this.#titles.get(e.tab_id) ?? null, url, clock.now()), clock.now())
    }
    if (e.type === 'handoff.opened' && this.push && h) {
      // Text only: the profile, why, and the driver's words. The panel URL stays in the stream.
      const payload = handoffPayload({ profile: e.profile ?? '', reason: h.reason ?? 'requested', instructions: h.instructions ?? null }, this.#d.inboxUrl())
      const sending = this.push.sendAll(payload).catch((err: unknown) => { this.#d.log.error({ err }, 'push delivery failed') })
      this.#pending.add(sending)
      void sending.finally(() => this.#pending.delete(sending))
    }
  }
}

/** Without AFHTTP_OPERATOR_TOKEN: an empty list, and the routes say the inbox is not configured. */
export class DisabledInbox implements InboxService {
  readonly enabled = false
  constructor (private readonly clock: Pick<Clock, 'now'>) {}
  async list (): Promise<InboxList> { return { now: new Date(this.clock.now()).toISOString(), handoffs: [], ended: [] } }
  onChange (_fn: () => void): () => void { return () => undefined }
  async pushesSettled (): Promise<void> {}
}
