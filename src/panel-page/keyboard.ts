// Keyboard and paste capture (docs/spec.md section 10 "Keyboard", "Paste"). A hidden text field
// holds the viewer's keyboard focus: what the viewer's own keyboard layout, dead keys and
// IME produce lands in it and is sent as text, so `é`, `ı`, AltGr and composed characters
// arrive as typed. Only editing and navigation keys go as key events. Ctrl/Cmd-A, -Z and -Y
// go to the page; every other browser shortcut (-R, -T, -W, -L…) stays with the browser.
import { modsOf } from './pointer.js'
import { PASTE_CHARS_MAX as MAX_PASTE_CHARS, TEXT_CHARS_MAX } from '../limits.js'
import type { PanelInput } from '../panel/messages.js'
import type { Gate } from './outbox.js'
import { NAMED_KEYS, PAGE_SHORTCUT_KEYS, type PageShortcutKey } from '../vocabulary/keys.js'

/** Characters (code points, as the host's schemas count them) per text message. */
const TEXT_CHUNK = TEXT_CHARS_MAX
// The keys and shortcuts the host relays (its schema checks them against the same tables).
const KEYS = new Set(Object.keys(NAMED_KEYS))
const PAGE_SHORTCUTS = new Set<string>(PAGE_SHORTCUT_KEYS)

export type Notify = (text: string, tone?: 'info' | 'warn') => void

export interface KeyboardDeps {
  field: HTMLTextAreaElement
  /** Sent now, or held until it can be (docs/spec.md section 17): see outbox.ts. */
  send: (msg: PanelInput) => void
  gate: () => Gate
  notify: Notify
  /** Says why input cannot go from this panel (a view link, another viewer in control). */
  refused: () => void
  onFocusChange: (focused: boolean) => void
}

export class KeyboardCapture {
  readonly field: HTMLTextAreaElement
  readonly send: KeyboardDeps['send']
  readonly gate: () => Gate
  readonly notify: Notify
  readonly refused: () => void
  composing: boolean
  readonly held: Set<string>

  constructor ({ field, send, gate, notify, refused, onFocusChange }: KeyboardDeps) {
    this.field = field
    this.send = send
    this.gate = gate
    this.notify = notify
    this.refused = refused
    this.composing = false
    this.held = new Set()
    field.addEventListener('keydown', (e) => this.keydown(e))
    field.addEventListener('keyup', (e) => this.keyup(e))
    field.addEventListener('input', (e) => this.input(e as InputEvent))
    field.addEventListener('compositionstart', () => { this.composing = true })
    field.addEventListener('compositionend', (e) => this.compositionEnd(e))
    field.addEventListener('focus', () => onFocusChange(true))
    field.addEventListener('blur', () => { this.releaseAll(); onFocusChange(false) })
    // A paste anywhere in the panel (not only in the field) is meant for the page.
    document.addEventListener('paste', (e) => this.paste(e))
  }

  focus (): void { this.field.focus({ preventScroll: true }) }
  blur (): void { this.field.blur() }
  get focused (): boolean { return document.activeElement === this.field }

  /** Keeps the IME's candidate window next to where the person clicked. */
  placeAt (x: number, y: number): void {
    this.field.style.left = `${Math.max(0, x)}px`
    this.field.style.top = `${Math.max(0, y)}px`
  }

  keydown (e: KeyboardEvent): void {
    if (e.isComposing || e.keyCode === 229) return
    const ctrlLike = (e.ctrlKey || e.metaKey) && !e.altKey
    if (ctrlLike) {
      const letter = e.key.length === 1 ? e.key.toLowerCase() : ''
      if (PAGE_SHORTCUTS.has(letter)) {
        e.preventDefault()
        if (this.guard()) this.send({ t: 'shortcut', key: letter as PageShortcutKey, shift: e.shiftKey })
      }
      return
    }
    if (!KEYS.has(e.key)) return
    e.preventDefault()
    if (!this.guard()) return
    this.held.add(e.key)
    this.send({ t: 'key', type: 'down', key: e.key, mods: modsOf(e) })
  }

  keyup (e: KeyboardEvent): void {
    if (!this.held.delete(e.key)) return
    e.preventDefault()
    this.send({ t: 'key', type: 'up', key: e.key, mods: modsOf(e) })
  }

  /** Keys still down when the field loses focus would never see their keyup. */
  releaseAll (): void {
    for (const key of this.held) this.send({ t: 'key', type: 'up', key, mods: 0 })
    this.held.clear()
  }

  input (e: InputEvent): void {
    if (e.isComposing || this.composing) return
    const text = this.field.value
    this.field.value = ''
    if (!this.guard()) return
    if (text) { this.sendText(text); return }
    // Phone keyboards report some edits only as input types.
    if (e.inputType === 'deleteContentBackward') this.tap('Backspace')
    else if (e.inputType === 'insertLineBreak') this.tap('Enter')
  }

  compositionEnd (e: CompositionEvent): void {
    this.composing = false
    this.field.value = ''
    if (e.data && this.guard()) this.sendText(e.data)
  }

  paste (e: ClipboardEvent): void {
    // A paste into the panel's own fields (a prompt's answer) stays there.
    if (e.target instanceof Element && e.target.closest('#afhttp-sheet')) return
    e.preventDefault()
    const text = e.clipboardData?.getData('text/plain') ?? ''
    if (!text || !this.guard()) return
    const chars = [...text].length
    if (chars > MAX_PASTE_CHARS) {
      this.notify(`Nothing was pasted: the clipboard holds ${chars} characters and the limit is ${MAX_PASTE_CHARS}.`, 'warn')
      return
    }
    this.send({ t: 'paste', text })
  }

  sendText (text: string): void {
    // Cut on code points, never inside a surrogate pair.
    const chars = [...text]
    for (let i = 0; i < chars.length; i += TEXT_CHUNK) this.send({ t: 'text', text: chars.slice(i, i + TEXT_CHUNK).join('') })
  }

  tap (key: string): void {
    this.send({ t: 'key', type: 'down', key, mods: 0 })
    this.send({ t: 'key', type: 'up', key, mods: 0 })
  }

  /** Input may go now or wait to go (held before control is known); false, said, when it never can. */
  guard (): boolean {
    if (this.gate() !== 'refuse') return true
    this.refused()
    return false
  }
}
