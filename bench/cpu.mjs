// CPU time per process tree from /proc (Linux): where a measured window's cycles went.
import { readdirSync, readFileSync } from 'node:fs'

const TICKS = 100

function processes () {
  const out = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      out.push({ pid: Number(name), ppid: Number(rest[1]), ticks: Number(rest[11]) + Number(rest[12]) })
    } catch { /* gone */ }
  }
  return out
}

/** Ticks used so far by each named process tree. */
export function cpuTicks (roots) {
  const procs = processes()
  const children = new Map()
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p])
  const byPid = new Map(procs.map((p) => [p.pid, p]))
  const total = (pid, deep) => {
    let sum = byPid.get(pid)?.ticks ?? 0
    if (deep) for (const c of children.get(pid) ?? []) sum += total(c.pid, true)
    return sum
  }
  return Object.fromEntries(Object.entries(roots).map(([name, { pid, deep }]) => [name, total(pid, deep)]))
}

/** Cores used by each tree between two samples taken `ms` apart. */
export function coresUsed (before, after, ms) {
  return Object.fromEntries(Object.keys(after).map((k) => [k, Math.round((after[k] - before[k]) / TICKS / (ms / 1000) * 100) / 100]))
}
