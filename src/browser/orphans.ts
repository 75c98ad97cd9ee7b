// docs/spec.md section 13: a host killed without cleaning up (SIGKILL, OOM) leaves its Chromium and Xvfb
// running, reparented to init, still holding the profile. Every process the host starts carries
// an owner marker in its environment (inherited by Chromium's own children); a later host on
// the same profiles directory ends exactly the processes whose marked owner is dead, and
// nothing else: a Chromium without the marker, or whose owner lives, is never touched.
import { readdir, readFile } from 'node:fs/promises'
import { readFileSync } from 'node:fs'

const OWNER_PID = 'AFHTTP_OWNER_PID'
const OWNER_START = 'AFHTTP_OWNER_START'
const OWNER_ROOT = 'AFHTTP_OWNER_ROOT'

export interface OwnerMarker { pid: number, start: string, root: string }
export interface Orphan { pid: number, command: string, owner: OwnerMarker }

/** Fields of /proc/<pid>/stat after the command (which may itself hold spaces and parentheses). */
function statFields (pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return text.slice(text.lastIndexOf(')') + 2).split(' ')
  } catch {
    return undefined
  }
}

/** Start time in clock ticks since boot: tells a live owner from a new process reusing its pid. */
function startTicks (pid: number): string | undefined {
  return statFields(pid)?.[19]
}

function isRunning (pid: number): boolean {
  const fields = statFields(pid)
  return fields !== undefined && fields[0] !== 'Z' && fields[0] !== 'X'
}

/** The environment entries that mark a child of this host process. */
export function ownerEnv (root: string): Record<string, string> {
  return { [OWNER_PID]: String(process.pid), [OWNER_START]: startTicks(process.pid) ?? '', [OWNER_ROOT]: root }
}

/** The same marker as `KEY=VALUE` entries, as the watchdog matches them (src/browser/watchdog.ts). */
export function ownerMarkers (root: string): string[] {
  return Object.entries(ownerEnv(root)).map(([k, v]) => `${k}=${v}`)
}

/** Reads the marker out of a NUL-separated environment block; undefined when unmarked. */
export function parseOwnerMarker (environ: string): OwnerMarker | undefined {
  const vars = new Map<string, string>()
  for (const entry of environ.split('\0')) {
    const eq = entry.indexOf('=')
    if (eq > 0) vars.set(entry.slice(0, eq), entry.slice(eq + 1))
  }
  const pid = Number(vars.get(OWNER_PID))
  const root = vars.get(OWNER_ROOT)
  if (!Number.isSafeInteger(pid) || pid <= 0 || !root) return undefined
  return { pid, start: vars.get(OWNER_START) ?? '', root }
}

/** A marked owner is alive only if its pid runs and started when the marker says. */
export function ownerAlive (owner: OwnerMarker): boolean {
  if (!isRunning(owner.pid)) return false
  return owner.start === '' || startTicks(owner.pid) === owner.start
}

/** Running processes started by a now-dead afhttp host on this profiles directory. */
export async function findOrphans (root: string): Promise<Orphan[]> {
  let entries: string[]
  try { entries = await readdir('/proc') } catch { return [] } // no procfs: nothing to find
  const found: Orphan[] = []
  for (const name of entries) {
    const pid = Number(name)
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) continue
    const environ = await readFile(`/proc/${pid}/environ`, 'latin1').catch(() => '')
    const owner = parseOwnerMarker(environ)
    if (!owner || owner.root !== root || owner.pid === process.pid || ownerAlive(owner)) continue
    if (!isRunning(pid)) continue
    const command = await readFile(`/proc/${pid}/comm`, 'utf8').then((c) => c.trim(), () => '?')
    found.push({ pid, command, owner })
  }
  return found
}

/** SIGKILLs the orphans and waits (bounded) until none runs; returns what it ended. */
export async function endOrphans (root: string, timeoutMs = 5_000): Promise<Orphan[]> {
  const orphans = await findOrphans(root)
  for (const o of orphans) {
    try { process.kill(o.pid, 'SIGKILL') } catch { /* already gone */ }
  }
  const deadline = Date.now() + timeoutMs
  while (orphans.some((o) => isRunning(o.pid)) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  return orphans
}
