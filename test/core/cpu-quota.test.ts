import t from 'tap'
import { cpusAllowed } from '../../src/core/cpu-quota.js'

// The files' contents as Linux writes them (cgroup v2 cpu.max; v1 cpu.cfs_quota_us and
// cpu.cfs_period_us, each with its newline).

t.test('cgroup v2: a quota is whole CPUs, rounded up; "max" is no quota', async t => {
  t.equal(cpusAllowed({ cpuMax: '100000 100000\n' }), 1, 'docker --cpus=1')
  t.equal(cpusAllowed({ cpuMax: '150000 100000\n' }), 2, '1.5 CPUs still run two threads')
  t.equal(cpusAllowed({ cpuMax: '400000 100000\n' }), 4)
  t.equal(cpusAllowed({ cpuMax: '50000 100000\n' }), 1, 'half a CPU is still one')
  t.equal(cpusAllowed({ cpuMax: 'max 100000\n' }), undefined, 'no quota')
})

t.test('cgroup v1: quota over period; -1 is no quota', async t => {
  t.equal(cpusAllowed({ cfsQuotaUs: '200000\n', cfsPeriodUs: '100000\n' }), 2)
  t.equal(cpusAllowed({ cfsQuotaUs: '-1\n', cfsPeriodUs: '100000\n' }), undefined)
  t.equal(cpusAllowed({ cfsQuotaUs: '200000\n' }), undefined, 'a quota without its period says nothing')
})

t.test('v2 is read first; nothing readable is no quota', async t => {
  t.equal(cpusAllowed({ cpuMax: '300000 100000', cfsQuotaUs: '100000', cfsPeriodUs: '100000' }), 3)
  t.equal(cpusAllowed({}), undefined)
  t.equal(cpusAllowed({ cpuMax: 'garbage' }), undefined, 'an unreadable quota is no quota')
  t.equal(cpusAllowed({ cpuMax: '0 100000' }), undefined)
})
