// The durable audit trail of docs/spec.md section 19: each profile's entries appended to
// `afhttp-audit.jsonl` in its directory (0600), flushed within AUDIT_FLUSH_MS and at shutdown,
// so a SIGKILL loses at most the last second. A full disk is reported (log, and a warning on
// every audit answer) and retried, never a crash; a torn last line is skipped when read and
// never glued to the next append. Bounded to the newest `keep` handoffs per profile.
import { open, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { FastifyBaseLogger } from 'fastify'
import { durableWrite } from '../store/durable-write.js'
import { handoffCount, keepLastHandoffs, parseAuditLines, type AuditEntry } from '../core/audit.js'
import { AUDIT_FLUSH_MS, AUDIT_PENDING_MAX } from '../limits.js'
import type { Warning } from '../schemas/common.js'

export const AUDIT_FILE = 'afhttp-audit.jsonl'

/** The file operations the trail uses; tests inject an errno through these. */
export interface AuditFs {
  open: typeof open
  readFile: typeof readFile
}

export interface AuditTrailDeps {
  /** The directory of a profile (it exists while the profile does). */
  dirOf (profile: string): string
  /** Every profile name, to find a tab's trail after a restart. */
  profiles (): Promise<string[]>
  keep: number
  log: FastifyBaseLogger
  fs?: AuditFs
  flushMs?: number
}

interface ProfileTrail {
  pending: AuditEntry[]
  /** Handoffs in the file (after the first read or append of this run), for the bound. */
  handoffs?: Set<string>
  /** The file might end inside a line (a crash, a failed write): start the next append on a new line. */
  checkTail: boolean
  problem?: { code: string, since: string }
}

export class AuditTrail {
  readonly #d: AuditTrailDeps
  readonly #fs: AuditFs
  readonly #profiles = new Map<string, ProfileTrail>()
  /** tab → profile for the tabs this run has seen; older ones are found by reading every profile. */
  readonly #tabs = new Map<string, string>()
  #timer: NodeJS.Timeout | undefined
  // Flushes and reads run one at a time: a batch being written is neither waiting nor (wholly)
  // in the file, and a compaction rewrites the file, so a read beside either could miss entries.
  #turn: Promise<unknown> = Promise.resolve()
  #closed = false

  constructor (deps: AuditTrailDeps) {
    this.#d = deps
    this.#fs = deps.fs ?? { open, readFile }
  }

  #trail (profile: string): ProfileTrail {
    let p = this.#profiles.get(profile)
    if (!p) {
      p = { pending: [], checkTail: true }
      this.#profiles.set(profile, p)
    }
    return p
  }

  #file (profile: string): string { return join(this.#d.dirOf(profile), AUDIT_FILE) }

  /** Queues an entry; it reaches the disk within the flush interval. */
  record (entry: AuditEntry): void {
    const p = this.#trail(entry.profile)
    p.pending.push(entry)
    // A disk that refuses everything must not grow the host's memory without end.
    if (p.pending.length > AUDIT_PENDING_MAX) p.pending.splice(0, p.pending.length - AUDIT_PENDING_MAX)
    this.#tabs.set(entry.tab_id, entry.profile)
    if (!this.#timer && !this.#closed) {
      this.#timer = setTimeout(() => { this.#timer = undefined; void this.flush() }, this.#d.flushMs ?? AUDIT_FLUSH_MS)
      this.#timer.unref()
    }
  }

  /** Writes every queued entry now (one flush at a time). */
  async flush (): Promise<void> {
    await this.#inTurn(() => this.#flushAll())
  }

  #inTurn<T> (fn: () => Promise<T>): Promise<T> {
    const run = this.#turn.then(fn)
    this.#turn = run.catch(() => undefined)
    return run
  }

  async #flushAll (): Promise<void> {
    for (const [profile, p] of this.#profiles) {
      if (!p.pending.length) continue
      const batch = p.pending.splice(0)
      try {
        await this.#append(profile, p, batch)
        if (p.problem) this.#d.log.info({ profile, errno: p.problem.code }, 'the audit trail reaches the disk again')
        p.problem = undefined
      } catch (err) {
        // Kept, in order, for the next flush; the answer says the disk refused them.
        p.pending.unshift(...batch)
        p.checkTail = true
        const code = (err as NodeJS.ErrnoException).code ?? 'EIO'
        if (p.problem?.code !== code) this.#d.log.error({ profile, errno: code, pending: p.pending.length }, 'the audit trail could not be written; retrying')
        p.problem = { code, since: p.problem?.since ?? new Date().toISOString() }
        if (!this.#timer && !this.#closed) {
          this.#timer = setTimeout(() => { this.#timer = undefined; void this.flush() }, 1_000)
          this.#timer.unref()
        }
      }
    }
  }

  async #append (profile: string, p: ProfileTrail, batch: AuditEntry[]): Promise<void> {
    const path = this.#file(profile)
    const fh = await this.#fs.open(path, 'a+', 0o600)
    try {
      let lead = ''
      if (p.checkTail) {
        const { size } = await fh.stat()
        if (size > 0) {
          const last = Buffer.alloc(1)
          await fh.read(last, 0, 1, size - 1)
          if (last[0] !== 0x0a) lead = '\n'
        }
        await fh.chmod(0o600)
      }
      const text = lead + batch.map((e) => JSON.stringify(e)).join('\n') + '\n'
      const bytes = Buffer.from(text)
      let off = 0
      while (off < bytes.length) off += (await fh.write(bytes, off, bytes.length - off)).bytesWritten
      p.checkTail = false
    } finally {
      await fh.close()
    }
    if (!p.handoffs) p.handoffs = new Set((await this.#readFile(profile)).map((e) => e.handoff_fence))
    for (const e of batch) p.handoffs.add(e.handoff_fence)
    // Compact once the file holds a tenth more handoffs than it keeps (at least 10): rarely, durably.
    if (p.handoffs.size > this.#d.keep + Math.max(10, Math.floor(this.#d.keep / 10))) await this.#compact(profile, p)
  }

  async #compact (profile: string, p: ProfileTrail): Promise<void> {
    const kept = keepLastHandoffs(await this.#readFile(profile), this.#d.keep)
    await durableWrite(this.#file(profile), kept.map((e) => JSON.stringify(e)).join('\n') + (kept.length ? '\n' : ''), { mode: 0o600 })
    p.handoffs = new Set(kept.map((e) => e.handoff_fence))
    this.#d.log.info({ profile, handoffs: p.handoffs.size }, 'audit trail compacted to its newest handoffs')
  }

  async #readFile (profile: string): Promise<AuditEntry[]> {
    let text: string
    try {
      text = await this.#fs.readFile(this.#file(profile), 'utf8')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw err
    }
    const { entries, skipped } = parseAuditLines(text)
    if (skipped) this.#d.log.warn({ profile, skipped }, 'audit trail lines that are not whole entries were skipped (a crash mid-write)')
    return entries
  }

  /** A profile's trail, oldest first: the file, then what waits for the disk; the newest `keep` handoffs. */
  async read (profile: string): Promise<AuditEntry[]> {
    return this.#inTurn(async () => {
      const p = this.#profiles.get(profile)
      const all = [...await this.#readFile(profile), ...(p?.pending ?? [])]
      return handoffCount(all) > this.#d.keep ? keepLastHandoffs(all, this.#d.keep) : all
    })
  }

  /** Every entry of a tab's handoffs, wherever its profile is; [] when it has none. */
  async forTab (tabId: string): Promise<AuditEntry[]> {
    const known = this.#tabs.get(tabId)
    const profiles = known ? [known] : await this.#d.profiles()
    for (const profile of profiles) {
      const mine = (await this.read(profile).catch(() => [])).filter((e) => e.tab_id === tabId)
      if (mine.length) return mine
    }
    return []
  }

  /** Why the trail of `profile` (or any, when omitted) is not on disk now, as answer warnings. */
  warnings (profile?: string): Warning[] {
    const out: Warning[] = []
    for (const [name, p] of this.#profiles) {
      if (!p.problem || (profile !== undefined && name !== profile)) continue
      out.push({ code: 'audit_write_failed', message: `The audit trail of profile ${name} could not be written since ${p.problem.since} (${p.problem.code}); ${p.pending.length} entries wait in memory and are retried every second.` })
    }
    return out
  }

  /** Shutdown: flush what is queued, then stop. */
  async close (): Promise<void> {
    this.#closed = true
    if (this.#timer) clearTimeout(this.#timer)
    this.#timer = undefined
    await this.flush()
  }
}
