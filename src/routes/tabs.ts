import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { answers, TabCloseResult, TabDescription, TabList, TabParams } from '../schemas/index.js'
import type { TabRecord, TabView } from '../plugins/tabs.js'

/** Tab inventory and the explicit close (docs/spec.md sections 5 and 8). */
export default async function tabRoutes (app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>()
  // A tab's description carries its handoff's summary: one whose ending is still reading its
  // outcome is described once the outcome is read (docs/spec.md section 7 "Summary").
  const described = async (tab: TabRecord): Promise<TabView> => {
    await app.handoffs.settled(tab.id)
    return await app.tabs.describe(tab)
  }
  r.get('/v1/tabs', { schema: { summary: 'Tab inventory', response: answers({ 200: TabList }) } }, async () => {
    const tabs = await Promise.all(app.tabs.list().map(described))
    return { tabs }
  })

  r.get('/v1/tabs/:tab_id', { schema: { summary: 'One tab', params: TabParams, response: answers({ 200: TabDescription }) } }, async (req) => {
    return { tab: await described(app.tabs.get(req.params.tab_id)) }
  })

  r.delete('/v1/tabs/:tab_id', {
    schema: { summary: 'Close a tab through the window-anchor guard; revokes its handoff', params: TabParams, response: answers({ 200: TabCloseResult }) }
  }, async (req) => {
    const tab = app.tabs.get(req.params.tab_id)
    await app.tabs.close(tab.id, 'api')
    return { closed: true, tab_id: tab.id }
  })
}
