// The profile store (docs/spec.md section 4): directories, validated metadata written durably,
// and the one-process-per-profile lock. No Fastify here: the profiles plugin wires it.
import { readdir, readFile, rmdir } from 'node:fs/promises'
import { join } from 'node:path'
import { PROFILE_NAME_RE, type PromptedPermission } from '../vocabulary/profile.js'
import { permissionsProblem } from '../core/permissions.js'
import { AfhttpError, invalidRequest, isAfhttpError } from '../errors.js'
import { cleanStaleTemps, DurableWriteError, durableWrite, type DurableFs } from './durable-write.js'
import { acquireProfileLock, isProcessAlive, LOCK_FILE, LockWriteError, type ProfileLock } from './profile-lock.js'
import { errnoOf, lockWriteFailed, prepareFailed, writeFailed } from './profile-errors.js'
import { exists, makeDirectory, removeStaleAsides } from './profile-fs.js'
import {
  BACKENDS, METADATA_FILE, cdpUrlProblem, labelsProblem, metadataInvalid, networkIdentityProblem, newMetadata, parseMetadata, serializeMetadata,
  type Backend, type NewProfileInput, type ProfileMetadata
} from '../core/profile-metadata.js'
import { canonicalLocale, NEXT_START_FIELDS, type NextStartField } from '../core/network-identity.js'
import type { InvalidProfileListing, ProfileListing, ProfilePatch, Warning } from '../schemas/index.js'

/** The few logger methods the store uses (pino's, in the host). */
export interface StoreLogger {
  info (obj: object, msg: string): void
  warn (obj: object, msg: string): void
}

// The public shapes live once, in src/schemas/.
export type { InvalidProfileListing, ProfileListing, ProfilePatch, Warning }
export interface MetadataWrite {
  metadata: ProfileMetadata
  warnings: Warning[]
  /** Fields this write changed that apply only when the profile's browser next starts (docs/spec.md section 21). */
  nextStart?: NextStartField[]
}

export interface ProfileService {
  readonly root: string
  list (): Promise<ProfileListing[]>
  get (name: string): Promise<ProfileMetadata>
  create (input: NewProfileInput): Promise<MetadataWrite>
  update (name: string, patch: ProfilePatch): Promise<MetadataWrite>
  /** Keeps a permission a person allowed an origin (metadata `permissions`), so the next start applies it too. */
  grantPermission (name: string, origin: string, permission: PromptedPermission): Promise<MetadataWrite>
  dir (name: string): string
  browserDir (name: string): string
  /** Owns the profile for the rest of this process (idempotent); needs valid metadata. */
  acquire (name: string): Promise<void>
  /** Gives up ownership taken by acquire(). */
  release (name: string): Promise<void>
  ensureDefault (): Promise<void>
}

function checkName (name: unknown, field = 'name'): string {
  if (typeof name !== 'string' || !PROFILE_NAME_RE.test(name)) throw invalidRequest(field, `must match ${PROFILE_NAME_RE.source}`)
  return name
}

function checkNewInput (input: NewProfileInput): NewProfileInput {
  const backend: Backend = input.backend ?? 'chromium'
  if (!BACKENDS.includes(backend)) throw invalidRequest('backend', 'must be "chromium" or "cdp"')
  if (backend === 'cdp' && input.cdp_url === undefined) throw invalidRequest('cdp_url', 'is required when backend is "cdp"')
  if (backend !== 'cdp' && input.cdp_url !== undefined) throw invalidRequest('cdp_url', 'applies only to backend "cdp"')
  const urlProblem = input.cdp_url === undefined ? undefined : cdpUrlProblem(input.cdp_url)
  if (urlProblem) throw invalidRequest('cdp_url', urlProblem)
  const labelProblem = input.labels === undefined ? undefined : labelsProblem(input.labels)
  if (labelProblem) throw invalidRequest('labels', labelProblem)
  checkIdentity({ ...input, backend })
  return { ...input, backend }
}

/** docs/spec.md section 21: proxy, timezone and locale, refused as invalid_request naming the field. */
function checkIdentity (doc: Partial<Pick<ProfileMetadata, 'backend' | NextStartField>>): void {
  const problem = networkIdentityProblem(doc)
  if (!problem) return
  const field = problem.split(' ')[0]
  throw invalidRequest(field, problem.slice(field.length + 1))
}

/** A patch's network identity over the current metadata: a string replaces, null removes. */
function patchIdentity (current: ProfileMetadata, patch: ProfilePatch): { next: ProfileMetadata, changed: NextStartField[] } {
  const next: ProfileMetadata = { ...current }
  for (const field of NEXT_START_FIELDS) {
    const value = patch[field]
    if (value === undefined) continue
    if (value === null) delete next[field]
    else next[field] = value
  }
  checkIdentity(next)
  if (next.locale !== undefined) next.locale = canonicalLocale(next.locale)
  return { next, changed: NEXT_START_FIELDS.filter((f) => next[f] !== current[f]) }
}

function mergeLabels (current: Record<string, string>, patch: ProfilePatch['labels']): Record<string, string> {
  if (patch === undefined) return current
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) throw invalidRequest('labels', 'must be an object')
  const next = { ...current }
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete next[key]
    else next[key] = value
  }
  const problem = labelsProblem(next)
  if (problem) throw invalidRequest('labels', problem)
  return next
}

export class Profiles implements ProfileService {
  private readonly held = new Map<string, ProfileLock>()
  private readonly queues = new Map<string, Promise<void>>()

  constructor (readonly root: string, private readonly defaultProfile: string, private readonly log: StoreLogger, private readonly fs?: DurableFs) {}

  dir (name: string): string { return join(this.root, checkName(name)) }
  browserDir (name: string): string { return join(this.dir(name), 'browser') }
  private file (name: string): string { return join(this.dir(name), METADATA_FILE) }

  async list (): Promise<ProfileListing[]> {
    const entries = await readdir(this.root, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return []
      throw err
    })
    const names = entries.filter((e) => (e.isDirectory() || e.isSymbolicLink()) && PROFILE_NAME_RE.test(e.name)).map((e) => e.name).sort()
    const out: ProfileListing[] = []
    for (const name of names) {
      try {
        out.push(await this.get(name))
      } catch (err) {
        if (isAfhttpError(err) && err.code === 'profile_not_found') continue // a directory, not a profile
        const coded = isAfhttpError(err) ? err : new AfhttpError('internal', String((err as Error).message))
        out.push({ name, error: { code: coded.code, message: coded.message } })
      }
    }
    return out
  }

  async get (name: string): Promise<ProfileMetadata> {
    const file = this.file(name)
    let bytes: Buffer
    try {
      bytes = await readFile(file)
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      if (code === 'ENOENT' || code === 'ENOTDIR') throw new AfhttpError('profile_not_found', `No profile "${name}".`, { name })
      if (code === 'EISDIR') throw metadataInvalid(file, name, 'it is a directory, not a file')
      throw new AfhttpError('internal', `Could not read ${file}: ${code}.`, { file, errno: code }, { cause: err })
    }
    return parseMetadata(bytes, name, file, { directoryBackend: await this.directoryBackend(name) })
  }

  /** Chromium writes `Local State` into its user-data-dir: a profile holding one is a chromium profile. */
  private async directoryBackend (name: string): Promise<Backend | undefined> {
    return await exists(join(this.browserDir(name), 'Local State')).catch(() => false) ? 'chromium' : undefined
  }

  async create (input: NewProfileInput): Promise<MetadataWrite> {
    const name = checkName(input?.name)
    const meta = newMetadata(checkNewInput(input))
    const file = this.file(name)
    return this.serial(name, async () => {
      // Directories this call made, removed again if the create fails: no half-made profile.
      const made: string[] = []
      const makeDir = async (dir: string): Promise<void> => {
        try {
          if (await makeDirectory(dir)) made.push(dir)
        } catch (err) {
          throw prepareFailed(file, 'mkdir', errnoOf(err), err)
        }
      }
      try {
        await makeDir(this.dir(name))
        return await this.withLock(name, async () => {
          // Any file here, even an unreadable one, is a profile we must not overwrite.
          if (await exists(file)) throw new AfhttpError('profile_exists', `Profile "${name}" already exists.`, { name })
          if (meta.backend === 'chromium') await makeDir(this.browserDir(name))
          return this.write(meta)
        })
      } catch (err) {
        // rmdir, never a recursive remove: only directories still empty go.
        for (const dir of made.reverse()) await rmdir(dir).catch(() => {})
        throw err
      }
    })
  }

  async update (name: string, patch: ProfilePatch): Promise<MetadataWrite> {
    checkName(name)
    if (patch.cdp_url !== undefined) {
      const problem = cdpUrlProblem(patch.cdp_url)
      if (problem) throw invalidRequest('cdp_url', problem)
    }
    await this.get(name) // not found / invalid are reported without touching the directory
    return this.serial(name, () => this.withLock(name, async () => {
      const current = await this.get(name)
      if (patch.cdp_url !== undefined && current.backend !== 'cdp') throw invalidRequest('cdp_url', 'applies only to profiles with backend "cdp"')
      const { next, changed } = patchIdentity(current, patch)
      const written = await this.write({
        ...next,
        ...(patch.cdp_url !== undefined ? { cdp_url: patch.cdp_url } : {}),
        labels: mergeLabels(current.labels, patch.labels),
        updated_at: new Date().toISOString()
      })
      return changed.length ? { ...written, nextStart: changed } : written
    }))
  }

  async grantPermission (name: string, origin: string, permission: PromptedPermission): Promise<MetadataWrite> {
    checkName(name)
    return this.serial(name, () => this.withLock(name, async () => {
      const current = await this.get(name)
      const had = current.permissions?.[origin] ?? []
      if (had.includes(permission)) return { metadata: current, warnings: [] }
      const permissions = { ...current.permissions, [origin]: [...had, permission] }
      const problem = permissionsProblem(permissions)
      if (problem) throw invalidRequest('permissions', problem)
      return this.write({ ...current, permissions, updated_at: new Date().toISOString() })
    }))
  }

  async acquire (name: string): Promise<void> {
    checkName(name)
    await this.serial(name, async () => {
      if (this.held.has(name)) return
      await this.get(name) // never own (and so launch) a profile whose metadata is bad
      const lock = await acquireProfileLock(this.dir(name)).catch((err: unknown) => {
        throw err instanceof LockWriteError ? lockWriteFailed(err) : err
      })
      this.held.set(name, lock)
      this.reportTakeover(name, lock)
      // We own the profile now, so no other writer can be mid-write here.
      await cleanStaleTemps(this.dir(name), METADATA_FILE, { fs: this.fs }).catch((err: unknown) => {
        this.log.warn({ err, profile: name }, 'could not clean stale metadata temp files')
      })
    })
  }

  async release (name: string): Promise<void> {
    checkName(name)
    await this.serial(name, async () => {
      const lock = this.held.get(name)
      this.held.delete(name)
      await lock?.release()
    })
  }

  async releaseAll (): Promise<void> {
    await Promise.all([...this.held.keys()].map((name) => this.release(name)))
  }

  async ensureDefault (): Promise<void> {
    const name = this.defaultProfile
    try {
      await this.get(name)
      return
    } catch (err) {
      if (!isAfhttpError(err) || err.code !== 'profile_not_found') throw err
    }
    try {
      const { warnings } = await this.create({ name, backend: 'chromium' })
      this.log.info({ profile: name, warnings }, 'created the default profile')
    } catch (err) {
      if (!isAfhttpError(err) || err.code !== 'profile_exists') throw err
    }
  }

  /**
   * At start no write of ours is in flight, so a temp file is stale unless a
   * live other process (another host on a shared volume) may still commit it.
   */
  async cleanAllStaleTemps (): Promise<void> {
    const entries = await readdir(this.root, { withFileTypes: true })
    const isStale = (pid: number): boolean => pid === process.pid || !isProcessAlive(pid)
    for (const entry of entries) {
      if (!entry.isDirectory() || !PROFILE_NAME_RE.test(entry.name)) continue
      try {
        const dir = join(this.root, entry.name)
        // A lock's temp is stale on the same terms: its writer is gone.
        const removed = [
          ...await cleanStaleTemps(dir, METADATA_FILE, { fs: this.fs, isStale }),
          ...await cleanStaleTemps(dir, LOCK_FILE, { fs: this.fs, isStale }),
          ...await removeStaleAsides(dir, isStale)
        ]
        if (removed.length) this.log.info({ profile: entry.name, removed }, 'removed stale metadata temp files')
      } catch (err) {
        this.log.warn({ err, profile: entry.name }, 'could not clean stale metadata temp files')
      }
    }
  }

  private async write (meta: ProfileMetadata): Promise<MetadataWrite> {
    const file = this.file(meta.name)
    let result
    try {
      result = await durableWrite(file, serializeMetadata(meta), { fs: this.fs })
    } catch (err) {
      if (err instanceof DurableWriteError) throw writeFailed(file, err)
      throw err
    }
    if (result.durable) return { metadata: meta, warnings: [] }
    this.log.warn({ profile: meta.name, errno: result.error.code }, 'metadata written but directory fsync failed')
    return {
      metadata: meta,
      warnings: [{
        code: 'metadata_durability_unconfirmed',
        message: `${file} was written completely, but syncing its directory failed (${result.error.code}); a power loss could bring back the previous version.`
      }]
    }
  }

  /** Metadata writes happen under the profile lock; a process that already owns the profile reuses it. */
  private async withLock<T> (name: string, task: () => Promise<T>): Promise<T> {
    if (this.held.has(name)) return task()
    let lock: ProfileLock
    try {
      lock = await acquireProfileLock(this.dir(name))
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new AfhttpError('profile_not_found', `No profile "${name}".`, { name })
      if (err instanceof LockWriteError) throw prepareFailed(this.file(name), `lock_${err.step}`, err.code, err, join(this.dir(name), LOCK_FILE))
      throw err
    }
    this.reportTakeover(name, lock)
    try {
      return await task()
    } finally {
      await lock.release()
    }
  }

  private reportTakeover (name: string, lock: ProfileLock): void {
    if (!lock.takeover) return
    this.log.warn({ profile: name, previous_lock: lock.takeover.previous, reason: lock.takeover.reason, lock_file: lock.path }, 'took over a stale profile lock')
  }

  /** One operation per profile at a time inside this process (read-modify-write of labels, lock reuse). */
  private serial<T> (name: string, task: () => Promise<T>): Promise<T> {
    const run = (this.queues.get(name) ?? Promise.resolve()).then(task)
    const tail = run.then(() => {}, () => {})
    this.queues.set(name, tail)
    void tail.then(() => { if (this.queues.get(name) === tail) this.queues.delete(name) })
    return run
  }
}
