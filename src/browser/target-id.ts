import type { Page, Target } from 'puppeteer-core'

/**
 * The CDP target id of a page. puppeteer keeps it on the Target without a public getter;
 * reading it is synchronous, which the passthrough needs to decide a command before forwarding it.
 */
export function targetIdOf (page: Page): string | undefined {
  return idOfTarget(page.target())
}

export function idOfTarget (target: Target): string | undefined {
  return (target as unknown as { _targetId?: string })._targetId
}

/**
 * The id of a page's main frame, which puppeteer knows (it is the target's id) but keeps without a
 * public getter: reading it costs no round trip on a fetch's path.
 */
export function mainFrameIdOf (page: Page): string | undefined {
  const id = (page.mainFrame() as unknown as { _id?: unknown })._id
  return typeof id === 'string' && id !== '' ? id : undefined
}
