import type { FastifyInstance } from 'fastify'

const tabParams = {
  type: 'object',
  properties: { tab_id: { type: 'string', minLength: 1, maxLength: 64 } },
  required: ['tab_id']
} as const

/** Tab inventory and the explicit close (SPEC sections 5 and 8). */
export default async function tabRoutes (app: FastifyInstance): Promise<void> {
  app.get('/v1/tabs', async () => {
    const tabs = await Promise.all(app.tabs.list().map((t) => app.tabs.describe(t)))
    return { tabs }
  })

  app.get<{ Params: { tab_id: string } }>('/v1/tabs/:tab_id', { schema: { params: tabParams } }, async (req) => {
    return { tab: await app.tabs.describe(app.tabs.get(req.params.tab_id)) }
  })

  app.delete<{ Params: { tab_id: string } }>('/v1/tabs/:tab_id', { schema: { params: tabParams } }, async (req) => {
    const tab = app.tabs.get(req.params.tab_id)
    await app.tabs.close(tab.id, 'api')
    return { closed: true, tab_id: tab.id }
  })
}
