// Watches one page for what the browser draws outside it (docs/spec.md section 16): JavaScript
// dialogs and file choosers. A dialog blocks the page's main thread, so every script call
// (evaluate, content, screenshot, even Page.enable on a new session) waits until someone
// answers it: fetches, snapshots, live checks and the panel ask this watch first instead
// of hanging. The watch never answers a dialog by itself; only a person does, through
// `answerDialog`.
import { EventEmitter } from 'node:events'
import type { CDPSession, Page } from 'puppeteer-core'
import { describeDialog, type FileChooserInfo, type OpenDialog } from '../core/page-ui.js'

interface DialogOpening { type: string, message: string, url: string, defaultPrompt?: string }
interface ChooserOpened { frameId: string, mode: 'selectSingle' | 'selectMultiple', backendNodeId?: number }

export interface OpenChooser extends FileChooserInfo { backendNodeId: number }

/** Puppeteer's own session for the page: its Page domain is enabled, so dialog events arrive there. */
export function pageSession (page: Page): CDPSession {
  return (page as unknown as { _client (): CDPSession })._client()
}

const watches = new WeakMap<Page, PageWatch>()
const ACCEPT_LOOKUP_MS = 1_000

export class PageWatch extends EventEmitter {
  readonly page: Page
  dialog: OpenDialog | undefined
  chooser: OpenChooser | undefined
  /** Choosers that opened while the host (not a person) was at work: cancelled and reported. */
  choosersDuringWork = 0
  /** True while a panel is open: choosers wait for the person instead of being cancelled. */
  personPresent = false
  readonly #now: () => number

  private constructor (page: Page, now: () => number) {
    super()
    this.page = page
    this.#now = now
    const session = pageSession(page)
    session.on('Page.javascriptDialogOpening', (ev: DialogOpening) => {
      this.dialog = describeDialog(ev, this.#now())
      this.emit('dialog', this.dialog)
    })
    session.on('Page.javascriptDialogClosed', () => {
      if (!this.dialog) return
      this.dialog = undefined
      this.emit('dialog', undefined)
    })
    session.on('Page.fileChooserOpened', (ev: ChooserOpened) => { void this.#onChooser(ev) })
    page.once('close', () => { this.dialog = undefined; this.chooser = undefined; this.emit('closed') })
    // No native chooser should ever open where nobody sees it: intercept, then decide.
    session.send('Page.setInterceptFileChooserDialog', { enabled: true }).catch(() => undefined)
  }

  /** The one watch of a page, created on first use (idempotent). */
  static of (page: Page, now: () => number = Date.now): PageWatch {
    let w = watches.get(page)
    if (!w) {
      w = new PageWatch(page, now)
      watches.set(page, w)
    }
    return w
  }

  /** The open dialog of a page already watched; undefined for a page nobody watches. */
  static dialogOf (page: Page): OpenDialog | undefined {
    return watches.get(page)?.dialog
  }

  /** Resolves when a dialog is open (at once if one is); `cancel` stops waiting. */
  whenDialog (): { promise: Promise<OpenDialog>, cancel: () => void } {
    let cancel = (): void => undefined
    const promise = new Promise<OpenDialog>((resolve) => {
      if (this.dialog) { resolve(this.dialog); return }
      const on = (d: OpenDialog | undefined): void => { if (d) { this.off('dialog', on); resolve(d) } }
      this.on('dialog', on)
      cancel = () => this.off('dialog', on)
    })
    return { promise, cancel }
  }

  /** A person's answer (Page.handleJavaScriptDialog). */
  async answerDialog (answer: { accept: boolean, promptText?: string }): Promise<void> {
    await pageSession(this.page).send('Page.handleJavaScriptDialog', answer)
  }

  /** Hands chosen files (paths on the browser's machine) to the input that asked, or none to cancel. */
  async resolveChooser (paths: string[]): Promise<void> {
    const c = this.chooser
    if (!c) throw new Error('no file chooser is open')
    this.chooser = undefined
    this.emit('chooser', undefined)
    if (paths.length === 0) return
    await pageSession(this.page).send('DOM.setFileInputFiles', { files: paths, backendNodeId: c.backendNodeId })
  }

  async #onChooser (ev: ChooserOpened): Promise<void> {
    if (ev.backendNodeId === undefined) return
    if (!this.personPresent) {
      // Nobody can choose: leave the input empty (nothing is set) and let the fetch report it.
      this.choosersDuringWork++
      this.emit('chooser-cancelled')
      return
    }
    // The accept list is a hint for the viewer's picker: never let it hold the chooser up.
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<string>((resolve) => { timer = setTimeout(() => resolve(''), ACCEPT_LOOKUP_MS) })
    const accept = await Promise.race([this.#acceptOf(ev.backendNodeId).catch(() => ''), late]).finally(() => clearTimeout(timer))
    this.chooser = { mode: ev.mode, accept, backendNodeId: ev.backendNodeId, opened_at: new Date(this.#now()).toISOString() }
    this.emit('chooser', this.chooser)
  }

  async #acceptOf (backendNodeId: number): Promise<string> {
    const { node } = await pageSession(this.page).send('DOM.describeNode', { backendNodeId })
    const attrs = node.attributes ?? []
    for (let i = 0; i + 1 < attrs.length; i += 2) if (attrs[i].toLowerCase() === 'accept') return attrs[i + 1].slice(0, 512)
    return ''
  }
}
