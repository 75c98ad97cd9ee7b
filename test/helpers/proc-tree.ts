// What a process started, read from /proc: its descendants, the process groups and sessions they
// lead, and everything carrying its owner marker (docs/spec.md section 22 tests).
import { readdirSync, readFileSync } from 'node:fs'

export interface ProcInfo { pid: number, ppid: number, pgid: number, sid: number, start: string, state: string, command: string }

export function procInfo (pid: number): ProcInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim()
    return { pid, state: f[0], ppid: Number(f[1]), pgid: Number(f[2]), sid: Number(f[3]), start: f[19], command }
  } catch {
    return undefined
  }
}

export function allProcs (): ProcInfo[] {
  const out: ProcInfo[] = []
  for (const name of readdirSync('/proc')) {
    const pid = Number(name)
    if (!Number.isSafeInteger(pid) || pid <= 0) continue
    const info = procInfo(pid)
    if (info && info.state !== 'Z' && info.state !== 'X') out.push(info)
  }
  return out
}

function marked (pid: number, hostPid: number): boolean {
  try { return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(`AFHTTP_OWNER_PID=${hostPid}`) } catch { return false }
}

/**
 * Every live process that belongs to `hostPid`: its descendants, processes marked with it as
 * owner, and every member of a process group or session one of those leads.
 */
export function processesOf (hostPid: number): ProcInfo[] {
  const procs = allProcs()
  const mine = new Set<number>([hostPid])
  let grew = true
  while (grew) {
    grew = false
    for (const p of procs) {
      if (mine.has(p.pid)) continue
      if (mine.has(p.ppid) || marked(p.pid, hostPid)) { mine.add(p.pid); grew = true }
    }
  }
  const leaders = new Set([...mine].filter((pid) => pid !== hostPid))
  return procs.filter((p) => mine.has(p.pid) || leaders.has(p.pgid) || leaders.has(p.sid))
}

/** Which of these processes still run (the same process: pid and start time). */
export function stillRunning (procs: ProcInfo[]): ProcInfo[] {
  return procs.filter((p) => {
    const now = procInfo(p.pid)
    return now !== undefined && now.start === p.start && now.state !== 'Z' && now.state !== 'X'
  })
}
