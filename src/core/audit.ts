// The audit trail's decisions (docs/spec.md section 19), pure: which lifecycle transition becomes which
// entry, what of a URL may be kept, how a file of entries is read back after a crash, and which
// handoffs a bounded trail keeps. The service (src/audit/trail.ts) does the I/O.
import type { AuditEntry } from '../schemas/audit.js'
import type { Transition } from '../schemas/lifecycle.js'

export type { AuditEntry }

/** scheme://host:port of a URL — never its path, query or fragment; the scheme alone when it has no host. */
export function originOf (url: string): string {
  try {
    const u = new URL(url)
    return u.origin !== 'null' ? u.origin : u.protocol
  } catch {
    return 'invalid:'
  }
}

/** The entry a transition leaves in the trail, or undefined for one the trail does not keep. */
export function auditEntryOf (t: Transition): AuditEntry | undefined {
  if (!t.type.startsWith('handoff.') || t.tab_id === undefined || t.profile === undefined) return undefined
  const d = t.data as Record<string, unknown> & { handoff_fence: string }
  const base = { at: new Date(t.at).toISOString(), handoff_fence: d.handoff_fence, tab_id: t.tab_id, profile: t.profile }
  const tr = t as Transition<never> & { type: string }
  switch (tr.type) {
    case 'handoff.opened':
    case 'handoff.url_reissued': {
      const m = (t as Transition<'handoff.opened'>).data
      return { ...base, kind: 'minted', mode: m.mode, reason: m.reason, ...(t.type === 'handoff.url_reissued' ? { reissued: true } : {}), ...(m.instructions !== undefined ? { instructions: m.instructions } : {}), expires_at: m.expires_at }
    }
    case 'handoff.exchanged': {
      const x = (t as Transition<'handoff.exchanged'>).data
      return { ...base, kind: 'exchanged', viewer: { remote_address: x.remote_address, user_agent: x.user_agent, mode: x.mode } }
    }
    case 'handoff.viewer_left':
      return { ...base, kind: 'viewer_left', viewer_id: (t as Transition<'handoff.viewer_left'>).data.viewer_id }
    case 'handoff.control': {
      const c = (t as Transition<'handoff.control'>).data
      return { ...base, kind: 'control', to: c.controller, generation: c.generation, ...(c.viewer_id !== undefined ? { viewer_id: c.viewer_id } : {}) }
    }
    case 'handoff.navigated': {
      const n = (t as Transition<'handoff.navigated'>).data
      return { ...base, kind: 'navigated', origin: n.origin, ...(n.popup_tab_id !== undefined ? { popup_tab_id: n.popup_tab_id } : {}) }
    }
    case 'handoff.popup_opened': {
      const p = (t as Transition<'handoff.popup_opened'>).data
      return { ...base, kind: 'popup_opened', origin: p.origin, popup_tab_id: p.popup_tab_id }
    }
    case 'handoff.dialog_answered':
      return { ...base, kind: 'dialog_answered', dialog_type: (t as Transition<'handoff.dialog_answered'>).data.dialog_type }
    case 'handoff.file_uploaded': {
      const f = (t as Transition<'handoff.file_uploaded'>).data
      return { ...base, kind: 'file_uploaded', count: f.count, bytes: f.bytes }
    }
    case 'handoff.permission_granted': {
      const g = (t as Transition<'handoff.permission_granted'>).data
      return { ...base, kind: 'permission_granted', permission: g.permission, origin: g.origin }
    }
    case 'handoff.finished':
    case 'handoff.revoked': {
      const e = (t as Transition<'handoff.finished'>).data
      // The outcome keeps where the person ended up as an origin, and cookie names; the decline
      // note is the person's own text and stays in the handoff summary, not here.
      const outcome = e.outcome ? { outcome: { navigated: e.outcome.navigated, final_origin: originOf(e.outcome.final_url), cookies_set: [...e.outcome.cookies_set] } } : {}
      return { ...base, kind: t.type === 'handoff.finished' ? 'finished' : 'revoked', ...(e.finish_reason !== undefined ? { reason: e.finish_reason } : {}), by: e.by, ...outcome }
    }
    case 'handoff.expired':
      return { ...base, kind: 'expired', by: 'host' }
    default:
      return undefined
  }
}

/** Entries of a JSONL trail, oldest first; a torn or foreign line (a crash mid-write) is skipped, never fatal. */
export function parseAuditLines (text: string): { entries: AuditEntry[], skipped: number } {
  const entries: AuditEntry[] = []
  let skipped = 0
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    try {
      const e = JSON.parse(line) as AuditEntry
      if (e && typeof e === 'object' && typeof e.handoff_fence === 'string' && typeof e.kind === 'string' && typeof e.at === 'string') entries.push(e)
      else skipped += 1
    } catch {
      skipped += 1
    }
  }
  return { entries, skipped }
}

/** How many handoffs a list of entries spans. */
export function handoffCount (entries: readonly AuditEntry[]): number {
  return new Set(entries.map((e) => e.handoff_fence)).size
}

/** The entries of the newest `keep` handoffs (by their first entry), order kept. */
export function keepLastHandoffs (entries: readonly AuditEntry[], keep: number): AuditEntry[] {
  const firstSeen: string[] = []
  const seen = new Set<string>()
  for (const e of entries) if (!seen.has(e.handoff_fence)) { seen.add(e.handoff_fence); firstSeen.push(e.handoff_fence) }
  if (firstSeen.length <= keep) return [...entries]
  const kept = new Set(firstSeen.slice(firstSeen.length - keep))
  return entries.filter((e) => kept.has(e.handoff_fence))
}

/** One page of a profile's trail: entries at or after `since`, oldest first, at most `limit`. */
export function auditPage (entries: readonly AuditEntry[], since: number | undefined, limit: number): { entries: AuditEntry[], more: boolean } {
  const after = since === undefined ? entries : entries.filter((e) => Date.parse(e.at) >= since)
  return { entries: after.slice(0, limit), more: after.length > limit }
}
