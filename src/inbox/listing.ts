// What the operator inbox shows of a handoff (docs/spec.md section 20): pure shaping of the host's own
// records. Nothing here is a secret: no panel link, no full URL (the origin only), no fence.
import { handoffState, type Handoff } from '../core/handoff.js'
import type { InboxEnded, InboxHandoff } from '../schemas/inbox.js'

/** A handoff the driver minted itself (POST /v1/tabs/:tab_id/handoff) has no fetch reason. */
export const REQUESTED = 'requested'
/** How long an ended handoff stays on the inbox, and how many at most. */
export const ENDED_KEEP_MS = 15 * 60_000
export const ENDED_KEEP_MAX = 20

/** scheme://host[:port] of a page URL, or null for pages without one (about:blank, data:). */
export function originOf (url: string | undefined): string | null {
  if (!url) return null
  try {
    const origin = new URL(url).origin
    return origin === 'null' ? null : origin
  } catch { return null }
}

const iso = (ms: number): string => new Date(ms).toISOString()

export function inboxEntry (h: Handoff, tab: { id: string, profile: string, url: string, title: string | null }, viewers: number, now: number): InboxHandoff {
  return {
    tab_id: tab.id,
    profile: tab.profile,
    reason: h.reason ?? REQUESTED,
    instructions: h.instructions ?? null,
    title: tab.title,
    origin: originOf(tab.url),
    opened_at: iso(h.openedAt),
    expires_at: iso(h.expiresAt),
    viewers,
    state: handoffState(h, now),
    controller: h.control.controller
  }
}

export function endedEntry (h: Handoff, profile: string, title: string | null, url: string | undefined, now: number): InboxEnded {
  return {
    tab_id: h.tabId,
    profile,
    reason: h.reason ?? REQUESTED,
    title,
    origin: originOf(url),
    opened_at: iso(h.openedAt),
    ended_at: iso(h.ended?.at ?? Math.min(now, h.expiresAt)),
    state: handoffState(h, now),
    ...(h.ended ? { finish_reason: h.ended.reason } : {})
  }
}

/** Keeps the ended list short and recent: newest first, one entry per handoff. */
export function keepEnded (list: InboxEnded[], entry: InboxEnded | undefined, now: number): InboxEnded[] {
  const next = entry ? [entry, ...list.filter((e) => !(e.tab_id === entry.tab_id && e.opened_at === entry.opened_at))] : list
  return next.filter((e) => now - Date.parse(e.ended_at) < ENDED_KEEP_MS).slice(0, ENDED_KEEP_MAX)
}

/**
 * Whether a person is working the handoff right now: then "Take it" would pull the page from
 * under them, and the inbox offers a view link instead.
 */
export function inUse (entry: Pick<InboxHandoff, 'controller'>): boolean {
  return entry.controller === 'human'
}
