// docs/spec.md section 21: a profile's locale on every page of its browser. navigator.language and
// Accept-Language come from launch flags; Intl's default locale needs Emulation.setLocaleOverride
// on each page target, which lasts as long as the page's own puppeteer session.
import type { Browser, CDPSession, Page, Target } from 'puppeteer-core'

/** A browser that does not answer holds a fetch up no longer than this. */
const READY_WAIT_MS = 2_000
const applied = new WeakMap<Page, Promise<void>>()
const locales = new WeakMap<Browser, string>()

function sessionOf (page: Page): CDPSession {
  return (page as unknown as { _client (): CDPSession })._client()
}

function apply (page: Page, locale: string): Promise<void> {
  let p = applied.get(page)
  if (!p) {
    p = sessionOf(page).send('Emulation.setLocaleOverride', { locale }).then(() => undefined, () => undefined)
    applied.set(page, p)
  }
  return p
}

/** Sets the locale on every page the browser has and will have: the host's, popups, CDP clients'. */
export function applyLocaleToBrowser (browser: Browser, locale: string): void {
  locales.set(browser, locale)
  const onTarget = async (target: Target): Promise<void> => {
    if (target.type() !== 'page') return
    const page = await target.page().catch(() => null)
    if (page && !page.isClosed()) await apply(page, locale)
  }
  browser.on('targetcreated', (t: Target) => { void onTarget(t) })
  for (const t of browser.targets()) void onTarget(t)
}

/** Settles once the page's locale is set (at once when the profile has none); a fetch waits for it. */
export async function localeReady (page: Page): Promise<void> {
  const locale = locales.get(page.browser())
  if (locale === undefined) return
  const p = apply(page, locale)
  let timer: NodeJS.Timeout | undefined
  await Promise.race([p, new Promise<void>((resolve) => { timer = setTimeout(resolve, READY_WAIT_MS) })])
  clearTimeout(timer)
}
