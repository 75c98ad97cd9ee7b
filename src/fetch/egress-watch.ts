// docs/spec.md section 21: what the profile's egress forwarder did during one fetch's navigation — a
// refused first URL or redirect is `url_not_allowed`, a proxy that did not carry it is
// `proxy_unreachable`, refused subframes and subresources are a warning on a page that loaded.
import type { HTTPRequest, Page } from 'puppeteer-core'
import { AfhttpError } from '../errors.js'
import type { Egress } from '../browser/egress.js'
import { EGRESS_MARKER, egressVerdict, targetOfUrl } from '../core/egress-verdict.js'
import type { MainResponse } from './navigate.js'
import type { Warning } from '../schemas/index.js'

export class EgressWatch {
  readonly #page: Page
  readonly #egress: Egress
  readonly #mark: number
  readonly #targets = new Set<string>()
  readonly #onRequest = (req: HTTPRequest): void => {
    if (!req.isNavigationRequest() || req.frame() !== this.#page.mainFrame()) return
    const target = targetOfUrl(req.url())
    if (target) this.#targets.add(target)
  }

  constructor (page: Page, egress: Egress, url?: string) {
    this.#page = page
    this.#egress = egress
    this.#mark = egress.mark()
    const first = url === undefined ? undefined : targetOfUrl(url)
    if (first) this.#targets.add(first)
    page.on('request', this.#onRequest)
  }

  /** The coded error a failed navigation (`err`) or a forwarder's own answer (`response`) stands for; undefined when it is not the forwarder's doing. */
  verdict (outcome: { err?: unknown, response?: MainResponse }): AfhttpError | undefined {
    const v = egressVerdict({
      netError: outcome.err === undefined ? undefined : (outcome.err as Error).message,
      status: outcome.response?.status ?? undefined,
      marker: outcome.response?.headers[EGRESS_MARKER],
      navigationTargets: [...this.#targets],
      // A page that loaded is judged by the forwarder's own answer alone: a later subresource
      // refused on the same host (a rebinding name) does not unmake it, it is a warning.
      refusals: this.#egress.refusalsSince(this.#mark).filter((r) => outcome.err !== undefined || r.kind !== 'url_not_allowed'),
      hasUpstream: this.#egress.hasUpstream
    })
    return v && new AfhttpError(v.code, v.message, v.details)
  }

  /** Requests of the page (subframes, subresources) the forwarder refused by AFHTTP_URL_DENY. */
  warnings (): Warning[] {
    const refused = this.#egress.refusalsSince(this.#mark).filter((r) => r.kind === 'url_not_allowed')
    if (refused.length === 0) return []
    const targets = [...new Set(refused.map((r) => r.target))]
    return [{
      code: 'url_not_allowed',
      message: `${refused.length} request(s) of this page went unsent because AFHTTP_URL_DENY refuses their address: ${targets.slice(0, 5).join(', ')}${targets.length > 5 ? ', …' : ''}.`
    }]
  }

  stop (): void {
    this.#page.off('request', this.#onRequest)
  }
}
