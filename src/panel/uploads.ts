// Files a person chose for a page's file chooser (docs/spec.md section 16): stored mode 0600 in a
// directory of the handoff (0700), handed to the page by path, and deleted with the
// directory when the handoff ends. Bounded in size, count per chooser and per handoff.
import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AfhttpError } from '../errors.js'
import { safeUploadName, UPLOAD_FILES_PER_HANDOFF_MAX } from '../core/page-ui.js'
import type { StoredFile } from '../schemas/panel.js'

interface Stored { path: string, size: number }
interface HandoffFiles { fence: string, dir: string, files: Map<string, Stored> }

export class UploadStore {
  #root: Promise<string> | undefined
  readonly #byTab = new Map<string, HandoffFiles>()

  async add (tabId: string, fence: string, name: string, bytes: Buffer): Promise<StoredFile> {
    const h = await this.#handoff(tabId, fence)
    if (h.files.size >= UPLOAD_FILES_PER_HANDOFF_MAX) {
      throw new AfhttpError('payload_too_large', `This handoff already holds ${UPLOAD_FILES_PER_HANDOFF_MAX} uploaded files; no more are accepted.`, { limit: UPLOAD_FILES_PER_HANDOFF_MAX })
    }
    const id = `f_${randomBytes(9).toString('base64url')}`
    // Each file in its own directory keeps the person's file name, which the page sees.
    const dir = join(h.dir, id)
    await mkdir(dir, { mode: 0o700 })
    const path = join(dir, safeUploadName(name))
    await writeFile(path, bytes, { mode: 0o600, flag: 'wx' })
    h.files.set(id, { path, size: bytes.length })
    return { file_id: id, name: safeUploadName(name), size: bytes.length }
  }

  /** The stored paths of `ids` under this handoff; unknown ids are refused, not skipped. */
  paths (tabId: string, fence: string, ids: string[]): string[] {
    const h = this.#byTab.get(tabId)
    return ids.map((id) => {
      const f = h && h.fence === fence ? h.files.get(id) : undefined
      if (!f) throw new AfhttpError('invalid_request', `files: ${JSON.stringify(id).slice(0, 40)} is not a file uploaded in this handoff`, { field: 'files' })
      return f.path
    })
  }

  /** The handoff ended (or its tab closed): its files are deleted. */
  async drop (tabId: string): Promise<void> {
    const h = this.#byTab.get(tabId)
    this.#byTab.delete(tabId)
    if (h) await rm(h.dir, { recursive: true, force: true })
  }

  async dispose (): Promise<void> {
    await Promise.all([...this.#byTab.keys()].map((id) => this.drop(id)))
    const root = await this.#root?.catch(() => undefined)
    if (root) await rm(root, { recursive: true, force: true })
  }

  /** Where a tab's current handoff keeps its files (for tests and operators). */
  dirOf (tabId: string): string | undefined { return this.#byTab.get(tabId)?.dir }

  async #handoff (tabId: string, fence: string): Promise<HandoffFiles> {
    let h = this.#byTab.get(tabId)
    if (h && h.fence !== fence) { await this.drop(tabId); h = undefined }
    if (!h) {
      this.#root ??= mkdtemp(join(tmpdir(), 'afhttp-uploads-'))
      const dir = join(await this.#root, `${tabId}-${fence}`)
      await mkdir(dir, { recursive: true, mode: 0o700 })
      h = { fence, dir, files: new Map() }
      this.#byTab.set(tabId, h)
    }
    return h
  }
}
