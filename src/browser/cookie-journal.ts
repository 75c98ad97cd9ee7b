// The I/O half of the cookie record (src/core/cookie-record.ts): read the browser's jar over
// CDP, write it with the four-step durable write, and restore it into a fresh browser.
import { readFile, rename } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser } from 'puppeteer-core'
import { durableWrite } from '../store/durable-write.js'
import { browserSession } from './window-anchor.js'
import {
  COOKIES_FILE, cookieDigest, parseCookieRecord, planRestore, serializeCookieRecord, type RecordedCookie
} from '../core/cookie-record.js'

export interface JournalLogger {
  info (obj: object, msg: string): void
  warn (obj: object, msg: string): void
}

/** `not_restored`: this browser's jar was never restored from the record, so it is not written over it. */
export type RecordOutcome = 'written' | 'unchanged' | 'failed' | 'not_restored'

/** Where an unusable record is moved, so the next write does not destroy what an operator may repair. */
export const UNUSABLE_SUFFIX = '.unusable'

async function readJar (browser: Browser): Promise<RecordedCookie[]> {
  const { cookies } = await (await browserSession(browser)).send('Storage.getCookies')
  return cookies as unknown as RecordedCookie[]
}

/**
 * One profile's record. Writes are serialized; an unchanged jar is not written again. SPEC
 * section 22: the record is only ever written from a browser whose jar was first restored from
 * it (or on a profile that has none), so a host stopped while its browser starts can never
 * write an empty jar over a recorded login.
 */
export class CookieJournal {
  readonly path: string
  private lastDigest: string | undefined
  private readonly restored = new WeakSet<Browser>()
  private queue: Promise<unknown> = Promise.resolve()
  private next: { browser: Browser, run: Promise<RecordOutcome> } | undefined

  constructor (profileDir: string, private readonly log: JournalLogger, private readonly profile: string) {
    this.path = join(profileDir, COOKIES_FILE)
  }

  /** Records the jar if it changed. Never throws: a failed record is logged and retried next time. */
  record (browser: Browser, reason: string): Promise<RecordOutcome> {
    // A record that has not started yet reads the jar after this call too: share it. Eight
    // fetches answering at once then cost the browser one or two jar reads, not eight.
    if (this.next && this.next.browser === browser) return this.next.run
    const pending = { browser, run: Promise.resolve<RecordOutcome>('unchanged') }
    pending.run = this.queue.then(() => {
      if (this.next === pending) this.next = undefined
      return this.recordNow(browser, reason)
    })
    this.next = pending
    this.queue = pending.run.catch(() => undefined)
    return pending.run
  }

  private async recordNow (browser: Browser, reason: string): Promise<RecordOutcome> {
    if (!browser.connected) return 'failed'
    if (!this.restored.has(browser)) return 'not_restored'
    try {
      const jar = await readJar(browser)
      const digest = cookieDigest(jar)
      if (digest === this.lastDigest) return 'unchanged'
      const result = await durableWrite(this.path, serializeCookieRecord(jar, new Date()), { mode: 0o600 })
      this.lastDigest = digest
      if (!result.durable) this.log.warn({ profile: this.profile, code: result.error.code }, 'cookie record written but its directory sync failed')
      // Names and counts only: cookie values never reach the log.
      this.log.info({ profile: this.profile, reason, cookies: jar.length }, 'recorded the profile\'s cookies')
      return 'written'
    } catch (err) {
      this.log.warn({ profile: this.profile, reason, error: (err as Error).message }, 'could not record the profile\'s cookies')
      return 'failed'
    }
  }

  /**
   * Makes the jar what the record holds (see planRestore); returns how many cookies it set.
   * Throws when the record exists but cannot be read or applied: that browser is then never
   * recorded (the caller does not serve it either).
   */
  async restore (browser: Browser): Promise<number> {
    let text: string
    try {
      text = await readFile(this.path, 'utf8')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`the cookie record ${this.path} is unreadable (${(err as Error).message})`, { cause: err })
      // A profile that never had a record: its jar is the truth from now on.
      this.restored.add(browser)
      return 0
    }
    const parsed = parseCookieRecord(text)
    if ('error' in parsed) {
      // Not ours to delete: set it aside for the operator; the profile then has no record.
      const aside = this.path + UNUSABLE_SUFFIX
      await rename(this.path, aside)
      this.log.warn({ profile: this.profile, file: aside, error: parsed.error }, 'cookie record unusable; moved aside, nothing restored')
      this.restored.add(browser)
      return 0
    }
    const current = await readJar(browser)
    const plan = planRestore(parsed.cookies, current, Date.now() / 1000)
    const changes = [...plan.set, ...plan.remove]
    if (changes.length) {
      await (await browserSession(browser)).send('Storage.setCookies', { cookies: changes as never })
      this.log.info({ profile: this.profile, restored: plan.set.length, removed: plan.remove.length, recorded: parsed.cookies.length }, 'restored cookies the browser\'s store had lost')
    }
    // The jar now matches what the record holds (or more): no need to write it back unchanged.
    this.lastDigest = cookieDigest(await readJar(browser))
    this.restored.add(browser)
    return plan.set.length
  }
}
