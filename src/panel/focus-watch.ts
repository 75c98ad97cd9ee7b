// Whether the shown page holds the keyboard (docs/spec.md section 10 "Focus"), asked of the page after
// the person's input and on a slow poll, and told to every viewer only when it changed.
import type { CDPSession } from 'puppeteer-core'
import { NO_FOCUS, probeFocus, sameFocus, type FocusState } from './focus.js'

/** After input, the page has had time to move focus (a click on a field, Tab). */
const FOCUS_AFTER_INPUT_MS = 60

export interface FocusWatchDeps {
  /** The session and URL of the page the viewers see now (the tab or one of its popups). */
  shown: () => { session: CDPSession, url: string }
  /** Tells every viewer; called only with a change. */
  broadcast: (focus: FocusState, url: string) => void
  closed: () => boolean
}

export class FocusWatch {
  #focus: FocusState = NO_FOCUS
  #url = ''
  #probing = false
  #soon: NodeJS.Timeout | undefined
  constructor (private readonly deps: FocusWatchDeps) {}

  /** What a viewer joining now is told. */
  get current (): FocusState { return this.#focus }

  /** Another page is shown: what was known is forgotten, and the new page asked at once. */
  reset (): void {
    this.#focus = NO_FOCUS
    this.#url = ''
    void this.refresh()
  }

  /** The person's input went out: ask the page shortly after, once for a burst of input. */
  afterInput (): void {
    if (this.#soon) return
    this.#soon = setTimeout(() => { this.#soon = undefined; void this.refresh() }, FOCUS_AFTER_INPUT_MS)
    this.#soon.unref()
  }

  stop (): void {
    clearTimeout(this.#soon)
    this.#soon = undefined
  }

  async refresh (): Promise<void> {
    // A busy page answers late; one question at a time.
    if (this.#probing) return
    this.#probing = true
    const { session } = this.deps.shown()
    const focus = await probeFocus(session).catch(() => undefined).finally(() => { this.#probing = false })
    const { url } = this.deps.shown()
    if (!focus || this.deps.closed() || (sameFocus(focus, this.#focus) && url === this.#url)) return
    this.#focus = focus
    this.#url = url
    this.deps.broadcast(focus, url)
  }
}
