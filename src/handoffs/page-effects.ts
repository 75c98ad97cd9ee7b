// What a person does to the pages of a handoff that the audit trail keeps (docs/spec.md section 19):
// each main-frame document a page loads, as its origin only — never the path or the query.
import type { HTTPResponse, Page } from 'puppeteer-core'
import { originOf } from '../core/audit.js'

/** Calls `onOrigin` for each document the page's main frame loads (redirect hops excluded); returns the stop. */
export function watchNavigations (page: Page, onOrigin: (origin: string) => void): () => void {
  const onResponse = (res: HTTPResponse): void => {
    try {
      const req = res.request()
      const status = res.status()
      if (req.isNavigationRequest() && res.frame() === page.mainFrame() && (status < 300 || status >= 400)) onOrigin(originOf(res.url()))
    } catch { /* a response of a frame being torn down */ }
  }
  page.on('response', onResponse)
  return () => { page.off('response', onResponse) }
}
