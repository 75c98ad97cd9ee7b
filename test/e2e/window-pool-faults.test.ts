// The window pool when its browser dies under it: a fetch waiting for a window that the pool was
// opening ahead must hear of it at once, not wait forever (seen once in a clean-clone run: a
// fetch that found the pool empty while a refill was under way hung after Chromium was SIGKILLed).
import { createHook } from 'node:async_hooks'
import t from 'tap'
import { launchViewerBrowser } from '../helpers/panel-browser.js'
import { until } from '../helpers/until.js'
import { WindowPool } from '../../src/browser/window-pool.js'
import { openWindow } from '../../src/browser/open-window.js'
import { browserSession } from '../../src/browser/window-anchor.js'

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

t.test('a window opening as the browser is killed leaves no timer behind to hold the process open', async (t) => {
  // puppeteer's newPage waits for the new target under a 30 s timer it never cancels: a host
  // whose browser died while a window opened stayed alive half a minute after close.
  const pending = new Map<number, number>()
  let watching = false
  const hook = createHook({
    init (id, type, _trigger, resource) { if (watching && type === 'Timeout' && (resource as { _idleTimeout: number })._idleTimeout >= 10_000) pending.set(id, (resource as { _idleTimeout: number })._idleTimeout) },
    destroy (id) { pending.delete(id) }
  })
  hook.enable()
  t.teardown(() => { hook.disable() })
  const rounds = 3
  let failed = 0
  let slowest = 0
  for (let round = 0; round < rounds; round++) {
    const browser = await launchViewerBrowser(t)
    // The browser dies the moment it has answered Target.createTarget: the new window exists,
    // and whoever opens it is now waiting for its target to come up. (Both ways of sending it,
    // puppeteer's connection and a session of the browser target, are watched.)
    const session = await browserSession(browser)
    for (const sender of [session, session.connection()!] as Array<{ send: (...args: any[]) => Promise<unknown> }>) {
      const send = sender.send.bind(sender)
      sender.send = async (...args) => {
        const answer = await send(...args)
        if (args[0] === 'Target.createTarget') browser.process()!.kill('SIGKILL')
        return answer
      }
    }
    watching = true
    const started = Date.now()
    await openWindow(browser, false).then(() => undefined, () => { failed++ })
    slowest = Math.max(slowest, Date.now() - started)
    watching = false
  }
  await new Promise((resolve) => setTimeout(resolve, 100))
  hook.disable()
  t.equal(failed, rounds, 'every kill landed while a window opened')
  // (A wait that ran out its own long timer would leave none pending: it must not have waited.
  // The bound is half of puppeteer's 30 s timer, so a loaded machine's slow kill is not read as one.)
  t.ok(slowest < 15_000, `each open failed at once (slowest ${slowest} ms), not at a timer`)
  t.same([...pending.values()], [], 'no long timer is left pending')
})
