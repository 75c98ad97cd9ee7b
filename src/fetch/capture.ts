import type { Page } from 'puppeteer-core'

export type CaptureName = 'html' | 'text' | 'screenshot'

export interface Artifacts {
  html?: string
  text?: string
  screenshot?: { mime: 'image/jpeg', base64: string }
}

export interface CaptureOutcome {
  artifacts: Artifacts
  failed: CaptureName[]
  warnings: Array<{ code: string, message: string }>
}

/** What the page shows now: used for recognition whether or not html/text were requested. */
export interface PageSnapshot {
  title: string
  html: string
  text: string
}

export async function observePage (page: Page): Promise<PageSnapshot> {
  const [title, html, text] = await Promise.all([
    page.title().catch(() => ''),
    page.content().catch(() => ''),
    page.evaluate(() => document.body?.innerText ?? '').catch(() => '')
  ])
  return { title, html, text }
}

/** Takes the requested captures; a failed or empty one is a warning and counts against reclaiming. */
export async function capture (page: Page, wanted: CaptureName[], seen: PageSnapshot): Promise<CaptureOutcome> {
  const out: CaptureOutcome = { artifacts: {}, failed: [], warnings: [] }
  const fail = (name: CaptureName, why: string): void => {
    out.failed.push(name)
    out.warnings.push({ code: why === 'empty' ? 'capture_empty' : 'capture_failed', message: why === 'empty' ? `The ${name} capture came back empty.` : `The ${name} capture failed: ${why}` })
  }
  for (const name of wanted) {
    if (name === 'html') {
      out.artifacts.html = seen.html
      if (!seen.html.trim()) fail('html', 'empty')
    } else if (name === 'text') {
      out.artifacts.text = seen.text
      if (!seen.text.trim()) fail('text', 'empty')
    } else {
      try {
        const base64 = await page.screenshot({ type: 'jpeg', quality: 70, encoding: 'base64' }) as string
        out.artifacts.screenshot = { mime: 'image/jpeg', base64 }
        if (!base64) fail('screenshot', 'empty')
      } catch (err) {
        fail('screenshot', (err as Error).message.split('\n')[0])
      }
    }
  }
  return out
}
