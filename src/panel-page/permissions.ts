// "Allow…": the browser's own permission prompt, as a person at the panel answers it
// (docs/spec.md section 16). Every prompt is denied up front, so a page that wants the
// location, the camera or notifications meets a refusal nobody saw; the person who sees the page
// ask for it allows it here for the shown page's origin, and the host keeps it in the profile.
import { PROMPTED_PERMISSIONS, type PromptedPermission } from '../vocabulary/profile.js'
import type { Notify } from './keyboard.js'
import type { PanelInput } from '../panel/messages.js'

const $ = <E extends HTMLElement = HTMLElement>(id: string): E => document.getElementById(id) as E

/** What each permission lets a site do, in a person's words. */
const WORDS: Readonly<Record<PromptedPermission, string>> = {
  notifications: 'Show notifications',
  geolocation: 'Know your location',
  camera: 'Use the camera',
  microphone: 'Use the microphone',
  'clipboard-read': 'Read the clipboard',
  'clipboard-write': 'Write to the clipboard'
}

export interface SitePermissionDeps {
  send: (msg: PanelInput) => void
  mayInput: () => boolean
  notify: Notify
  /** The shown page's address (the focus message's url). */
  url: () => string
  /** The box takes room above the view: lay the view out again. */
  relayout: () => void
}

export class SitePermissions {
  readonly #d: SitePermissionDeps
  readonly #box = $('afhttp-perm-box')

  constructor (deps: SitePermissionDeps) {
    this.#d = deps
    const list = $('afhttp-perm-list')
    for (const name of PROMPTED_PERMISSIONS) {
      const b = document.createElement('button')
      b.type = 'button'
      b.dataset.permission = name
      b.textContent = WORDS[name]
      b.addEventListener('click', () => this.#allow(name))
      list.append(b)
    }
    $('afhttp-perm').addEventListener('click', () => this.#toggle(this.#box.hidden))
    $('afhttp-perm-cancel').addEventListener('click', () => this.#toggle(false))
  }

  /** The host allowed it: say so (the page may ask again now). */
  granted (permission: string, origin: string): void {
    const words = WORDS[permission as PromptedPermission] ?? permission
    this.#d.notify(`Allowed for ${origin}: ${words.toLowerCase()}. The page may ask again now.`)
  }

  /** The handoff is over: nothing more can be allowed from here. */
  close (): void {
    $<HTMLButtonElement>('afhttp-perm').disabled = true
    if (!this.#box.hidden) this.#toggle(false)
  }

  #toggle (open: boolean): void {
    this.#box.hidden = !open
    if (open) $('afhttp-perm-what').textContent = `Let ${originOf(this.#d.url())} …`
    this.#d.relayout()
  }

  #allow (permission: PromptedPermission): void {
    if (!this.#d.mayInput()) { this.#d.notify('Take control to allow anything.', 'warn'); return }
    this.#d.send({ t: 'permission', permission })
    this.#toggle(false)
  }
}

function originOf (url: string): string {
  try { return new URL(url).origin } catch { return 'this page' }
}
