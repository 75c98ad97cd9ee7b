// The I/O half of the cookie record (src/core/cookie-record.ts): read the browser's jar over
// CDP, write it with the four-step durable write, and restore it into a fresh browser.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser } from 'puppeteer-core'
import { durableWrite } from '../core/durable-write.js'
import { browserSession } from './window-anchor.js'
import {
  COOKIES_FILE, cookieDigest, parseCookieRecord, planRestore, serializeCookieRecord, type RecordedCookie
} from '../core/cookie-record.js'

export interface JournalLogger {
  info (obj: object, msg: string): void
  warn (obj: object, msg: string): void
}

export type RecordOutcome = 'written' | 'unchanged' | 'failed'

async function readJar (browser: Browser): Promise<RecordedCookie[]> {
  const { cookies } = await (await browserSession(browser)).send('Storage.getCookies')
  return cookies as unknown as RecordedCookie[]
}

/** One profile's record. Writes are serialized; an unchanged jar is not written again. */
export class CookieJournal {
  readonly path: string
  private lastDigest: string | undefined
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

  /** Makes the jar what the record holds (see planRestore); returns how many cookies it set. */
  async restore (browser: Browser): Promise<number> {
    let text: string
    try {
      text = await readFile(this.path, 'utf8')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.log.warn({ profile: this.profile, error: (err as Error).message }, 'cookie record unreadable; nothing restored')
      return 0
    }
    const parsed = parseCookieRecord(text)
    if ('error' in parsed) {
      this.log.warn({ profile: this.profile, file: this.path, error: parsed.error }, 'cookie record unusable; nothing restored')
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
    return plan.set.length
  }
}
