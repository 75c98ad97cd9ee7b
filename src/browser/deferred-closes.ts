import type { Page } from 'puppeteer-core'
import { closePage } from './close-page.js'
import type { PoolStats } from './pool-stats.js'

// Used windows waiting to be closed; past this many (or this long) they are closed anyway.
const MAX_PENDING_CLOSES = 4
const MAX_CLOSE_DELAY_MS = 1_000

/**
 * The window pool's used windows on their way out (docs/spec.md section 14). Closing a window
 * occupies Chromium's browser process like opening one, so closes wait for a quiet moment
 * between fetches (the pool calls flush()), but never past MAX_PENDING_CLOSES windows or
 * MAX_CLOSE_DELAY_MS.
 */
export class DeferredCloses {
  readonly #pending: Page[] = []
  #closeBy: NodeJS.Timeout | undefined

  constructor (
    private readonly stats: PoolStats,
    /** A close failed while the browser was still there (the window stays open until the browser goes). */
    private readonly onError: (err: unknown) => void,
    private readonly connected: () => boolean
  ) {}

  get pending (): number { return this.#pending.length }

  /** Queues `page` to close; `now` closes the queue at once (the pool is stopping). */
  add (page: Page, now: boolean): void {
    if (page.isClosed()) return
    this.#pending.push(page)
    if (this.#pending.length >= MAX_PENDING_CLOSES || now) {
      this.flush()
    } else if (!this.#closeBy) {
      this.#closeBy = setTimeout(() => { this.#closeBy = undefined; this.flush() }, MAX_CLOSE_DELAY_MS)
      this.#closeBy.unref()
    }
  }

  /** Closes every queued window now. */
  flush (): void {
    this.cancelTimer()
    for (const page of this.#pending.splice(0)) {
      if (page.isClosed()) continue
      const t0 = performance.now()
      closePage(page).then(() => {
        this.stats.closed++
        this.stats.closeMs += performance.now() - t0
      }, (err: unknown) => {
        if (this.connected()) this.onError(err)
      })
    }
  }

  cancelTimer (): void {
    clearTimeout(this.#closeBy)
    this.#closeBy = undefined
  }
}
