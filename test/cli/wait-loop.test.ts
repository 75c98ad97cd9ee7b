import t from 'tap'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { AfhttpClient, type HandoffSummary } from '../../src/client/index.js'
import { renderProgress, waitForHandoff } from '../../src/cli/commands/fetch-wait.js'
import { ProgressLine, type Io } from '../../src/cli/output.js'
import { startHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'

const GATE = '<!doctype html><title>Just a moment...</title><p>Hang tight! We are checking your browser</p>'

function summaryOf (over: Partial<HandoffSummary>): HandoffSummary {
  return { tab_id: 'tab_1', state: 'open', handoff_fence: 'hf_1', expires_at: '2026-01-01T00:10:00.000Z', controller: 'agent', generation: 1, auto_done: false, will_check_again: true, checks_left: 12, ...over }
}

/** A clock that only moves when the wait loop sleeps. */
function fakeTime (start: number): { now: () => number, sleep: (ms: number, signal: AbortSignal) => Promise<void>, advance: (ms: number) => void } {
  let t = start
  return {
    now: () => t,
    advance: (ms) => { t += ms },
    sleep: async (ms, signal) => {
      if (signal.aborted) throw signal.reason
      t += ms
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
}

t.test('renderProgress', async (t) => {
  const now = Date.parse('2026-01-01T00:08:55.000Z')
  const open = renderProgress(summaryOf({}), 65_000, now)
  t.equal(open.text, 'waiting for a person · 1:05 elapsed · 1:05 hold left · panel not opened yet · host checking for completion (12 checks left)')
  const human = renderProgress(summaryOf({ state: 'human', will_check_again: false, checks_left: 0 }), 0, now)
  t.match(human.text, 'a person has control · host no longer checks: press Done in the panel')
  t.not(open.key, human.key, 'a change of who acts or of checking is a new line in logs')
  t.match(renderProgress(summaryOf({ state: 'human_disconnected', checks_left: 1 }), 0, now).text, "the person's panel disconnected · host checking for completion (1 check left)")
  t.match(renderProgress(summaryOf({}), 0, Date.parse('2026-01-01T00:11:00Z')).text, 'hold time is up')
})

t.test('ProgressLine', async (t) => {
  t.test('on a terminal it redraws one line', async (t) => {
    let err = ''
    const io: Io = { out: () => {}, err: (s) => { err += s }, errIsTTY: true }
    const line = new ProgressLine(io, () => 0)
    line.show('a', 'k')
    line.show('b', 'k')
    line.end()
    t.equal(err, '\r\x1b[2Ka\r\x1b[2Kb\n')
  })
  t.test('in a log it writes on change or every interval', async (t) => {
    let err = ''
    let now = 0
    const io: Io = { out: () => {}, err: (s) => { err += s }, errIsTTY: false }
    const line = new ProgressLine(io, () => now, 15_000)
    line.show('1', 'open')
    now = 1_000
    line.show('2', 'open')
    line.show('3', 'human')
    now = 17_000
    line.show('4', 'human')
    line.end()
    t.equal(err, '1\n3\n4\n')
  })
})

t.test('waitForHandoff with an injected clock', async (t) => {
  t.test('gives up on an unreachable host only after the hold has ended plus a grace period', async (t) => {
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    await new Promise<void>((resolve) => server.close(() => resolve()))
    const client = new AfhttpClient({ url: `http://127.0.0.1:${port}`, token: 'x' })
    t.teardown(() => client.close())
    const start = Date.parse('2026-01-01T00:00:00Z')
    const time = fakeTime(start)
    const lines: string[] = []
    const outcome = await waitForHandoff(client, {
      tabId: 'tab_1', expiresAt: '2026-01-01T00:01:00Z', pollMs: 1_000, now: time.now, sleep: time.sleep,
      signal: new AbortController().signal, progress: (text) => lines.push(text)
    })
    t.equal(outcome.kind, 'unreachable')
    t.equal(time.now() - start, 90_000, 'kept trying until 30 s past the hold')
    t.match(lines[0], 'host not answering (host_unreachable), retrying')
  })

  t.test('follows a real handoff to finished, with hold-left from the injected clock', async (t) => {
    const host = await startHost(t)
    const site = await startFixtureServer(t, { '/gate': { body: GATE } })
    const client = new AfhttpClient({ url: host.url, token: host.token })
    t.teardown(() => client.close())
    const res = await client.fetch({ url: `${site.url}/gate`, takeover: true })
    const tabId = res.tab_id!
    const expires = Date.parse(res.actions![0].expires_at as string)
    const time = fakeTime(expires - 125_000)
    const lines: string[] = []
    const outcome = await waitForHandoff(client, {
      tabId, pollMs: 1_000, now: time.now, signal: new AbortController().signal,
      sleep: async (ms, signal) => {
        if (lines.length === 2) await client.finishHandoff(tabId, res.actions![0].handoff_fence as string)
        await time.sleep(ms, signal)
      },
      progress: (text) => lines.push(text)
    })
    t.equal(outcome.kind, 'finished')
    t.match(lines[0], '0:00 elapsed · 2:05 hold left · panel not opened yet')
    t.match(lines[1], '0:01 elapsed · 2:04 hold left')
    t.equal(lines.length, 2)

    t.test('an aborted signal ends the wait as interrupted, leaving the handoff alone', async (t) => {
      const again = await client.fetch({ url: `${site.url}/gate`, takeover: true })
      const ac = new AbortController()
      const outcome = await waitForHandoff(client, {
        tabId: again.tab_id!, pollMs: 1_000, now: time.now, signal: ac.signal,
        sleep: async (ms, signal) => { ac.abort(); await time.sleep(ms, signal) },
        progress: () => {}
      })
      t.equal(outcome.kind, 'interrupted')
      t.equal(outcome.kind === 'interrupted' && outcome.summary?.state, 'open')
      t.equal((await client.handoffSummary(again.tab_id!)).state, 'open')
    })
  })
})
