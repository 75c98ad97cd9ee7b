import type { Page } from 'puppeteer-core'
import { beforeDeadline } from './deadline.js'
import type { Artifacts, Capture as CaptureName, Warning } from '../schemas/index.js'

// The public shapes live once, in src/schemas/.
export type { Artifacts, CaptureName }

export interface CaptureOutcome {
  artifacts: Artifacts
  failed: CaptureName[]
  warnings: Warning[]
}

/** What the page shows now: used for recognition whether or not html/text were requested. */
export interface PageSnapshot {
  title: string
  html: string
  text: string
  /** Why the page could not be observed (it hung or went away); then html/text are unknown, not empty. */
  failed?: string
}

// A page that moves on while it is read (a redirect that starts later than the fetch's follow of
// client redirects could see, docs/decisions.md "Client redirects are followed") destroys the
// context the reads ran in: read the document it moved to once it has loaded, a bounded number of times.
const NAVIGATED_AWAY = /Execution context was destroyed|Cannot find context with specified id/
const READS_AFTER_NAVIGATION = 2

export async function observePage (page: Page, deadline: number): Promise<PageSnapshot> {
  for (let reads = 0; ; reads++) {
    try {
      const [title, html, text] = await Promise.all([
        beforeDeadline(page.title(), deadline, 'the page title'),
        beforeDeadline(page.content(), deadline, 'the page HTML'),
        beforeDeadline(page.evaluate(() => document.body?.innerText ?? ''), deadline, 'the page text')
      ])
      return { title, html, text }
    } catch (err) {
      const failed = (err as Error).message.split('\n')[0]
      const unread = { title: '', html: '', text: '', failed }
      if (reads >= READS_AFTER_NAVIGATION || !NAVIGATED_AWAY.test(failed)) return unread
      // puppeteer's wait runs again in each new document until one has loaded.
      const loaded = await page.waitForFunction('document.readyState === "complete"', { polling: 50, timeout: Math.max(1, deadline - performance.now()) })
        .then(() => true, () => false)
      if (!loaded) return unread
    }
  }
}

/** Every requested capture failed for one reason (e.g. the page is blocked by a dialog); nothing is asked of the page. */
export function failedCaptures (wanted: CaptureName[], why: string): CaptureOutcome {
  return {
    artifacts: {},
    failed: [...wanted],
    warnings: wanted.map((name) => ({ code: 'capture_failed', message: `The ${name} capture failed: ${why}.` }))
  }
}

/** Takes the requested captures; a failed or empty one is a warning and counts against reclaiming. */
export async function capture (page: Page, wanted: CaptureName[], seen: PageSnapshot, deadline: number): Promise<CaptureOutcome> {
  const out: CaptureOutcome = { artifacts: {}, failed: [], warnings: [] }
  const fail = (name: CaptureName, why: string): void => {
    out.failed.push(name)
    out.warnings.push({ code: why === 'empty' ? 'capture_empty' : 'capture_failed', message: why === 'empty' ? `The ${name} capture came back empty.` : `The ${name} capture failed: ${why}` })
  }
  for (const name of wanted) {
    if (seen.failed && name !== 'screenshot') {
      fail(name, seen.failed)
    } else if (name === 'html') {
      out.artifacts.html = seen.html
      if (!seen.html.trim()) fail('html', 'empty')
    } else if (name === 'text') {
      out.artifacts.text = seen.text
      if (!seen.text.trim()) fail('text', 'empty')
    } else {
      try {
        const base64 = await beforeDeadline(page.screenshot({ type: 'jpeg', quality: 70, encoding: 'base64' }), deadline, 'the screenshot') as string
        out.artifacts.screenshot = { mime: 'image/jpeg', base64 }
        if (!base64) fail('screenshot', 'empty')
      } catch (err) {
        fail('screenshot', (err as Error).message.split('\n')[0])
      }
    }
  }
  return out
}
