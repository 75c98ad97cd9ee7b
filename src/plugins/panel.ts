import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { isHeld, isLiveState, summarize } from '../core/handoff.js'
import { HANDOFF_ENDINGS } from '../schemas/lifecycle.js'
import { LeaseBook, leaseCookieName, type Lease } from '../panel/lease.js'
import { PanelTab } from '../panel/panel-tab.js'
import { TabStreamer } from '../panel/streamer.js'
import { UploadStore } from '../panel/uploads.js'
import type { TabRecord } from './tabs.js'

/** JPEG quality of panel frames: 60–70 keeps 60 fps at full size (docs/panel.md "CDP facts" 1). */
export const FRAME_QUALITY = 60

export interface PanelService {
  readonly leases: LeaseBook
  /** Files people chose for file choosers, per handoff (deleted when it ends). */
  readonly uploads: UploadStore
  /** The tab's one shared screencast (created on first use, kept until the tab closes). */
  streamer (tab: TabRecord): TabStreamer
  /** The panel side of a tab with a live handoff, opened on the first connection. */
  open (tab: TabRecord): Promise<PanelTab>
  find (tabId: string): PanelTab | undefined
  /** The lease a request's cookie holds for `tabId`, if it is valid and its handoff is live. */
  leaseFor (req: FastifyRequest, tabId: string): Lease | undefined
}

declare module 'fastify' {
  interface FastifyInstance {
    panel: PanelService
  }
}

/**
 * A viewer whose panel stopped renewing its UI lease is disconnected within this. (A handoff's
 * own ending — expiry included — arrives as a lifecycle transition, at once.)
 */
const LEASE_SWEEP_MS = 250

async function panelPlugin (app: FastifyInstance): Promise<void> {
  const leases = new LeaseBook()
  const uploads = new UploadStore()
  const streamers = new Map<string, TabStreamer>()
  const panels = new Map<string, Promise<PanelTab>>()
  const opened = new Map<string, PanelTab>()

  const closePanel = (tabId: string): void => {
    const panel = opened.get(tabId)
    opened.delete(tabId)
    panels.delete(tabId)
    leases.revokeTab(tabId)
    uploads.drop(tabId).catch((err: unknown) => app.log.warn({ err, tab_id: tabId }, 'uploaded files could not be deleted'))
    const h = app.handoffs.current(tabId)
    panel?.close(h ? summarize(h, app.clock.now()) : undefined)
  }

  const service: PanelService = {
    leases,
    uploads,
    streamer (tab) {
      let s = streamers.get(tab.id)
      if (!s) {
        const vp = tab.page.viewport()
        s = new TabStreamer(tab.page, {
          quality: FRAME_QUALITY,
          log: app.log.child({ tab_id: tab.id }),
          provisional: { maxWidth: vp?.width ?? 1280, maxHeight: vp?.height ?? 720 }
        })
        streamers.set(tab.id, s)
      }
      return s
    },
    open (tab) {
      let p = panels.get(tab.id)
      if (!p) {
        p = PanelTab.open({
          tab,
          handoffs: app.handoffs,
          streamer: service.streamer(tab),
          streamerFor: (popup) => service.streamer(popup),
          popups: () => app.handoffs.popupsOf(tab.id),
          now: () => app.clock.now(),
          log: app.log.child({ tab_id: tab.id }),
          inputDelivered: (seconds, kind) => app.metrics.inputDelivered(seconds, kind),
          dialogAnswered: (dialogType) => {
            const h = app.handoffs.current(tab.id)
            if (h) app.lifecycle.emit('handoff.dialog_answered', { tab_id: tab.id, profile: tab.profile }, { handoff_fence: h.fence, dialog_type: dialogType })
          },
          grantPermission: async (origin, permission) => {
            // In force at once for this browser, and kept in the profile for its next start.
            await tab.page.browserContext().setPermission(origin, { permission: { name: permission }, state: 'granted' })
            const h = app.handoffs.current(tab.id)
            if (h) app.lifecycle.emit('handoff.permission_granted', { tab_id: tab.id, profile: tab.profile }, { handoff_fence: h.fence, permission, origin })
            await app.profiles.grantPermission(tab.profile, origin, permission).catch((err: unknown) => {
              app.log.warn({ err, profile: tab.profile, permission }, 'a granted permission could not be kept in the profile')
              throw new Error('Allowed until the browser restarts: it could not be kept in the profile.')
            })
          }
        })
        p.then((panel) => {
          // The handoff may have ended while the panel was opening.
          if (panels.get(tab.id) === p && app.handoffs.isHeld(tab.id)) opened.set(tab.id, panel)
          else panel.close()
        }, () => { panels.delete(tab.id) })
        panels.set(tab.id, p)
      }
      return p
    },
    find: (tabId) => opened.get(tabId),
    leaseFor (req, tabId) {
      const h = app.handoffs.current(tabId)
      if (!h || !isHeld(h, app.clock.now())) return undefined
      const lease = leases.find(req.cookies[leaseCookieName(tabId)], tabId, app.clock.now())
      return lease && lease.fence === h.fence ? lease : undefined
    }
  }

  app.decorate('panel', service)
  app.handoffs.setFrameProver((tab, { keepStreaming, timeoutMs }) => service.streamer(tab).proveFrame(keepStreaming, timeoutMs))
  app.handoffs.onChange((tabId, summary) => {
    if (isLiveState(summary.state)) opened.get(tabId)?.update(summary)
  })
  // Ending reaches every viewer (docs/spec.md section 7): finish, decline, expiry, revocation, tab close.
  for (const ending of HANDOFF_ENDINGS) app.lifecycle.on(ending, (t) => { if (t.tab_id) closePanel(t.tab_id) })
  app.tabs.onClosed((tab) => {
    closePanel(tab.id)
    // A popup that closed: its opener's panel goes back to the tab that is left.
    for (const panel of opened.values()) void panel.syncPopups()
    const s = streamers.get(tab.id)
    streamers.delete(tab.id)
    void s?.dispose()
  })
  // A lease is the panel's to renew, not a transition of the handoff: look for lapsed ones.
  const sweep = setInterval(() => {
    const now = app.clock.now()
    for (const panel of opened.values()) {
      for (const v of panel.viewers.values()) if (now >= v.lease.expiresAt) v.ws.close(4401, 'lease expired')
    }
  }, LEASE_SWEEP_MS)
  sweep.unref()
  app.addHook('preClose', async () => {
    clearInterval(sweep)
    for (const tabId of [...opened.keys()]) closePanel(tabId)
    await Promise.all([...streamers.values()].map((s) => s.dispose()))
    streamers.clear()
    await uploads.dispose()
  })
}

export default fp(panelPlugin, { name: 'afhttp-panel', dependencies: ['afhttp-tabs', 'afhttp-handoffs', 'afhttp-lifecycle'] })
