import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { ConfigError, publicPathPrefix } from '../config.js'
import { isHeld } from '../core/handoff.js'
import { tokenMatches } from '../store/token.js'
import { boundedTitle } from '../browser/bounded-title.js'
import type { HostEvent } from '../core/event-journal.js'
import type { InboxEnded, InboxList } from '../schemas/inbox.js'
import { endedEntry, inboxEntry, keepEnded } from '../inbox/listing.js'
import { PushSubscriptions } from '../inbox/push-store.js'
import { handoffPayload, PushSender } from '../inbox/push-sender.js'
import { loadOrCreateVapid, type VapidKeys } from '../inbox/vapid.js'

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

declare module 'fastify' {
  interface FastifyInstance {
    inbox: InboxService
  }
}

/** Changes within this window reach open inboxes as one update. */
const COALESCE_MS = 40
const CHANGES = /^(handoff\.|tab\.closed$|browser\.lost$)/

/** The VAPID `sub` claim: push services want a way to reach the sender's operator. */
export function pushSubject (config: { pushSubject?: string, publicUrl: string }): string {
  if (config.pushSubject) return config.pushSubject
  return config.publicUrl.startsWith('https:') ? new URL(config.publicUrl).origin : 'mailto:afhttp@localhost'
}

/**
 * The operator inbox (docs/spec.md section 20): its live list, fed by the host's own lifecycle events,
 * and Web Push of each new handoff to subscribed browsers.
 */
async function inboxPlugin (app: FastifyInstance, opts: { apiToken: string }): Promise<void> {
  const operatorToken = app.config.operatorToken
  // The configured API token was compared at load; a generated one can only be compared here.
  if (operatorToken !== undefined && tokenMatches(operatorToken, opts.apiToken)) throw new ConfigError('AFHTTP_OPERATOR_TOKEN', 'must differ from the API token (AFHTTP_TOKEN or .afhttp-token)')
  const listeners = new Set<() => void>()
  let ended: InboxEnded[] = []
  const titles = new Map<string, string | null>()
  const pending = new Set<Promise<void>>()
  let timer: NodeJS.Timeout | undefined

  const changed = (): void => {
    if (timer) return
    timer = setTimeout(() => {
      timer = undefined
      for (const fn of listeners) {
        try { fn() } catch (err) { app.log.error({ err }, 'inbox listener failed') }
      }
    }, COALESCE_MS)
    timer.unref()
  }

  let vapid: VapidKeys | undefined
  let subscriptions: PushSubscriptions | undefined
  let push: PushSender | undefined
  if (operatorToken !== undefined) {
    try {
      const loaded = await loadOrCreateVapid(app.config.profilesDir)
      vapid = loaded.keys
      if (loaded.created) app.log.info({ file: loaded.file }, 'generated the Web Push (VAPID) key pair for the operator inbox')
      subscriptions = new PushSubscriptions(app.config.profilesDir)
      await subscriptions.load()
      push = new PushSender(subscriptions, vapid, pushSubject(app.config), app.log.child({ part: 'push' }), app.config.urlDeny)
    } catch (err) {
      // The inbox still lists and takes handoffs; only notifications are off, and the log says why.
      app.log.error({ err }, 'Web Push is off: its key pair or subscriptions could not be read or written')
      vapid = undefined
      subscriptions = undefined
      push = undefined
    }
  }

  const inboxUrl = (): string => `${app.config.publicUrl}/inbox/`

  const onEvent = (e: HostEvent): void => {
    if (!CHANGES.test(e.type)) return
    changed()
    const h = e.tab_id ? app.handoffs.current(e.tab_id) : undefined
    if ((e.type === 'handoff.finished' || e.type === 'handoff.expired' || e.type === 'handoff.revoked') && h && e.tab_id) {
      const tab = app.tabs.find(e.tab_id)
      const url = tab && !tab.page.isClosed() ? tab.page.url() : h.outcome?.final_url ?? h.startUrl
      ended = keepEnded(ended, endedEntry(h, e.profile ?? tab?.profile ?? '', titles.get(e.tab_id) ?? null, url, app.clock.now()), app.clock.now())
    }
    if (e.type === 'handoff.opened' && push && h) {
      // Text only: the profile, why, and the driver's words. The panel URL stays in the stream.
      const payload = handoffPayload({ profile: e.profile ?? '', reason: h.reason ?? 'requested', instructions: h.instructions ?? null }, inboxUrl())
      const sending = push.sendAll(payload).catch((err: unknown) => { app.log.error({ err }, 'push delivery failed') })
      pending.add(sending)
      void sending.finally(() => pending.delete(sending))
    }
  }
  if (operatorToken !== undefined) {
    const unsubscribe = app.events.subscribe(onEvent)
    // Control and viewer changes of a held handoff come from the handoff service directly.
    app.handoffs.onChange(() => changed())
    app.addHook('onClose', async () => {
      unsubscribe()
      if (timer) clearTimeout(timer)
      await Promise.all([...pending])
      await subscriptions?.flushed()
    })
  }

  const service: InboxService = {
    enabled: operatorToken !== undefined,
    vapid,
    subscriptions,
    push,
    async list () {
      const now = app.clock.now()
      const held = app.tabs.list().flatMap((tab) => {
        const h = app.handoffs.current(tab.id)
        return h && isHeld(h, now) ? [{ tab, h }] : []
      })
      const handoffs = await Promise.all(held.map(async ({ tab, h }) => {
        // The browser's own record of the target answers without a renderer round trip (a busy
        // page must not hold up every inbox); a read that fails keeps the last title seen.
        const read = tab.page.isClosed() ? null : await boundedTitle(tab.page, { blocked: true })
        const title = read ?? titles.get(tab.id) ?? null
        titles.set(tab.id, title)
        return inboxEntry(h, { id: tab.id, profile: tab.profile, url: tab.page.url(), title }, app.panel.find(tab.id)?.viewers.size ?? 0, now)
      }))
      for (const id of titles.keys()) if (!app.tabs.find(id)) titles.delete(id)
      handoffs.sort((a, b) => Date.parse(a.opened_at) - Date.parse(b.opened_at))
      ended = keepEnded(ended, undefined, now)
      return { now: new Date(now).toISOString(), handoffs, ended: ended.map((e) => ({ ...e })) }
    },
    onChange (fn) {
      listeners.add(fn)
      return () => { listeners.delete(fn) }
    },
    async pushesSettled () { await Promise.all([...pending]) }
  }
  app.decorate('inbox', service)
  if (operatorToken !== undefined) app.log.info({ path: `${publicPathPrefix(app.config)}/inbox/`, web_push: vapid !== undefined }, 'operator inbox enabled')
}

export default fp(inboxPlugin, { name: 'afhttp-inbox', dependencies: ['afhttp-events', 'afhttp-handoffs', 'afhttp-panel'] })
