// Whether the page holds the keyboard (docs/spec.md section 10 "Focus"): typing into nothing
// must be visible in the panel. Read with one Runtime.evaluate that defines nothing in
// the page; it follows open shadow roots and same-origin frames.
import type { CDPSession } from 'puppeteer-core'
import type { FocusState } from './messages.js'

// The shape is the panel's message type, so the panel page reads it as the host sends it.
export type { FocusState }

export const NO_FOCUS: FocusState = Object.freeze({ editable: false, kind: 'none', label: '' })

const PROBE = `(() => {
  let el = document.activeElement
  for (let i = 0; i < 8 && el; i++) {
    if (el.shadowRoot && el.shadowRoot.activeElement) { el = el.shadowRoot.activeElement; continue }
    if (el.tagName === 'IFRAME' || el.tagName === 'FRAME') {
      let inner = null
      try { inner = el.contentDocument && el.contentDocument.activeElement } catch (e) { inner = null }
      if (!inner) return { editable: null, kind: 'frame', label: '' }
      el = inner
      continue
    }
    break
  }
  if (!el || el === document.body || el === document.documentElement) return { editable: false, kind: 'none', label: '' }
  const tag = el.tagName.toLowerCase()
  const type = (el.getAttribute('type') || 'text').toLowerCase()
  const nonText = ['button','checkbox','radio','submit','reset','range','color','file','image','hidden']
  const textLike = tag === 'textarea' || (tag === 'input' && !nonText.includes(type))
  const editable = (textLike && !el.disabled && !el.readOnly) || el.isContentEditable === true
  const label = el.getAttribute('aria-label') || el.getAttribute('placeholder') || el.getAttribute('name') || el.id || ''
  const kind = el.isContentEditable && !textLike ? 'contenteditable' : tag === 'input' ? 'input[' + type + ']' : tag
  return { editable, kind, label: String(label).slice(0, 48) }
})()`

export async function probeFocus (session: CDPSession): Promise<FocusState> {
  const res = await session.send('Runtime.evaluate', { expression: PROBE, returnByValue: true, silent: true })
  const value = res.result?.value as FocusState | undefined
  if (!value || typeof value !== 'object') return NO_FOCUS
  return { editable: value.editable ?? null, kind: String(value.kind), label: String(value.label ?? '') }
}

export function sameFocus (a: FocusState, b: FocusState): boolean {
  return a.editable === b.editable && a.kind === b.kind && a.label === b.label
}
