// What the browser draws outside the page (docs/spec.md section 16), drawn here in the viewer's own
// browser: JavaScript dialogs (#afhttp-dialog), select lists (#afhttp-picker), file choosers
// (#afhttp-file) and date/time pickers (#afhttp-native). Every text from the page is shown
// with textContent, never as HTML. Answers go to the host, which hands them to the page as
// the browser's own; nothing here answers for the person.
import { uploadFiles } from './connection.js'
import type { Notify } from './keyboard.js'
import type { ChooserInfo, PageUiMessage, PanelInput, PickerInfo } from '../panel/messages.js'
import { sameDialog, type OpenDialog, type OpenSelect } from '../core/page-ui.js'

// The panel's own elements (panel/index.html): always there, so looked up without a null check.
const $ = <E extends HTMLElement = HTMLElement>(id: string): E => document.getElementById(id) as E
const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(bytes % (1024 * 1024) ? 1 : 0)
const KIND_WORDS: Record<string, string> = { alert: 'says', confirm: 'asks', prompt: 'asks', beforeunload: 'asks whether to leave the page' }

export interface PageUiDeps {
  tab: string
  send: (msg: PanelInput) => void
  mayInput: () => boolean
  notify: Notify
}

export class PageUi {
  readonly tab: string
  readonly send: PageUiDeps['send']
  readonly mayInput: () => boolean
  readonly notify: Notify
  readonly sheet: HTMLElement
  dialog: OpenDialog | null
  select: OpenSelect | null
  chooser: ChooserInfo | null
  picker: PickerInfo | null

  constructor ({ tab, send, mayInput, notify }: PageUiDeps) {
    this.tab = tab; this.send = send; this.mayInput = mayInput; this.notify = notify
    this.sheet = $('afhttp-sheet')
    this.dialog = null
    this.select = null
    this.chooser = null
    this.picker = null
    this.wireDialog()
    this.wirePicker()
    this.wireFile()
    this.wireNative()
    // The sheet sits inside the view: its presses, scrolls and menus are not input for the page.
    for (const type of ['pointerdown', 'pointermove', 'pointerup', 'pointercancel', 'wheel', 'contextmenu']) {
      this.sheet.addEventListener(type, (e) => e.stopPropagation())
    }
    this.sheet.addEventListener('pointerdown', (e) => {
      // A press beside the list dismisses it, as in the browser; dialogs stay until answered.
      if (e.target === this.sheet && this.select) this.answerSelect(null)
    })
  }

  /** A message from the host: `dialog`, `select`, `chooser` or `picker`. */
  handle (m: PageUiMessage | { t: string }): boolean {
    if (!isPageUi(m)) return false
    if (m.t === 'dialog') { const again = sameDialog(this.dialog, m.dialog); this.dialog = m.dialog; this.renderDialog(again) } else if (m.t === 'select') { this.select = m.select; this.renderPicker() } else if (m.t === 'chooser') { this.chooser = m.chooser; this.renderFile() } else { this.picker = m.picker; this.renderNative() }
    this.sheet.hidden = !(this.dialog || this.select || this.chooser || this.picker)
    return true
  }

  /** Control changed: answering needs control, like any input. */
  refresh (): void {
    const may = this.mayInput()
    for (const id of ['afhttp-dialog-ok', 'afhttp-dialog-cancel', 'afhttp-file-choose', 'afhttp-file-cancel', 'afhttp-native-set']) $<HTMLButtonElement>(id).disabled = !may
    $<HTMLInputElement>('afhttp-dialog-input').disabled = !may
    $('afhttp-sheet').dataset.control = String(may)
  }

  get open (): boolean { return !this.sheet.hidden }

  // ---------------------------------------------------------------- dialogs

  wireDialog (): void {
    $('afhttp-dialog-ok').addEventListener('click', () => this.answerDialog(true))
    $('afhttp-dialog-cancel').addEventListener('click', () => this.answerDialog(false))
    $('afhttp-dialog').addEventListener('keydown', (e) => {
      if (e.key === 'Enter') { e.preventDefault(); this.answerDialog(true) } else if (e.key === 'Escape' && this.dialog?.type !== 'alert') { e.preventDefault(); this.answerDialog(false) }
    })
  }

  /** `again`: the dialog shown was announced once more (a viewer joined, control moved); what the person typed stays. */
  renderDialog (again = false): void {
    const d = this.dialog
    const box = $('afhttp-dialog')
    box.hidden = !d
    if (!d) return
    box.dataset.type = d.type
    $('afhttp-dialog-origin').textContent = `${d.origin} ${KIND_WORDS[d.type] ?? 'says'}:`
    $('afhttp-dialog-message').textContent = d.type === 'beforeunload' && !d.message ? 'Leave this page? Changes you made may not be saved.' : d.message
    const input = $<HTMLInputElement>('afhttp-dialog-input')
    input.hidden = d.type !== 'prompt'
    if (!again) input.value = d.default_prompt ?? ''
    $('afhttp-dialog-cancel').hidden = d.type === 'alert'
    $('afhttp-dialog-ok').textContent = d.type === 'beforeunload' ? 'Leave' : 'OK'
    $('afhttp-dialog-cancel').textContent = d.type === 'beforeunload' ? 'Stay' : 'Cancel'
    this.refresh()
    if (!again) requestAnimationFrame(() => (d.type === 'prompt' ? input : $('afhttp-dialog-ok')).focus({ preventScroll: true }))
  }

  answerDialog (accept: boolean): void {
    if (!this.dialog) return
    if (!this.mayInput()) { this.notify('Take control to answer the dialog.', 'warn'); return }
    const msg: Extract<PanelInput, { t: 'dialog' }> = { t: 'dialog', accept }
    if (this.dialog.type === 'prompt' && accept) msg.text = $<HTMLInputElement>('afhttp-dialog-input').value
    this.send(msg)
  }

  // ---------------------------------------------------------------- select lists

  wirePicker (): void {
    const list = $('afhttp-picker')
    list.addEventListener('click', (e) => {
      const opt = e.target instanceof Element ? e.target.closest<HTMLButtonElement>('[role=option]') : null
      if (opt && !opt.disabled) this.answerSelect(Number(opt.dataset.index))
    })
    list.addEventListener('keydown', (e) => {
      const items = [...list.querySelectorAll<HTMLElement>('[role=option]:not([disabled])')]
      const at = items.indexOf(document.activeElement as HTMLElement)
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault()
        items[Math.max(0, Math.min(items.length - 1, at + (e.key === 'ArrowDown' ? 1 : -1)))]?.focus()
      } else if (e.key === 'Escape') {
        e.preventDefault()
        this.answerSelect(null)
      }
    })
    $('afhttp-picker-cancel').addEventListener('click', () => this.answerSelect(null))
  }

  renderPicker (): void {
    const s = this.select
    const box = $('afhttp-picker-box')
    const list = $('afhttp-picker')
    box.hidden = !s
    list.replaceChildren()
    if (!s) return
    $('afhttp-picker-title').textContent = s.label ? `Choose: ${s.label}` : 'Choose an option'
    let group: HTMLElement | null = null
    let groupLabel: string | null | undefined
    for (const o of s.options) {
      if (o.group !== groupLabel) {
        groupLabel = o.group
        if (o.group === null) group = null
        else {
          group = document.createElement('div')
          group.setAttribute('role', 'group')
          group.setAttribute('aria-label', o.group)
          const head = document.createElement('div')
          head.className = 'afhttp-group-label'
          head.textContent = o.group
          group.append(head)
          list.append(group)
        }
      }
      const b = document.createElement('button')
      b.type = 'button'
      b.setAttribute('role', 'option')
      b.dataset.index = String(o.index)
      b.textContent = o.label || '\u00a0'
      b.setAttribute('aria-selected', String(o.index === s.selected))
      if (o.disabled) { b.disabled = true; b.setAttribute('aria-disabled', 'true') }
      ;(group ?? list).append(b)
    }
    const current = list.querySelector<HTMLElement>('[aria-selected=true]') ?? list.querySelector<HTMLElement>('[role=option]:not([disabled])')
    requestAnimationFrame(() => { current?.scrollIntoView({ block: 'center' }); current?.focus({ preventScroll: true }) })
  }

  answerSelect (index: number | null): void {
    if (!this.select) return
    if (!this.mayInput()) { this.notify('Take control to choose.', 'warn'); return }
    this.send({ t: 'select', index })
    // The host closes the list in the page; hide it now so a second tap cannot choose twice.
    this.handle({ t: 'select', select: null })
  }

  // ---------------------------------------------------------------- file choosers

  wireFile (): void {
    const input = $<HTMLInputElement>('afhttp-file-input')
    $('afhttp-file-choose').addEventListener('click', () => input.click())
    $('afhttp-file-cancel').addEventListener('click', () => this.send({ t: 'chooser', cancel: true }))
    input.addEventListener('change', () => { void this.upload([...input.files ?? []]) })
    input.addEventListener('cancel', () => this.notify('No file chosen. Choose one, or press Cancel to leave the page’s field empty.'))
  }

  renderFile (): void {
    const c = this.chooser
    $('afhttp-file').hidden = !c
    if (!c) return
    const input = $<HTMLInputElement>('afhttp-file-input')
    input.value = ''
    input.multiple = c.mode === 'selectMultiple'
    input.accept = c.accept ?? ''
    $('afhttp-file-status').textContent = ''
    $('afhttp-file-what').textContent = `The page asks for ${c.mode === 'selectMultiple' ? 'files' : 'a file'}${c.accept ? ` (${c.accept})` : ''}. At most ${c.limits.upload_files_max} ${c.limits.upload_files_max === 1 ? 'file' : 'files'} of ${mb(c.limits.upload_file_bytes_max)} MB each.`
    this.refresh()
    // The press that opened the page's chooser is recent: the viewer's own picker may open at once.
    if (this.mayInput()) { try { input.click() } catch { /* the button is there */ } }
  }

  async upload (files: File[]): Promise<void> {
    if (!files.length || !this.chooser) return
    const limits = this.chooser.limits
    const status = $('afhttp-file-status')
    const tooBig = files.find((f) => f.size > limits.upload_file_bytes_max)
    if (files.length > limits.upload_files_max) { status.textContent = `Too many files: at most ${limits.upload_files_max}. Nothing was sent.`; return }
    if (tooBig) { status.textContent = `“${tooBig.name}” is ${mb(tooBig.size)} MB; the limit is ${mb(limits.upload_file_bytes_max)} MB per file. Nothing was sent.`; return }
    status.textContent = `Sending ${files.length === 1 ? files[0].name : `${files.length} files`}…`
    const res = await uploadFiles(this.tab, files).catch((err: Error) => ({ ok: false, message: err.message }))
    status.textContent = res.ok ? 'Sent to the page.' : (res.message ?? 'The upload failed.')
  }

  // ---------------------------------------------------------------- date, time, colour

  wireNative (): void {
    $('afhttp-native-set').addEventListener('click', () => {
      const input = $<HTMLInputElement>('afhttp-native-input')
      if (!this.picker || !input.value) return
      this.send({ t: 'picker', kind: this.picker.kind, value: input.value })
      this.handle({ t: 'picker', picker: null })
    })
    $('afhttp-native-cancel').addEventListener('click', () => this.handle({ t: 'picker', picker: null }))
  }

  renderNative (): void {
    const p = this.picker
    $('afhttp-native').hidden = !p
    if (!p) return
    const input = $<HTMLInputElement>('afhttp-native-input')
    input.type = p.kind
    input.value = p.value ?? ''
    for (const a of ['min', 'max', 'step'] as const) { if (p[a]) input.setAttribute(a, p[a]); else input.removeAttribute(a) }
    $('afhttp-native-what').textContent = p.label ? `Set ${p.label}` : `Pick a ${p.kind === 'color' ? 'colour' : p.kind.replace('-local', '')}`
    this.refresh()
    requestAnimationFrame(() => { input.focus({ preventScroll: true }); try { input.showPicker() } catch { /* a tap opens it */ } })
  }
}

const PAGE_UI = new Set(['dialog', 'select', 'chooser', 'picker'])
function isPageUi (m: { t: string }): m is PageUiMessage { return PAGE_UI.has(m.t) }
