// docs/spec.md section 22, for tests: a test file killed by tap's timeout (SIGALRM, then SIGKILL) runs
// no teardown, so whatever it started would keep running and slow every later file. Importing
// this module marks the test process's environment with AFHTTP_TEST_GUARD (inherited by every
// Chromium, Xvfb and host process the file starts, in or out of process) and starts a watchdog
// that ends everything carrying the mark once the test process is gone, however it ended.
// Helpers that start processes (host.ts, host-process.ts, panel-browser.ts, cli/_run.ts)
// import it; a spawn that builds its own environment passes `guardEnv()` along.
import { randomUUID } from 'node:crypto'
import { startWatchdog } from '../../src/browser/watchdog.js'

const KEY = 'AFHTTP_TEST_GUARD'
// Always this process's own value: one inherited from a parent test would let our watchdog end
// the parent's processes.
const value = `${process.pid}-${randomUUID()}`
process.env[KEY] = value
startWatchdog([`${KEY}=${value}`])

/** The mark, for a spawn that does not pass process.env through. */
export function guardEnv (): Record<string, string> {
  return { [KEY]: value, ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}) }
}
