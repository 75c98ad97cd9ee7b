import type { FastifyInstance } from 'fastify'
import type { Page } from 'puppeteer-core'
import { AfhttpError } from '../errors.js'
import type { TabRecord } from '../plugins/tabs.js'

/**
 * The CDP target id of a tab's page. puppeteer keeps it on the Target without a public getter;
 * reading it is synchronous, which the passthrough needs to decide a command before forwarding it.
 */
export function targetIdOf (page: Page): string | undefined {
  return (page.target() as unknown as { _targetId?: string })._targetId
}

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
