// The window pool when its browser dies under it: a fetch waiting for a window that the pool was
// opening ahead must hear of it at once, not wait forever (seen once in a clean-clone run: a
// fetch that found the pool empty while a refill was under way hung after Chromium was SIGKILLed).
import t from 'tap'
import { launchViewerBrowser } from '../helpers/panel-browser.js'
import { until } from '../helpers/until.js'
import { WindowPool } from '../../src/browser/window-pool.js'

t.test('a fetch waiting on the pool\'s own refill fails fast when the browser is killed', async (t) => {
  const browser = await launchViewerBrowser(t)
  const pool = new WindowPool(browser, { size: 1 })
  pool.refill()
  // The refill is under way (a window being opened ahead); the fetch that comes now waits for it.
  const opening = (): number => (pool as unknown as { creating: Set<unknown> }).creating.size
  await until(() => opening() > 0, 'the pool opening a window ahead')
  const taking = pool.take()
  taking.catch(() => undefined)
  browser.process()!.kill('SIGKILL')
  const started = Date.now()
  let timer: NodeJS.Timeout | undefined
  const outcome = await Promise.race([
    taking.then(() => 'a window', (err: Error) => `failed: ${err.message}`),
    new Promise<string>((resolve) => { timer = setTimeout(() => resolve('still waiting'), 10_000) })
  ])
  clearTimeout(timer)
  t.match(outcome, /^failed: .*(Browser closed|disconnected|Target closed|Connection closed)/i, `the waiting fetch was told the browser went away (${outcome})`)
  t.ok(Date.now() - started < 10_000, 'at once, not at a deadline')
})

t.test('a fetch waiting for a window when the pool is stopped fails at once', async (t) => {
  const browser = await launchViewerBrowser(t)
  const pool = new WindowPool(browser, { size: 1 })
  pool.refill()
  await until(() => (pool as unknown as { creating: Set<unknown> }).creating.size > 0, 'the pool opening a window ahead')
  const taking = pool.take()
  taking.catch(() => undefined)
  await pool.stop(false)
  await t.rejects(taking, /Browser closed/, 'the waiter is rejected with a lost-browser error')
})
