import t from 'tap'
import { statusIsNewer } from '../../src/core/panel-status.js'

t.test('a status answer counts only if its request left after the socket\'s latest state', async (t) => {
  t.ok(statusIsNewer(10, undefined), 'no socket state yet: the poll is all there is')
  t.ok(statusIsNewer(20, 10), 'asked after the socket spoke: at least as new')
  t.notOk(statusIsNewer(10, 20), 'asked before the socket\'s take, answered after it: older')
  t.notOk(statusIsNewer(10, 10), 'the same instant cannot be ordered: the socket wins')
})
