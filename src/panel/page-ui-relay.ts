// The panel side of what the browser draws outside the page (docs/spec.md section 16): it tells
// every viewer when a dialog, a select list or a file chooser is open, and turns the
// person's answer into what the browser itself would do — Page.handleJavaScriptDialog for
// a dialog, arrow keys and Enter in the open select list (so the page sees the browser's
// own trusted input/change), DOM.setFileInputFiles for chosen files. Never answers for anyone.
import { setTimeout as sleep } from 'node:timers/promises'
import type { CDPSession } from 'puppeteer-core'
import type { FastifyBaseLogger } from 'fastify'
import { beforeDeadline } from '../fetch/deadline.js'
import { dialogAnswer, sameDialog, selectKeys, SELECT_OPTIONS_MAX, UPLOAD_LIMITS, type OpenDialog, type OpenSelect } from '../core/page-ui.js'
import type { PageWatch, OpenChooser } from '../page-ui/page-watch.js'
import type { EarlyDialog } from '../page-ui/early-dialogs.js'
import type { PromptedPermission } from '../vocabulary/profile.js'
import { PICKER_KINDS, type ChooserInfo, type InputMessage, type PageUiMessage, type PickerInfo, type UiAnswer } from './messages.js'
import { typedPickerKeys, type PickerLayout } from './picker-keys.js'

// A busy machine may take a while to show the list after the press: look for up to ~1.5 s.
const PROBE_ATTEMPTS = 15
const PROBE_RETRY_MS = 100
/**
 * A busy browser can open its own colour popup after the person's answer was set: look again
 * for a while and close it, or it stays open (`:open`) behind the panel. On a loaded machine
 * the popup has opened more than a second after the answer, so the looks span about 8 s.
 */
const LATE_POPUP_LOOKS_MS = [100, 250, 500, 1000, 1500, 2000, 2500]
/**
 * How long the person's next input may wait for an answered list to close, and how often to look.
 * A loaded machine has kept the list open for over 2 s after Enter; a press let go into it then
 * picks whatever option lies under it, so the wait is long and ends with an Escape (below).
 */
const LIST_CLOSE_WAIT_MS = 6_000
const LIST_CLOSE_POLL_MS = 40
/** How long to look again after the Escape that closes a list still open at the end of the wait. */
const LIST_ESCAPE_WAIT_MS = 1_000

export interface UiRelayDeps {
  watch: PageWatch
  session: CDPSession
  /** Sends a named key through the panel's input relay (after the person's earlier input, before input held for the answer). */
  key: (key: string) => void
  /** Resolves once the page has taken every key and press sent so far (src/panel/input-relay.ts delivered). */
  delivered: () => Promise<void>
  /** Changes when control moves on and the input held for an answer is dropped (InputRelay.epoch). */
  inputEpoch: () => number
  /** The person's later input waits for `settled` (src/panel/input-relay.ts holdUntil). */
  holdInputUntil: (settled: Promise<unknown>) => void
  /** Types one character as a key press with text (date fields ignore inserted text). */
  char: (ch: string) => void
  broadcast: (msg: PageUiMessage) => void
  log: FastifyBaseLogger
  /** A dialog of a window this page opened that has no page yet (src/page-ui/early-dialogs.ts). */
  early?: EarlyDialogSource
  /** Allows an origin a permission for the person (the browser's own prompt, docs/spec.md section 16). */
  grant?: (origin: string, permission: PromptedPermission) => Promise<void>
}

export interface EarlyDialogSource {
  current: () => EarlyDialog | undefined
  on: (listener: () => void) => void
  off: (listener: () => void) => void
}


/**
 * A colour has no trusted way in: Chromium's colour popup takes no typed value. The value is set
 * on the focused colour input and `input` + `change` are dispatched by script — the one answer
 * the page sees with isTrusted false (docs/decisions.md). Nothing fires when the colour is the same.
 */
const SET_COLOUR = (value: string): string => `(() => {
  let el = document.activeElement
  for (let i = 0; i < 8 && el && el.shadowRoot && el.shadowRoot.activeElement; i++) el = el.shadowRoot.activeElement
  if (!el || el.tagName !== 'INPUT' || el.type !== 'color' || el.disabled || el.readOnly) return false
  if (el.value === ${JSON.stringify(value)}) return true
  el.value = ${JSON.stringify(value)}
  el.dispatchEvent(new Event('input', { bubbles: true, composed: true }))
  el.dispatchEvent(new Event('change', { bubbles: true }))
  return true
})()`

/** What a press or an opening key opened: a select's list, a date/time field, or nothing. */
const PRESS_PROBE = (where: string): string => `(() => {
  let el = ${where}
  for (let i = 0; i < 8 && el && el.shadowRoot; i++) {
    const inner = ${where.startsWith('document.activeElement') ? 'el.shadowRoot.activeElement' : 'el.shadowRoot.elementFromPoint(X, Y)'}
    if (!inner || inner === el) break
    el = inner
  }
  if (!el || !el.closest) return null
  const isOpen = (node) => { try { return node.matches(':open') } catch (e) { return true } }
  const label = (node) => String(node.getAttribute('aria-label') || node.name || node.id || '').slice(0, 80)
  // A press on a field's label works the field, as in the browser.
  const labelled = el.closest('label')
  const input = el.closest('input') || (labelled && labelled.control && labelled.control.tagName === 'INPUT' ? labelled.control : null)
  if (input && ${JSON.stringify(PICKER_KINDS)}.includes(input.type) && !input.disabled && !input.readOnly) {
    const lang = navigator.language
    const order = new Intl.DateTimeFormat(lang, { year: 'numeric', month: '2-digit', day: '2-digit' })
      .formatToParts(new Date(2000, 10, 22)).map((p) => p.type).filter((t) => t === 'year' || t === 'month' || t === 'day')
    const hour12 = new Intl.DateTimeFormat(lang, { hour: 'numeric' }).resolvedOptions().hour12 === true
    return { picker: { kind: input.type, value: input.value, min: input.min, max: input.max, step: input.step, label: label(input), layout: { order, hour12 } } }
  }
  const sel = el.closest('select')
  if (!sel || sel.disabled || sel.multiple || sel.size > 1) return null
  // :open says whether the browser's own list is showing (older Chromium: assume it is).
  if (!isOpen(sel)) return { closed: true }
  const options = Array.from(sel.options).slice(0, ${SELECT_OPTIONS_MAX}).map((o, index) => {
    const g = o.parentElement && o.parentElement.tagName === 'OPTGROUP' ? o.parentElement : null
    return { index, label: String(o.label || o.text).slice(0, 200), disabled: o.disabled || !!(g && g.disabled), group: g ? String(g.label).slice(0, 200) : null }
  })
  return { select: { options, selected: sel.selectedIndex, label: label(sel) } }
})()`

interface OpenPicker extends PickerInfo { layout: PickerLayout }

export class PageUiRelay {
  readonly #d: UiRelayDeps
  #select: OpenSelect | undefined
  /** While an answered list settles, the person's input waits (and so do the looks at what it opened). */
  #settling: Promise<void> = Promise.resolve()
  #picker: OpenPicker | undefined
  // The registry of early dialogs hears a dialog once per CDP session attached to its window, and
  // again as each detaches: the panel is told only when the dialog shown changes.
  #announced: OpenDialog | null = null
  readonly #onDialog = (): void => {
    const dialog = this.#dialog() ?? null
    if (dialog === this.#announced || sameDialog(dialog, this.#announced)) return
    this.#announced = dialog
    this.#d.broadcast({ t: 'dialog', dialog })
  }
  readonly #onChooser = (c: OpenChooser | undefined): void => this.#d.broadcast({ t: 'chooser', chooser: c ? publicChooser(c) : null })

  constructor (deps: UiRelayDeps) {
    this.#d = deps
    deps.watch.personPresent = true
    deps.watch.on('dialog', this.#onDialog)
    deps.watch.on('chooser', this.#onChooser)
    deps.early?.on(this.#onDialog)
  }

  get dialogOpen (): boolean { return this.#dialog() !== undefined }

  /** The open dialog's type (alert, confirm, prompt, beforeunload) — never its text. */
  get dialogType (): string | undefined { return this.#dialog()?.type }

  /** The page's own dialog, or else one of a window it opened that has no page yet. */
  #dialog (): OpenDialog | undefined {
    return this.#d.watch.dialog ?? this.#d.early?.current()?.dialog
  }

  /** What a viewer that just joined must see. */
  state (): PageUiMessage[] {
    const { watch } = this.#d
    return [
      { t: 'dialog', dialog: this.#dialog() ?? null },
      { t: 'select', select: this.#select ?? null },
      { t: 'picker', picker: this.#picker ?? null },
      { t: 'chooser', chooser: watch.chooser ? publicChooser(watch.chooser) : null }
    ]
  }

  /** A press was relayed at (x, y): if it opened a select, the panel must draw its list. */
  /** A press or an opening key may have opened a select list the screencast cannot show. */
  noticeInput (msg: InputMessage): void {
    if (msg.t === 'mouse' && msg.type === 'down') {
      if (msg.button === 'left') this.afterPress(msg.x, msg.y)
      else this.forgetSelect()
    } else if (msg.t === 'key' && msg.type === 'down') {
      if (msg.key === ' ' || (msg.key === 'ArrowDown' && (msg.mods & 1) !== 0)) this.afterOpeningKey()
      else if (msg.key === 'Escape' || msg.key === 'Enter' || msg.key === 'Tab') this.forgetSelect()
    }
  }

  afterPress (x: number, y: number): void {
    void this.#probe(PRESS_PROBE('document.elementFromPoint(X, Y)').replaceAll('X', String(x)).replaceAll('Y', String(y)))
  }

  /** Space or Alt+ArrowDown on a focused select opens its list too. */
  afterOpeningKey (): void {
    void this.#probe(PRESS_PROBE('document.activeElement'))
  }

  /** Any other press or key: a list the person closed in the page itself is gone. */
  forgetSelect (): void {
    if (this.#select) {
      this.#select = undefined
      this.#d.broadcast({ t: 'select', select: null })
    }
    if (this.#picker) {
      this.#picker = undefined
      this.#d.broadcast({ t: 'picker', picker: null })
    }
  }

  async answer (msg: UiAnswer): Promise<void> {
    const { watch } = this.#d
    switch (msg.t) {
      case 'dialog': {
        const d = watch.dialog
        if (d) {
          await watch.answerDialog(dialogAnswer(d, msg.accept, msg.text))
          return
        }
        const early = this.#d.early?.current()
        if (!early) throw new Error('No dialog is open any more.')
        await early.answer(dialogAnswer(early.dialog, msg.accept, msg.text))
        return
      }
      case 'select': {
        const s = this.#select
        if (!s) throw new Error('No select list is open any more.')
        this.forgetSelect()
        // What the person does next waits for this answer and for the browser to close its list:
        // a press before that would overtake the keys, or only close the list (Chromium swallows it).
        let answered = (): void => undefined
        const settled = new Promise<void>((resolve) => { answered = resolve })
        this.#d.holdInputUntil(settled)
        // A press held meanwhile is looked at (what did it open?) once it has gone in.
        this.#settling = settled
        // Every look is bounded too: a busy renderer answers a look only when it can.
        const until = performance.now() + LIST_CLOSE_WAIT_MS
        const epoch = this.#d.inputEpoch()
        try {
          if (msg.index !== null && !await this.#focusedOpen('SELECT', until)) throw new Error('The list closed in the page before your choice arrived; open it again.')
          for (const key of selectKeys(s.options, s.selected, msg.index)) this.#d.key(key)
          const taken = await this.#listClosed(until, epoch)
          // Enter has been taken and the list is still up: the choice is made, so Escape only
          // closes it, and the held press opens the list anew instead of picking in the old one.
          // Not before Enter is known to be taken (Escape would then reach the page once the list
          // closed), nor once control has moved on.
          const escapeUntil = performance.now() + LIST_ESCAPE_WAIT_MS
          if (taken && this.#present(epoch) && await this.#focusedOpen('SELECT', escapeUntil)) {
            this.#d.log.warn({ waited_ms: LIST_CLOSE_WAIT_MS }, 'an answered select list stayed open; closing it with Escape')
            this.#d.key('Escape')
            await this.#listClosed(escapeUntil, epoch)
          }
        } finally {
          answered()
        }
        return
      }
      case 'chooser':
        if (watch.chooser) await watch.resolveChooser([])
        return
      case 'permission': {
        const origin = webOrigin(watch.page.url())
        if (!origin) throw new Error('This page has no web address to allow anything for.')
        if (!this.#d.grant) throw new Error('Permissions cannot be granted here.')
        await this.#d.grant(origin, msg.permission)
        return
      }
      case 'picker': {
        const p = this.#picker
        if (!p || p.kind !== msg.kind) throw new Error('That field is not waiting for a value any more; tap it again.')
        this.forgetSelect()
        // The browser's own popup, if the press opened it, would take the keys: close it first.
        if (await this.#focusedOpen('INPUT')) this.#d.key('Escape')
        if (msg.kind === 'color') {
          await this.#setColour(msg.value.toLowerCase())
          void this.#closeLatePopup()
          return
        }
        for (const step of typedPickerKeys(msg.kind, msg.value, p.layout)) {
          if (step.key) this.#d.key(step.key)
          else if (step.char) this.#d.char(step.char)
        }
        return
      }
    }
  }

  dispose (): void {
    const { watch } = this.#d
    watch.personPresent = false
    watch.off('dialog', this.#onDialog)
    watch.off('chooser', this.#onChooser)
    this.#d.early?.off(this.#onDialog)
  }

  async #setColour (value: string): Promise<void> {
    const res = await this.#d.session.send('Runtime.evaluate', { expression: SET_COLOUR(value), returnByValue: true, silent: true })
    if (res.result?.value !== true) throw new Error('That colour field is not focused any more; tap it again.')
  }

  async #closeLatePopup (): Promise<void> {
    // Every look, not only until the first close: an Escape sent on a loaded machine can land
    // before the popup has focus (a clean-clone run once left it open), so look again after it.
    for (const ms of LATE_POPUP_LOOKS_MS) {
      await sleep(ms)
      if (!this.#d.watch.personPresent) return
      if (await this.#focusedOpen('INPUT')) this.#d.key('Escape')
    }
  }

  /**
   * Waits until the keys sent have been taken and the focused select's list is gone (Chromium
   * closes it a moment after Enter), the person leaves or control moves on, or `until`. Says
   * whether the keys were taken.
   */
  async #listClosed (until: number, epoch: number): Promise<boolean> {
    const taken = await beforeDeadline(this.#d.delivered(), until, 'the answer\'s keys').then(() => true, () => false)
    while (performance.now() < until && this.#present(epoch)) {
      await sleep(LIST_CLOSE_POLL_MS)
      if (!await this.#focusedOpen('SELECT', until)) break
    }
    return taken
  }

  /** The person who answered is still here and still holds control. */
  #present (epoch: number): boolean {
    return this.#d.watch.personPresent && this.#d.inputEpoch() === epoch
  }

  /** Whether the focused element is a `tag` whose browser popup is showing; false when the page does not answer by `until`. */
  async #focusedOpen (tag: 'SELECT' | 'INPUT', until = Infinity): Promise<boolean> {
    const look = this.#d.session.send('Runtime.evaluate', {
      expression: `(() => { const el = document.activeElement; if (!el || el.tagName !== '${tag}') return false; try { return el.matches(':open') } catch (e) { return ${tag === 'SELECT'} } })()`,
      returnByValue: true,
      silent: true
    })
    const res = await (until === Infinity ? look : beforeDeadline(look, until, 'a look at the open list')).catch(() => undefined)
    return res?.result?.value === true
  }

  async #probe (expression: string): Promise<void> {
    await this.#settling
    // The press travels to the page while the probe does: look again if the list is not up yet.
    for (let attempt = 0; attempt < PROBE_ATTEMPTS; attempt++) {
      if (this.dialogOpen) return
      let value: { select?: OpenSelect, picker?: OpenPicker, closed?: boolean } | null | undefined
      try {
        const res = await this.#d.session.send('Runtime.evaluate', { expression, returnByValue: true, silent: true })
        value = res.result?.value as typeof value
      } catch (err) {
        this.#d.log.debug({ err }, 'press probe failed')
        return
      }
      if (!value) { this.forgetSelect(); return }
      if (value.picker) {
        this.#picker = value.picker
        this.#d.broadcast({ t: 'picker', picker: { kind: value.picker.kind, value: value.picker.value, min: value.picker.min, max: value.picker.max, step: value.picker.step, label: value.picker.label } })
        return
      }
      if (value.select && Array.isArray(value.select.options)) {
        this.#select = value.select
        this.#d.broadcast({ t: 'select', select: value.select })
        return
      }
      await new Promise((resolve) => setTimeout(resolve, PROBE_RETRY_MS))
    }
    this.forgetSelect()
  }
}

function publicChooser (c: OpenChooser): ChooserInfo {
  return { mode: c.mode, accept: c.accept, opened_at: c.opened_at, limits: { ...UPLOAD_LIMITS, upload_files_max: c.mode === 'selectSingle' ? 1 : UPLOAD_LIMITS.upload_files_max } }
}

/** An http(s) page's origin, which a permission is granted to; undefined for any other page. */
function webOrigin (url: string): string | undefined {
  try {
    const u = new URL(url)
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.origin : undefined
  } catch {
    return undefined
  }
}
