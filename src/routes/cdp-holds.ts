import type { FastifyInstance } from 'fastify'
import { AfhttpError } from '../errors.js'
import type { TabRecord } from '../plugins/tabs.js'

import { targetIdOf } from '../browser/target-id.js'
export { targetIdOf }

export function tabOfTarget (app: FastifyInstance, targetId: string): TabRecord | undefined {
  return app.tabs.list().find((tab) => targetIdOf(tab.page) === targetId)
}

/** Why an agent may not act on this target's page now (a hold), or undefined. */
export function holdOnTarget (app: FastifyInstance, targetId: string | undefined): AfhttpError | undefined {
  if (targetId === undefined) return undefined
  const tab = tabOfTarget(app, targetId)
  if (!tab) return undefined
  try {
    app.tabs.assertAgentMayAct(tab)
    return undefined
  } catch (err) {
    if (err instanceof AfhttpError && err.code === 'tab_under_human_control') return err
    throw err
  }
}
