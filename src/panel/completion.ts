// Completion detection (docs/spec.md section 7): after a pointer release or Enter the page is
// looked at — never judged by a model — and the handoff finishes by itself when a
// challenge seen during it is gone and the page navigated, or when the handoff's
// `selector-stable` target is ready. Each watch spends one of the handoff's finite
// checks; more releases during a watch extend it instead of spending more. A page too busy
// to answer, or a target whose text is still settling, extends it too: on a loaded machine or
// a heavy page the answer comes late, not never. How long is src/core/completion-window.ts.
import type { Page } from 'puppeteer-core'
import type { FastifyBaseLogger } from 'fastify'
import type { Recognition } from '../core/challenge.js'
import { recognize } from '../fetch/recognize.js'
import { completionReached, isHeld, type CompletionObservation, type Handoff } from '../core/handoff.js'
import { observePage } from '../fetch/capture.js'
import { documentOf, judgeByFillingFrame } from '../fetch/filling-frame.js'
import { beforeDeadline } from '../fetch/deadline.js'
import { sampleTarget, selectorStableTracker } from '../fetch/readiness.js'
import type { StabilityTracker } from '../core/wait-strategy.js'
import type { CompletionHandoffs } from '../handoffs/service.js'
import type { TabRecord } from '../tabs/types.js'
import { afterLateLook, afterRelease, windowFromRelease, type CompletionWindow } from '../core/completion-window.js'
const FIRST_LOOK_MS = 250
const LOOK_EVERY_MS = 500
/** A page too busy to be looked at within this is looked at again later. */
const OBSERVE_BUDGET_MS = 2_000

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref())

export interface CompletionDeps {
  /** Only what a check reads of the tab: its id, its page and the response it was fetched with. */
  tab: Pick<TabRecord, 'id' | 'page' | 'lastResponse'>
  handoffs: CompletionHandoffs
  now: () => number
  log: FastifyBaseLogger
}

export class CompletionMonitor {
  readonly #deps: CompletionDeps
  #watching = false
  #window: CompletionWindow = windowFromRelease(0)
  #disposed = false

  constructor (deps: CompletionDeps) {
    this.#deps = deps
  }

  /** A completion moment: start a watch (spending a check) or extend the running one. */
  moment (): void {
    const now = performance.now()
    if (this.#watching) {
      this.#window = afterRelease(this.#window, now)
      return
    }
    const { handoffs, tab } = this.#deps
    if (!handoffs.takeCheck(tab.id)) return
    handoffs.touched(tab.id)
    this.#watching = true
    this.#window = windowFromRelease(now)
    this.#watch().catch((err: unknown) => this.#deps.log.warn({ err, tab_id: tab.id }, 'completion check failed'))
      .finally(() => { this.#watching = false })
  }

  dispose (): void { this.#disposed = true }

  async #watch (): Promise<void> {
    const { handoffs, tab } = this.#deps
    let agreeing: string | undefined
    // The target's samples span the whole watch, so a slow page still shows it settled.
    const target = selectorStableTracker()
    await sleep(FIRST_LOOK_MS)
    while (!this.#disposed) {
      const h = handoffs.current(tab.id)
      if (!h || !isHeld(h, this.#deps.now())) return
      const obs = await this.#observe(h, target)
      // Two looks in a row at the same document: a page caught between documents proves nothing.
      if (obs && completionReached(h, obs)) {
        if (agreeing === obs.document) {
          handoffs.autoFinish(tab.id)
          return
        }
        agreeing = obs.document
      } else {
        agreeing = undefined
      }
      // No answer yet (a busy page, a document loading) or a target still settling: keep looking.
      if (!obs || obs.targetSettling) this.#window = afterLateLook(this.#window, performance.now())
      if (performance.now() >= this.#window.until && agreeing === undefined) break
      await sleep(agreeing || obs?.targetSettling ? FIRST_LOOK_MS : LOOK_EVERY_MS)
    }
    handoffs.touched(tab.id)
  }

  /** What the page shows now, or undefined while it is between documents or too busy to answer. */
  async #observe (h: Handoff, target: StabilityTracker): Promise<(CompletionObservation & { targetSettling: boolean, document: string }) | undefined> {
    const { tab, handoffs } = this.#deps
    const page: Page = tab.page
    const seen = await this.#look(performance.now() + OBSERVE_BUDGET_MS)
    if (seen === undefined) return undefined
    const { recognition, frameDocument } = seen
    const challengePresent = recognition.page_kind === 'challenge'
    // A widget seen in the frame is aimed at there: the frame document it was seen in goes with it.
    if (challengePresent) handoffs.noteChallenge(tab.id, recognition.widget_selector, frameDocument)
    // Moved on from the frame document the challenge was last seen in (by this check, or by the fetch that began the handoff).
    const frameMoved = frameDocument !== undefined && h.gateFrame !== undefined && frameDocument !== h.gateFrame
    // The outcome keeps it; completion reads only what this look saw, so a frame that moved on
    // once and then showed another challenge is not taken for a page that got through.
    if (frameMoved) handoffs.noteFrameMovedOn(tab.id)
    let targetReady = false
    let targetSettling = false
    if (h.readySelector !== undefined) {
      const sample = await sampleTarget(page, h.readySelector, performance.now() + OBSERVE_BUDGET_MS)
      const state = target.observe({ ...sample, at: performance.now() })
      targetReady = state.stable
      targetSettling = state.targetReady && !state.stable
    }
    return { url: page.url(), document: frameDocument ?? page.url(), navigated: handoffs.navigatedSince(tab.id) || frameMoved, challengePresent, targetReady, targetSettling }
  }

  /**
   * The page's recognition, judged by the frame that fills its view when the top document shows
   * nothing (then `frameDocument` names that frame's document).
   */
  async #look (deadline: number): Promise<{ recognition: Recognition, frameDocument?: string } | undefined> {
    const { tab } = this.#deps
    const page: Page = tab.page
    const ready = await beforeDeadline(page.evaluate(() => document.readyState), deadline, 'the document state').catch(() => 'loading')
    if (ready === 'loading') return undefined
    const seen = await observePage(page, deadline)
    if (seen.failed || !seen.html) return undefined
    const main = tab.lastResponse
    const top = await recognize({ status: main?.status ?? null, url: page.url(), title: seen.title, html: seen.html, text: seen.text, headers: main?.headers })
    const framed = await judgeByFillingFrame(page, top, seen.text, deadline)
    if (framed === undefined) return { recognition: top }
    // A frame document still being parsed is looked at again, as the top one is.
    if (framed.sight.loading) return undefined
    return { recognition: framed.recognition, frameDocument: documentOf(framed.sight) }
  }
}
