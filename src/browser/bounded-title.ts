import type { Page } from 'puppeteer-core'

/** A page blocked by a dialog or a hung renderer never answers; the inventory must. */
export const TITLE_TIMEOUT_MS = 1_000

/** The page's title, or null when it cannot be read within TITLE_TIMEOUT_MS. */
export async function boundedTitle (page: Page, ms = TITLE_TIMEOUT_MS): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<null>((resolve) => { timer = setTimeout(() => resolve(null), ms) })
  try {
    return await Promise.race([page.title().catch(() => null), late])
  } finally {
    clearTimeout(timer)
  }
}
