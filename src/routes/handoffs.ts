import type { FastifyInstance } from 'fastify'
import { idempotent } from '../plugins/idempotency.js'
import { HANDOFF_MODES, INSTRUCTIONS_MAX_CHARS, type HandoffMode } from '../core/handoff.js'

interface TabParams { tab_id: string }

const tabParams = {
  type: 'object',
  properties: { tab_id: { type: 'string', minLength: 1, maxLength: 64 } },
  required: ['tab_id']
} as const

const mintBody = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    region: { type: 'string', minLength: 1, maxLength: 1024 },
    ready_selector: { type: 'string', minLength: 1, maxLength: 1024 },
    instructions: { type: 'string', maxLength: INSTRUCTIONS_MAX_CHARS },
    mode: { type: 'string', enum: HANDOFF_MODES }
  }
} as const

interface MintBody { region?: string, ready_selector?: string, instructions?: string, mode?: HandoffMode }

const finishBody = {
  type: 'object',
  additionalProperties: false,
  required: ['handoff_fence'],
  properties: { handoff_fence: { type: 'string', minLength: 1, maxLength: 128 } }
} as const

/** The driver's side of a handoff (SPEC section 7): mint, summary, finish. */
export default async function handoffRoutes (app: FastifyInstance): Promise<void> {
  app.post<{ Params: TabParams, Body: MintBody | null }>(
    '/v1/tabs/:tab_id/handoff',
    { schema: { params: tabParams, body: mintBody } },
    idempotent(app, async (req) => {
      const tab = app.tabs.get(req.params.tab_id)
      const minted = await app.handoffs.mint(tab.id, {
        region: req.body?.region,
        readySelector: req.body?.ready_selector,
        instructions: req.body?.instructions,
        mode: req.body?.mode
      })
      return minted
    })
  )

  app.get<{ Params: TabParams }>('/v1/tabs/:tab_id/handoff', { schema: { params: tabParams } }, async (req) => {
    // A closed tab's last handoff is still answered (revoked, tab_closed: true); otherwise tab_not_found.
    const closed = app.tabs.find(req.params.tab_id) ? undefined : app.handoffs.closedSummary(req.params.tab_id)
    if (closed) return closed
    app.tabs.get(req.params.tab_id)
    return app.handoffs.summary(req.params.tab_id)
  })

  app.post<{ Params: TabParams, Body: { handoff_fence: string } }>(
    '/v1/tabs/:tab_id/handoff/finish',
    { schema: { params: tabParams, body: finishBody } },
    async (req) => {
      app.tabs.get(req.params.tab_id)
      app.handoffs.finish(req.params.tab_id, req.body.handoff_fence, 'driver')
      // The answer carries the outcome, cookie names included.
      await app.handoffs.settled(req.params.tab_id)
      return app.handoffs.summary(req.params.tab_id)
    }
  )
}
