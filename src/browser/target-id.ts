import type { Page } from 'puppeteer-core'

/**
 * The CDP target id of a page. puppeteer keeps it on the Target without a public getter;
 * reading it is synchronous, which the passthrough needs to decide a command before forwarding it.
 */
export function targetIdOf (page: Page): string | undefined {
  return (page.target() as unknown as { _targetId?: string })._targetId
}
