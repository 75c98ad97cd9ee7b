// What a handoff changed, for its outcome (docs/spec.md section 7 "Outcome"): the jar and the document
// when it began, compared when it ends. Reading the jar is bounded so an ending is never held up.
import type { Handoff, JarCookie } from '../core/handoff.js'
import { cookiesSetBetween } from '../core/handoff.js'
import { readJar, within } from '../browser/jar-names.js'
import { fillingFrameDocument } from '../fetch/filling-frame.js'
import type { TabRecord } from '../tabs/types.js'

/** How long an ending waits for the cookie jar before it reports the outcome without it. */
export const OUTCOME_JAR_MS = 500
/**
 * How long an ending looks for the frame that fills the view before it reports the outcome as the
 * top document tells it: finding that frame and reading its document are five round trips to the
 * page, which a loaded machine (three test files at once on two cores) took past 500 ms.
 */
export const OUTCOME_FRAME_MS = 2_000

export class OutcomeWatch {
  readonly #startJars = new WeakMap<Handoff, Promise<JarCookie[]>>()
  readonly #startResponses = new WeakMap<Handoff, TabRecord['lastResponse'] | undefined>()

  /** Remembers the tab as it was when `h` began. */
  begin (h: Handoff, tab: TabRecord): void {
    this.#startResponses.set(h, tab.lastResponse)
    const jar = readJar(tab)
    jar.catch(() => undefined)
    this.#startJars.set(h, jar)
  }

  /**
   * Resolves once the jar as `h` began was read (or after OUTCOME_JAR_MS): the mint answers after
   * it, so a cookie set once the driver or person holds the URL counts as the handoff's.
   */
  async began (h: Handoff): Promise<void> {
    await within(this.#startJars.get(h) ?? Promise.resolve([]), OUTCOME_JAR_MS, [])
  }

  /** A main-frame document loaded since `h` began (or the URL changed). */
  navigated (h: Handoff, tab: TabRecord): boolean {
    return tab.page.url() !== h.startUrl || tab.lastResponse !== this.#startResponses.get(h)
  }

  /**
   * The outcome's `navigated` (docs/spec.md section 7): the top document moved, or, on a page whose
   * view is one frame, a completion check saw that frame move on (`frameMoved` looks once more as
   * the handoff ends). The person got somewhere either way. Completion itself reads only what each
   * check sees (src/panel/completion.ts).
   */
  movedOn (h: Handoff, tab: TabRecord): boolean {
    return this.navigated(h, tab) || h.frameMovedOn === true
  }

  /**
   * On a page whose view is one frame, looks once more at that frame when the handoff ends: Done
   * pressed before any completion check looked still tells that the frame moved on from the
   * document the challenge was last seen in (`gateFrame`). Bounded by OUTCOME_FRAME_MS, beside the jar.
   */
  async frameMoved (h: Handoff, tab: TabRecord): Promise<void> {
    if (h.gateFrame === undefined || h.outcome === undefined || h.outcome.navigated) return
    const now = await fillingFrameDocument(tab.page, performance.now() + OUTCOME_FRAME_MS)
    if (now === undefined || now === h.gateFrame) return
    h.frameMovedOn = true
    h.outcome.navigated = true
  }

  /** Fills `h.outcome.cookies_set` with the names the handoff set (or leaves it empty when the jar is slow). */
  async cookiesSet (h: Handoff, tab: TabRecord): Promise<void> {
    const before = this.#startJars.get(h) ?? Promise.resolve([])
    const [a, b] = await within(Promise.all([before, readJar(tab)]), OUTCOME_JAR_MS, [[], []] as JarCookie[][])
    if (h.outcome) h.outcome.cookies_set = cookiesSetBetween(a ?? [], b ?? [])
  }
}
