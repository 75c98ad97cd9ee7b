import type { FastifyInstance } from 'fastify'
import type { Browser, Target } from 'puppeteer-core'
import type { HandoffSummary } from '../core/handoff.js'
import type { MintOptions, MintResult } from '../plugins/handoffs.js'
import type { TabRecord } from '../plugins/tabs.js'

// Turns what the host's services already report into events (SPEC section 15). The mint and
// tab opening are observed by wrapping the services' own methods: their answers (the panel URL,
// the new tab) are what the events carry, and the services stay unaware of the stream.

const SWEEP_MS = 500
const LIVE = new Set(['open', 'human', 'human_disconnected'])

interface Seen { fence: string, state: string, controller: string, generation: number }

export function wireEventSources (app: FastifyInstance): void {
  const events = app.events
  const seen = new Map<string, Seen>()
  const announced = new Set<string>()

  const openerOf = (tab: TabRecord): string | undefined => {
    const opener = tab.page.target().opener()
    return opener ? app.tabs.list().find((t) => t.page.target() === opener)?.id : undefined
  }
  const announce = (tab: TabRecord): void => {
    if (announced.has(tab.id) || tab.page.isClosed()) return
    announced.add(tab.id)
    const opener = openerOf(tab)
    events.publish({ type: 'tab.opened', tab_id: tab.id, profile: tab.profile, data: { url: tab.page.url(), origin: tab.origin, ...(opener ? { opener_tab_id: opener } : {}) } })
  }
  const scan = (): void => { for (const tab of app.tabs.list()) announce(tab) }

  const open = app.tabs.open.bind(app.tabs)
  app.tabs.open = async (profile) => {
    const tab = await open(profile)
    announce(tab)
    return tab
  }
  app.tabs.onClosed((tab, reason) => {
    seen.delete(tab.id)
    if (!announced.delete(tab.id)) return
    events.publish({ type: 'tab.closed', tab_id: tab.id, profile: tab.profile, data: { reason } })
  })

  // Popups and CDP clients open pages the host adopts a moment later.
  app.browsers.onStarted((profile: string, browser: Browser) => {
    events.publish({ type: 'browser.started', profile, data: { pid: browser.process()?.pid ?? null } })
    browser.on('targetcreated', (target: Target) => {
      if (target.type() !== 'page') return
      for (const ms of [50, 250, 1000]) setTimeout(scan, ms).unref()
    })
  })
  app.browsers.onLost((profile) => { events.publish({ type: 'browser.lost', profile, data: {} }) })

  const mint = app.handoffs.mint.bind(app.handoffs)
  app.handoffs.mint = async (tabId: string, opts?: MintOptions): Promise<MintResult> => {
    const before = app.handoffs.isHeld(tabId) ? app.handoffs.current(tabId)?.fence : undefined
    const result = await mint(tabId, opts)
    const tab = app.tabs.find(tabId)
    if (tab) announce(tab)
    const fresh = result.handoff_fence !== before
    const instructions = (opts as { instructions?: string } | undefined)?.instructions
    events.publish({
      type: fresh ? 'handoff.opened' : 'handoff.url_reissued',
      tab_id: tabId,
      profile: tab?.profile,
      data: {
        handoff_fence: result.handoff_fence,
        expires_at: result.expires_at,
        takeover_url_secret: result.takeover_url_secret,
        ...(instructions !== undefined ? { instructions } : {}),
        ...(typeof (opts as { mode?: string } | undefined)?.mode === 'string' ? { mode: (opts as { mode: string }).mode } : {}),
        surface: result.surface
      }
    })
    if (fresh) seen.set(tabId, { fence: result.handoff_fence, state: 'open', controller: 'agent', generation: app.handoffs.summary(tabId).generation })
    redactSpentUrls(tabId)
    return result
  }

  /** A panel URL that can no longer be exchanged is dropped from the journal: it keeps no secrets longer than they work. */
  const redactSpentUrls = (tabId: string): void => {
    for (const e of events.journal.recent()) {
      const secretUrl = e.data.takeover_url_secret
      if (e.tab_id !== tabId || typeof secretUrl !== 'string') continue
      const problem = app.handoffs.secretProblem(secretUrl.slice(secretUrl.lastIndexOf('/') + 1))
      if (problem) {
        delete e.data.takeover_url_secret
        e.data.takeover_url_state = problem
      }
    }
  }

  const observe = (tabId: string, s: HandoffSummary): void => {
    const prev = seen.get(tabId)
    if (!prev || prev.fence !== s.handoff_fence) {
      // A handoff whose mint has not answered yet: its opened event comes from the mint.
      if (LIVE.has(s.state)) return
    }
    const profile = app.tabs.find(tabId)?.profile
    const base = { handoff_fence: s.handoff_fence }
    if (LIVE.has(s.state) && prev && (prev.controller !== s.controller || prev.generation !== s.generation)) {
      events.publish({ type: 'handoff.control', tab_id: tabId, profile, data: { ...base, controller: s.controller, generation: s.generation, state: s.state } })
    }
    if (!LIVE.has(s.state) && prev?.state !== s.state) {
      const { tab_id: _t, handoff_fence: _f, ...rest } = s
      const type = s.state === 'finished' ? 'handoff.finished' : s.state === 'expired' ? 'handoff.expired' : 'handoff.revoked'
      events.publish({ type, tab_id: tabId, profile, data: { ...base, ...rest } })
    }
    seen.set(tabId, { fence: s.handoff_fence, state: s.state, controller: s.controller, generation: s.generation })
    redactSpentUrls(tabId)
  }
  app.handoffs.onChange(observe)

  // Expiry happens by the clock, not by a call: look for it.
  const sweep = setInterval(() => {
    for (const [tabId, prev] of seen) {
      if (!LIVE.has(prev.state)) continue
      try { observe(tabId, app.handoffs.summary(tabId)) } catch { seen.delete(tabId) }
    }
    scan()
  }, SWEEP_MS)
  sweep.unref()
  app.addHook('onClose', async () => { clearInterval(sweep) })
}
