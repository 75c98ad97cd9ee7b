// The browser side of src/core/frame-view.ts: finds the frame that fills a page's view and reads
// its document as observePage reads a page (title, HTML, text), with the status it was served with.
// A fetch judges such a page by it, and so does a handoff's completion check.
import type { Frame, Page } from 'puppeteer-core'
import type { Recognition } from '../core/challenge.js'
import { recognize } from './recognize.js'
import { fillsView, judgedByFrame, topSaysNothing } from '../core/frame-view.js'
import { beforeDeadline } from './deadline.js'

export interface FrameSight {
  url: string
  /** The frame document's HTTP status, or null when the browser does not say. */
  status: number | null
  title: string
  html: string
  text: string
  /**
   * When the frame's document began (its performance.timeOrigin): a new document in the frame has
   * another, even at the same URL, as when a check reloads its own address once it is passed.
   */
  documentStarted: number
  /** The frame's document is still being parsed: what it shows may not be all it will show. */
  loading: boolean
}

/** Names one document of a frame: another document, even at the same address, has another name. */
export function documentOf (sight: Pick<FrameSight, 'url' | 'documentStarted'>): string {
  return `${sight.documentStarted} ${sight.url}`
}

/** The frame that fills the page's view, and where its document starts in the view. */
export interface FillingFrame {
  frame: Frame
  /** The view's point where the frame's own viewport begins: inside its border and padding. */
  origin: { x: number, y: number }
}

/**
 * The frame that fills the page's view (src/core/frame-view.ts), or undefined when none does, it
 * shows no web document, or the page does not say by `deadline`. One finder for the fetch, the
 * completion check and the panel's aim, each step bounded: a page stuck in a script never answers.
 */
export async function findFillingFrame (page: Page, deadline: number): Promise<FillingFrame | undefined> {
  const query = page.$$('iframe, frame')
  const frames = await beforeDeadline(query, deadline, 'the page frames').catch(() => {
    // Handles that come after the deadline are let go when they come.
    query.then(release, () => undefined)
    return []
  })
  try {
    const view = await beforeDeadline(page.evaluate(() => ({ width: innerWidth, height: innerHeight })), deadline, 'the viewport')
    for (const element of frames) {
      const box = await beforeDeadline(element.evaluate((el) => {
        const r = el.getBoundingClientRect()
        const style = getComputedStyle(el)
        return { width: r.width, height: r.height, x: r.x + el.clientLeft + parseFloat(style.paddingLeft), y: r.y + el.clientTop + parseFloat(style.paddingTop) }
      }), deadline, 'a frame box')
      if (!fillsView(box, view)) continue
      const frame = await beforeDeadline(element.contentFrame(), deadline, 'a frame document')
      if (frame === null || frame.detached || !/^https?:/.test(frame.url())) return undefined
      return { frame, origin: { x: box.x, y: box.y } }
    }
    return undefined
  } catch {
    // A frame that went away or hung while it was looked for shows nothing the host can use.
    return undefined
  } finally {
    // Let go without waiting: a page stuck in a script would hold the release up. The frame
    // itself outlives its element's handle.
    release(frames)
  }
}

/** The document of the frame that fills the page's view, or undefined when none does or it cannot be read by `deadline`. */
export async function readFillingFrame (page: Page, deadline: number): Promise<FrameSight | undefined> {
  const found = await findFillingFrame(page, deadline)
  if (found === undefined) return undefined
  const { frame } = found
  try {
    const [title, html, own] = await Promise.all([
      beforeDeadline(frame.title(), deadline, 'the frame title'),
      beforeDeadline(frame.content(), deadline, 'the frame HTML'),
      beforeDeadline(frame.evaluate(() => ({
        text: document.body?.innerText ?? '',
        // Chromium keeps a document's own status on its navigation entry (0 when it does not know).
        status: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming & { responseStatus?: number } | undefined)?.responseStatus ?? 0,
        documentStarted: performance.timeOrigin,
        loading: document.readyState === 'loading'
      })), deadline, 'the frame document')
    ])
    return { url: frame.url(), status: own.status > 0 ? own.status : null, title, html, text: own.text, documentStarted: own.documentStarted, loading: own.loading }
  } catch {
    // A frame that went away or hung while it was read shows nothing the host can judge.
    return undefined
  }
}

/**
 * Which document the frame that fills the page's view shows now (documentOf), or undefined when
 * none does or the page does not say by `deadline`: a lighter look than readFillingFrame, for an
 * ending that only asks whether the frame moved on.
 */
export async function fillingFrameDocument (page: Page, deadline: number): Promise<string | undefined> {
  const found = await findFillingFrame(page, deadline)
  if (found === undefined) return undefined
  try {
    const documentStarted = await beforeDeadline(found.frame.evaluate(() => performance.timeOrigin), deadline, 'the frame document')
    return documentOf({ url: found.frame.url(), documentStarted })
  } catch {
    // A frame that went away or hung shows nothing the ending can compare.
    return undefined
  }
}

function release (handles: Array<{ dispose: () => Promise<void> }>): void {
  for (const handle of handles) handle.dispose().catch(() => undefined)
}

/**
 * The frame's document and what it is, when it stands for the page (src/core/frame-view.ts): the
 * top document (`top`, showing `topText`) says nothing, a frame fills the view, and its document
 * says what it is. Otherwise undefined, and ordinary pages pay nothing: no frame is looked for.
 */
export async function judgeByFillingFrame (page: Page, top: Recognition, topText: string, deadline: number): Promise<{ sight: FrameSight, recognition: Recognition } | undefined> {
  if (!topSaysNothing(top, topText)) return undefined
  const sight = await readFillingFrame(page, deadline)
  if (sight === undefined) return undefined
  const recognition = await recognize({ status: sight.status, url: sight.url, title: sight.title, html: sight.html, text: sight.text })
  return judgedByFrame(top, topText, recognition) ? { sight, recognition } : undefined
}
