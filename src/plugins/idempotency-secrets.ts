import type { FastifyInstance } from 'fastify'
import type { Warning } from '../schemas/common.js'

// Panel secrets are stored only hashed (docs/spec.md section 7), so a remembered answer keeps none:
// a later repeat gets a fresh panel URL for the same handoff (same fence, same expiry), which
// also revokes the URL of the answer that was lost.

interface Action { kind?: string, handoff_fence?: string, takeover_url_secret?: string }
interface Answer { tab_id?: string, handoff_fence?: string, takeover_url_secret?: string, surface?: { tab_id?: string }, actions?: Action[], warnings?: Warning[] }

/** Where an answer carries panel URLs: the mint answer itself, or a fetch answer's actions. */
function holders (body: Answer): Array<{ holder: Action, tabId: string }> {
  if (typeof body.handoff_fence === 'string' && body.surface?.tab_id) return [{ holder: body, tabId: body.surface.tab_id }]
  if (Array.isArray(body.actions) && body.tab_id) return body.actions.filter((a) => typeof a.handoff_fence === 'string').map((holder) => ({ holder, tabId: body.tab_id! }))
  return []
}

/** A copy of the answer without panel secrets, to remember. */
export function withoutPanelSecrets (body: unknown): unknown {
  if (!body || typeof body !== 'object') return body
  const copy = structuredClone(body) as Answer
  for (const { holder } of holders(copy)) delete holder.takeover_url_secret
  return copy
}

/** Gives a remembered answer fresh panel URLs where its handoff is still open. */
export async function reissuePanelUrls (app: FastifyInstance, body: unknown): Promise<unknown> {
  if (!body || typeof body !== 'object') return body
  const answer = structuredClone(body) as Answer
  for (const { holder, tabId } of holders(answer)) {
    const current = app.handoffs.current(tabId)
    const open = current?.fence === holder.handoff_fence && app.handoffs.isHeld(tabId)
    let why = 'its handoff is no longer open; read GET /v1/tabs/:tab_id/handoff'
    if (open) {
      try {
        holder.takeover_url_secret = (await app.handoffs.mint(tabId)).takeover_url_secret
        continue
      } catch (err) { why = (err as Error).message }
    }
    answer.warnings = [...(answer.warnings ?? []), { code: 'takeover_url_unavailable', message: `A repeated request gets no panel URL: ${why}` }]
  }
  return answer
}
