// How many CPUs a container's CPU quota allows. Node's availableParallelism() counts the machine's
// cores, not the quota a container runs under (`docker run --cpus=1` on a 16-core machine reports
// 16), so what sizes itself by the cores (the recognition threads, src/fetch/recognize.ts) reads
// the quota too. Linux keeps it in the cgroup's files: cgroup v2's `cpu.max` ("max 100000", or
// "150000 100000": quota and period in microseconds), cgroup v1's `cpu.cfs_quota_us` (-1: none)
// and `cpu.cfs_period_us`.

/** The cgroup files' contents, as read (undefined: the file is not there). */
export interface CgroupCpuFiles {
  /** cgroup v2 `cpu.max`. */
  cpuMax?: string
  /** cgroup v1 `cpu.cfs_quota_us`. */
  cfsQuotaUs?: string
  /** cgroup v1 `cpu.cfs_period_us`. */
  cfsPeriodUs?: string
}

/** Whole CPUs the quota allows (at least one), or undefined when there is no quota or it cannot be read. */
export function cpusAllowed (files: CgroupCpuFiles): number | undefined {
  if (files.cpuMax !== undefined) {
    const [quota, period] = files.cpuMax.trim().split(/\s+/)
    return quota === 'max' ? undefined : cpusOf(quota, period ?? '100000')
  }
  if (files.cfsQuotaUs !== undefined && files.cfsPeriodUs !== undefined) return cpusOf(files.cfsQuotaUs.trim(), files.cfsPeriodUs.trim())
  return undefined
}

function cpusOf (quota: string, period: string): number | undefined {
  const q = Number(quota)
  const p = Number(period)
  if (!Number.isInteger(q) || !Number.isInteger(p) || q <= 0 || p <= 0) return undefined
  // A part of a CPU still runs a thread; 1.5 CPUs run two at a time, slower.
  return Math.max(1, Math.ceil(q / p))
}
