import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { idempotent } from '../plugins/idempotency.js'
import { answers, FinishBody, HandoffMint, HandoffSummary, MintBody, TabParams } from '../schemas/index.js'

/** The driver's side of a handoff (docs/spec.md section 7): mint, summary, finish. */
export default async function handoffRoutes (app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>()
  r.post('/v1/tabs/:tab_id/handoff', {
    schema: { summary: 'Mint a panel URL for a person (docs/spec.md section 7)', params: TabParams, body: MintBody, response: answers({ 200: HandoffMint }) }
  }, async (req, reply) => idempotent(app, req, reply, async () => {
    const tab = app.tabs.get(req.params.tab_id)
    const minted = await app.handoffs.mint(tab.id, {
      region: req.body?.region,
      readySelector: req.body?.ready_selector,
      instructions: req.body?.instructions,
      mode: req.body?.mode
    })
    return minted
  }))

  r.get('/v1/tabs/:tab_id/handoff', {
    schema: { summary: 'The handoff summary; read it after a lost response instead of replaying', params: TabParams, response: answers({ 200: HandoffSummary }) }
  }, async (req) => {
    // A closed tab's last handoff is still answered (revoked, tab_closed: true); otherwise tab_not_found.
    const closed = app.tabs.find(req.params.tab_id) ? undefined : app.handoffs.closedSummary(req.params.tab_id)
    if (closed) return closed
    app.tabs.get(req.params.tab_id)
    return await app.handoffs.settledSummary(req.params.tab_id)
  })

  r.post('/v1/tabs/:tab_id/handoff/finish', {
    schema: { summary: 'End the hold from the driver side with the current fence', params: TabParams, body: FinishBody, response: answers({ 200: HandoffSummary }) }
  }, async (req) => {
    app.tabs.get(req.params.tab_id)
    app.handoffs.finish(req.params.tab_id, req.body.handoff_fence, req.body.reason ?? 'driver', req.body.human_note?.trim())
    // The answer carries the outcome, cookie names included.
    return await app.handoffs.settledSummary(req.params.tab_id)
  })
}
