// The handoff service on fakes (test/handoffs/fakes.ts): a manual clock, plain-object pages, a
// lifecycle that keeps what it is told. What a driver, a viewer and completion detection see
// (docs/spec.md section 7), and the transitions each step tells (docs/architecture.md). No browser.
import t from 'tap'
import { MAX_FINISHED_PER_TAB } from '../../src/core/handoff.js'
import type { Clock } from '../../src/core/clock.js'
import { HandoffRegistry } from '../../src/handoffs/registry.js'
import type { HandoffSummary } from '../../src/schemas/index.js'
import { afhttpErrorOf, fakeRegistry, secretOf, FakeLifecycle, FakeLiveChecks, FakeLog, FakeTabs, HOLD_MS, PUBLIC_URL } from './fakes.js'

t.test('a first mint opens a handoff and tells handoff.opened, the panel URL beside the payload', async (t) => {
  const { registry, clock, tabs, lifecycle, checks, log, metrics } = fakeRegistry()
  const tab = tabs.add('t1', 'https://shop.example/cart', 'work')
  const opened = clock.now()
  const changes: Array<[string, string]> = []
  registry.onChange((tabId, s) => changes.push([tabId, s.state]))

  const res = await registry.mint('t1', { instructions: 'Sign in, then press Done.' })

  t.match(res.takeover_url_secret, new RegExp(`^${PUBLIC_URL}/takeover/[A-Za-z0-9_-]{20,}$`))
  t.equal(res.expires_at, new Date(opened + HOLD_MS).toISOString(), 'the hold is the configured one')
  t.same(res.surface, { tab_id: 't1', url: 'https://shop.example/cart', aim: { kind: 'viewport' } })
  t.same(res.warnings, [])
  t.equal(tab.retained, true, 'a handed-off tab is kept open')
  t.equal(registry.isHeld('t1'), true)
  t.equal(registry.current('t1')?.fence, res.handoff_fence)
  t.equal(registry.summary('t1').state, 'open')
  t.equal(registry.summary('t1').instructions, 'Sign in, then press Done.')
  t.equal(checks.targets.length, 1, 'the live checks ran once')
  t.equal(checks.targets[0].page, tab.page, 'on the tab\'s page')
  t.equal(metrics.length, 1, 'and the metrics heard them')

  t.same(lifecycle.types(), ['handoff.opened'])
  const [told] = lifecycle.told
  t.same(told.where, { tab_id: 't1', profile: 'work' })
  t.same(told.data, {
    handoff_fence: res.handoff_fence,
    expires_at: res.expires_at,
    mode: 'control',
    instructions: 'Sign in, then press Done.',
    surface: res.surface,
    reason: 'driver'
  })
  t.notOk(JSON.stringify(told.data).includes('/takeover/'), 'no secret inside the payload')
  t.equal(told.extras.panelUrl?.url, res.takeover_url_secret, 'the URL rides beside it')
  t.equal(told.extras.panelUrl?.spent(), undefined, 'and reads as unspent until exchanged')
  registry.consumeSecret(secretOf(res))
  t.equal(told.extras.panelUrl?.spent(), 'used', 'then as used')

  t.same(changes, [['t1', 'open']], 'the summary\'s listeners heard the new handoff')
  t.ok(log.lines.some((l) => l.msg === 'handoff opened' && (l.obj as { tab_id?: string }).tab_id === 't1'))
})

t.test('a second mint while open reissues: same fence and expiry, a fresh link, handoff.url_reissued', async (t) => {
  const { registry, clock, tabs, lifecycle } = fakeRegistry()
  tabs.add('t1')
  const first = await registry.mint('t1')
  clock.advance(5_000)
  const second = await registry.mint('t1', { challengeSeen: true })
  t.equal(second.handoff_fence, first.handoff_fence)
  t.equal(second.expires_at, first.expires_at, 'a reissue does not extend the hold')
  t.not(second.takeover_url_secret, first.takeover_url_secret)
  t.equal(registry.secretProblem(secretOf(first)), 'revoked', 'the unused link died')
  t.equal(registry.secretProblem(secretOf(second)), undefined)
  t.same(lifecycle.types(), ['handoff.opened', 'handoff.url_reissued'])
  t.equal(lifecycle.told[1].data.reason, 'challenge', 'the challenge seen on the second mint is kept')
  t.equal(lifecycle.told[1].data.handoff_fence, first.handoff_fence)

  const view = await registry.mint('t1', { mode: 'view' })
  t.equal(registry.secretMode(secretOf(view)), 'view')
  t.equal(registry.secretProblem(secretOf(second)), undefined, 'a view mint leaves the control link working')

  const refused = await afhttpErrorOf(() => registry.mint('t1', { reissueOf: 'another-fence' }))
  t.equal(refused.code, 'handoff_expired', 'reissueOf never opens a new handoff')
  t.equal(registry.current('t1')?.fence, first.handoff_fence)
})

t.test('a tab with MAX_FINISHED_PER_TAB finished handoffs is refused handoff_capacity before any live check', async (t) => {
  const { registry, tabs, checks } = fakeRegistry()
  tabs.add('t1')
  for (let i = 0; i < MAX_FINISHED_PER_TAB; i++) {
    const { handoff_fence: fence } = await registry.mint('t1')
    registry.finish('t1', fence, 'driver')
    await registry.settled('t1')
  }
  const ran = checks.targets.length
  const err = await afhttpErrorOf(() => registry.mint('t1'))
  t.equal(err.code, 'handoff_capacity')
  t.equal(err.message, `This tab already has ${MAX_FINISHED_PER_TAB} finished handoffs; close it and fetch again in a new tab.`)
  t.same(err.details, { limit: MAX_FINISHED_PER_TAB })
  t.equal(checks.targets.length, ran, 'no live check ran for a tab that is full')
  // Each handoff begins one generation after the last one's ending (which moved it once more).
  t.equal(registry.summary('t1').generation, 2 * MAX_FINISHED_PER_TAB)
})

t.test('a failed live check refuses the mint as takeover_unavailable and opens nothing', async (t) => {
  const { registry, tabs, checks, lifecycle } = fakeRegistry()
  const tab = tabs.add('t1')
  checks.checks = [{ name: 'browser_connected', ok: true, ms: 0 }, { name: 'screencast_frame', ok: false, ms: 4000, error: 'no frame within 4000 ms' }]
  const err = await afhttpErrorOf(() => registry.mint('t1'))
  t.equal(err.code, 'takeover_unavailable')
  t.equal(err.retryable, true)
  t.equal(err.message, 'Live check screencast_frame failed: no frame within 4000 ms')
  t.equal(err.details.check, 'screencast_frame')
  t.same(err.details.checks, checks.checks)
  t.equal(registry.current('t1'), undefined, 'no record')
  t.equal(tab.retained, false)
  t.same(lifecycle.told, [], 'no transition')

  checks.checks = [{ name: 'browser_connected', ok: true, ms: 0 }]
  checks.during = () => { tabs.close('t1', 'page_closed') }
  const gone = await afhttpErrorOf(() => registry.mint('t1'))
  t.equal(gone.code, 'tab_not_found', 'a tab that closed during the checks gets no handoff')
  t.equal(gone.message, 'The tab closed while its handoff was being prepared.')
  t.equal(registry.current('t1'), undefined)
})

t.test('finish: a stale fence, an ended handoff and an expired hold each have their code', async (t) => {
  const { registry, clock, tabs, lifecycle } = fakeRegistry()
  tabs.add('t1')
  t.equal((await afhttpErrorOf(() => registry.finish('t1', 'f', 'driver'))).code, 'handoff_not_found')
  const { handoff_fence: fence } = await registry.mint('t1')

  const stale = await afhttpErrorOf(() => registry.finish('t1', 'not-the-fence', 'driver'))
  t.equal(stale.code, 'handoff_fence_stale')
  t.equal(stale.message, 'That fence is not the current handoff of this tab; read GET /v1/tabs/:tab_id/handoff.')
  t.equal(registry.isHeld('t1'), true, 'a stale fence changes nothing')

  const summary = registry.finish('t1', fence, 'driver')
  t.equal(summary.state, 'finished')
  t.equal(summary.finish_reason, 'driver')
  t.equal(registry.isHeld('t1'), false, 'the hold is off at once')
  await registry.settled('t1')
  const finished = lifecycle.of('handoff.finished')
  t.equal(finished.length, 1)
  t.equal(finished[0].data.by, 'driver')
  t.equal(finished[0].data.held_ms, 0)
  t.same(finished[0].where, { tab_id: 't1', profile: 'default' })

  const again = await afhttpErrorOf(() => registry.finish('t1', fence, 'driver'))
  t.equal(again.code, 'handoff_fence_stale')
  t.equal(again.message, 'This handoff is already finished; re-fetch or snapshot the tab.')
  t.same(again.details, { tab_id: 't1', state: 'finished' })

  const next = await registry.mint('t1')
  t.not(next.handoff_fence, fence, 'a new handoff has a new fence')
  clock.advance(HOLD_MS)
  const expired = await afhttpErrorOf(() => registry.finish('t1', next.handoff_fence, 'driver'))
  t.equal(expired.code, 'handoff_expired')
  t.equal(expired.message, `The hold expired at ${next.expires_at}; re-fetch or snapshot the tab before acting on it.`)
})

t.test('the hold\'s own timer tells handoff.expired once, when the clock passes expires_at', async (t) => {
  const { registry, clock, tabs, lifecycle, log } = fakeRegistry()
  const tab = tabs.add('t1')
  const res = await registry.mint('t1')
  clock.advance(HOLD_MS - 1)
  t.same(lifecycle.of('handoff.expired'), [], 'not a moment early')
  t.equal(registry.isHeld('t1'), true)
  clock.advance(1)
  const expired = lifecycle.of('handoff.expired')
  t.equal(expired.length, 1)
  t.same(expired[0].where, { tab_id: 't1', profile: 'default' })
  t.equal(expired[0].data.state, 'expired')
  t.equal(expired[0].data.handoff_fence, res.handoff_fence)
  t.equal(expired[0].data.by, 'host')
  t.equal(expired[0].data.held_ms, HOLD_MS)
  t.equal(expired[0].data.tab_id, undefined, 'the tab is the transition\'s, not repeated in its payload')
  t.equal(registry.isHeld('t1'), false)
  t.equal(log.messages().filter((m) => m === 'handoff hold expired').length, 1)

  clock.advance(HOLD_MS * 3)
  t.equal(lifecycle.of('handoff.expired').length, 1, 'told once')
  tab.fake.closed = true
  registry.tabClosed(tab, 'reaper')
  t.same(lifecycle.types(), ['handoff.opened', 'handoff.expired', 'handoff.revoked'], 'a later close revokes it, and expired is not told again')
})

t.test('an ending after the deadline, before the timer ran, tells expired first', async (t) => {
  // A clock whose timers never fire on their own: the ending finds the deadline passed.
  let now = Date.parse('2026-01-01T00:00:00Z')
  const lazyClock: Clock = { now: () => now, at: () => () => undefined }
  const tabs = new FakeTabs()
  const lifecycle = new FakeLifecycle()
  const checks = new FakeLiveChecks()
  const registry = new HandoffRegistry({ clock: lazyClock, tabs, lifecycle, log: new FakeLog(), settings: () => ({ handoffHoldMs: HOLD_MS, publicUrl: PUBLIC_URL }), runLiveChecks: checks.run })
  const tab = tabs.add('t1')
  await registry.mint('t1')
  now += HOLD_MS + 10
  tab.fake.closed = true
  registry.tabClosed(tab, 'page_closed')
  t.same(lifecycle.types(), ['handoff.opened', 'handoff.expired', 'handoff.revoked'])
  const revoked = lifecycle.of('handoff.revoked')[0]
  t.equal(revoked.data.finish_reason, 'tab_closed')
  t.equal(revoked.data.held_ms, null, 'a revoke after the expiry has no held duration')
})

t.test('a control change tells handoff.control with the viewer and the new generation', async (t) => {
  const { registry, tabs, lifecycle } = fakeRegistry()
  tabs.add('t1')
  const res = await registry.mint('t1')
  const generation = registry.summary('t1').generation
  const heard: string[] = []
  registry.onChange((_tab, s) => heard.push(s.controller))

  const take = registry.control('t1', { type: 'take', viewerId: 'v1' })
  t.equal(take.ok, true)
  t.same(lifecycle.of('handoff.control').map((x) => x.data), [{ handoff_fence: res.handoff_fence, controller: 'human', generation: generation + 1, state: 'human', viewer_id: 'v1' }])
  t.same(heard, ['human'])

  const refused = registry.control('t1', { type: 'take', viewerId: 'v2' })
  t.same(refused.ok ? 'ok' : refused.reason, 'held_by_other')
  const same = registry.control('t1', { type: 'take', viewerId: 'v1' })
  t.equal(same.ok, true)
  t.equal(lifecycle.of('handoff.control').length, 1, 'a refusal or no change tells nothing')

  registry.control('t1', { type: 'disconnect', viewerId: 'v1' })
  t.same(lifecycle.of('handoff.control').at(-1)?.data, { handoff_fence: res.handoff_fence, controller: 'human_disconnected', generation: generation + 2, state: 'human_disconnected', viewer_id: 'v1' })
  t.equal((await afhttpErrorOf(() => registry.control('nope', { type: 'take', viewerId: 'v1' }))).code, 'handoff_not_found')
})

t.test('only the viewer in control may press Done or decline; theirs finishes the handoff as the person\'s', async (t) => {
  const { registry, tabs, lifecycle } = fakeRegistry()
  tabs.add('t1')
  await registry.mint('t1')
  registry.control('t1', { type: 'take', viewerId: 'v1' })

  const done = await afhttpErrorOf(() => registry.finishByViewer('t1', 'v2'))
  t.equal(done.code, 'panel_control_held')
  t.equal(done.message, 'Another viewer is driving this tab; only they can press Done.')
  t.same(done.details, { tab_id: 't1' })
  const decline = await afhttpErrorOf(() => registry.declineByViewer('t1', 'v2', 'no'))
  t.equal(decline.message, 'Another viewer is driving this tab; only they can decline.')
  t.equal(registry.isHeld('t1'), true, 'a refused Done changes nothing')

  const s = registry.declineByViewer('t1', 'v1', 'I do not have the code')
  t.equal(s.finish_reason, 'human_declined')
  t.equal(s.human_note, 'I do not have the code')
  await registry.settled('t1')
  const finished = lifecycle.of('handoff.finished')
  t.equal(finished.length, 1)
  t.equal(finished[0].data.by, 'person')
  t.equal((await afhttpErrorOf(() => registry.finishByViewer('t1', 'v1'))).code, 'handoff_expired', 'an ended handoff takes no viewer action')
})

t.test('a secret is exchanged once and tells handoff.exchanged with the viewer', async (t) => {
  const { registry, tabs, lifecycle } = fakeRegistry()
  tabs.add('t1', 'https://shop.example/', 'work')
  const res = await registry.mint('t1')
  const secret = secretOf(res)
  t.equal(registry.peekSecret(secret)?.fence, res.handoff_fence)
  const h = registry.consumeSecret(secret, { remoteAddress: '10.0.0.7', userAgent: 'x'.repeat(400) })
  t.equal(h.fence, res.handoff_fence)
  const exchanged = lifecycle.of('handoff.exchanged')
  t.equal(exchanged.length, 1)
  t.same(exchanged[0].where, { tab_id: 't1', profile: 'work' })
  t.same(exchanged[0].data, { handoff_fence: res.handoff_fence, mode: 'control', remote_address: '10.0.0.7', user_agent: 'x'.repeat(256) })
  const used = await afhttpErrorOf(() => registry.consumeSecret(secret))
  t.equal(used.code, 'handoff_secret_invalid')
  t.equal(used.message, 'This panel link is used.')
  t.same(used.details, { reason: 'used' })
  const unknown = await afhttpErrorOf(() => registry.consumeSecret('not-a-secret'))
  t.equal(unknown.message, 'This panel link was already used, revoked or has expired.', 'an unknown link gets the general wording')
})

t.test('the outcome: where the page ended, whether it navigated, which cookies the person set', async (t) => {
  const { registry, tabs, lifecycle } = fakeRegistry()
  const tab = tabs.add('t1', 'https://shop.example/login')
  tab.fake.jar = [{ name: 'seen', domain: 'shop.example', path: '/', value: '1' }]
  const { handoff_fence: fence } = await registry.mint('t1')
  t.equal(registry.navigatedSince('t1'), false)
  tab.fake.navigate('https://shop.example/account?id=7')
  tab.fake.jar = [{ name: 'seen', domain: 'shop.example', path: '/', value: '1' }, { name: 'session', domain: 'shop.example', path: '/', value: 's' }]
  t.equal(registry.navigatedSince('t1'), true)
  t.same(lifecycle.of('handoff.navigated').map((x) => x.data), [{ handoff_fence: fence, origin: 'https://shop.example' }], 'the audit sees the origin only')

  registry.finish('t1', fence, 'driver')
  t.equal(tab.fake.watchers, 0, 'the page watch stopped with the hold')
  t.same(lifecycle.of('handoff.finished'), [], 'the ending is told once the jar answered')
  await registry.settled('t1')
  const [finished] = lifecycle.of('handoff.finished')
  t.same(finished.data.outcome, { final_url: 'https://shop.example/account?id=7', navigated: true, cookies_set: ['session'] })
  tab.fake.navigate('https://elsewhere.example/')
  t.equal(lifecycle.of('handoff.navigated').length, 1, 'nothing after the ending')
})

t.test('a summary read while the ending reads its outcome answers once the outcome is read', async (t) => {
  const { registry, tabs, lifecycle } = fakeRegistry()
  const tab = tabs.add('t1', 'https://shop.example/login')
  const { handoff_fence: fence } = await registry.mint('t1')
  tab.fake.jar = [{ name: 'session', domain: 'shop.example', path: '/', value: 's' }]
  let answer = (): void => {}
  tab.fake.jarAnswers = new Promise((resolve) => { answer = resolve })

  registry.finish('t1', fence, 'driver')
  t.same(registry.summary('t1').outcome?.cookies_set, [], 'the record is ended before the jar answers')
  let read: HandoffSummary | undefined
  const reading = registry.settledSummary('t1').then((s) => { read = s })
  await new Promise((resolve) => setImmediate(resolve))
  t.equal(read, undefined, 'the settled summary waits for the jar')
  t.same(lifecycle.of('handoff.finished'), [], 'and so does the ending\'s event')
  answer()
  await reading
  t.equal(read?.state, 'finished')
  t.same(read?.outcome?.cookies_set, ['session'], 'then it carries the cookie names the person set')
  t.same(lifecycle.of('handoff.finished')[0]?.data.outcome, read?.outcome, 'the same outcome as the event')
})

t.test('a mint answers once the jar as the handoff began is read, so a cookie set right after it is the handoff\'s', async (t) => {
  const { registry, tabs } = fakeRegistry()
  const tab = tabs.add('t1', 'https://shop.example/login')
  let answer = (): void => {}
  tab.fake.jarAnswers = new Promise((resolve) => { answer = resolve })
  let minted = false
  const minting = registry.mint('t1').then((m) => { minted = true; return m })
  await new Promise((resolve) => setImmediate(resolve))
  t.notOk(minted, 'the mint waits for the starting jar')
  answer()
  const { handoff_fence: fence } = await minting
  tab.fake.jar = [{ name: 'session', domain: 'shop.example', path: '/', value: 's' }]
  registry.finish('t1', fence, 'driver')
  t.same((await registry.settledSummary('t1')).outcome?.cookies_set, ['session'], 'a cookie set the moment the URL is out counts')
})

t.test('completion detection: finite checks, a challenge noted, an auto finish', async (t) => {
  const { registry, tabs, lifecycle } = fakeRegistry()
  tabs.add('t1')
  await registry.mint('t1')
  const left = registry.current('t1')!.checksLeft
  t.equal(registry.takeCheck('t1'), true)
  t.equal(registry.current('t1')!.checksLeft, left - 1)
  registry.noteChallenge('t1', '#challenge')
  t.equal(registry.current('t1')!.challengeSeen, true)
  t.equal(registry.current('t1')!.widgetSelector, '#challenge')
  registry.noteChallenge('t1', undefined, '1765000000000.5 https://check.test/')
  t.equal(registry.current('t1')!.gateFrame, '1765000000000.5 https://check.test/', 'the frame document a challenge was seen in is kept on the handoff')
  t.equal(registry.current('t1')!.widgetSelector, '#challenge', 'a challenge seen in a frame with no widget of its own leaves the aim as it was')
  registry.noteChallenge('t1')
  t.equal(registry.current('t1')!.gateFrame, undefined, 'a challenge then seen in the top document takes the handoff out of the frame')
  t.equal(registry.current('t1')!.widgetSelector, undefined, "and the frame's widget is no aim there")
  registry.noteChallenge('t1', '#top-challenge')
  t.equal(registry.current('t1')!.widgetSelector, '#top-challenge', 'a widget seen in the top document is')
  registry.noteChallenge('t1', undefined, '1765000000000.5 https://check.test/')
  registry.noteFrameMovedOn('t1')
  t.equal(registry.navigatedSince('t1'), false, 'the frame that fills the view moved on: the top document did not, and completion reads each look itself')
  registry.warn('t1', { code: 'takeover_selector_missed', message: 'm' })
  registry.warn('t1', { code: 'takeover_selector_missed', message: 'm' })
  t.equal(registry.summary('t1').warnings?.length, 1, 'a warning is added once per code')
  registry.autoFinish('t1')
  t.equal(registry.summary('t1').finish_reason, 'auto_detected')
  t.equal(registry.summary('t1').auto_done, true)
  t.equal(registry.takeCheck('t1'), false, 'an ended handoff has no checks')
  await registry.settled('t1')
  t.equal(lifecycle.of('handoff.finished')[0].data.by, 'host')
  t.match(lifecycle.of('handoff.finished')[0].data.outcome, { navigated: true }, 'its outcome says the page moved on')
})

t.test('shutdown revokes every open handoff at once, and its links die', async (t) => {
  const { registry, tabs, lifecycle } = fakeRegistry()
  tabs.add('t1', 'https://a.example/', 'p1')
  tabs.add('t2', 'https://b.example/', 'p2')
  const a = await registry.mint('t1')
  await registry.mint('t2')
  const shutdown = registry.shutdown()
  // Told at once (no jar read on the way out), in order with the close.
  t.same(lifecycle.of('handoff.revoked').map((x) => [x.where.tab_id, x.where.profile, x.data.finish_reason, x.data.by, x.data.state]), [
    ['t1', 'p1', 'shutdown', 'host', 'revoked'],
    ['t2', 'p2', 'shutdown', 'host', 'revoked']
  ])
  await shutdown
  t.equal(registry.isHeld('t1'), false)
  t.equal(registry.isHeld('t2'), false)
  const secret = secretOf(a)
  t.equal(registry.secretProblem(secret), 'revoked')
  t.equal((await afhttpErrorOf(() => registry.consumeSecret(secret))).message, 'This panel link is revoked.')
})

t.test('a listener of the summary that throws is logged and the others still hear', async (t) => {
  const { registry, tabs, log } = fakeRegistry()
  tabs.add('t1')
  const heard: string[] = []
  registry.onChange(() => { throw new Error('boom') })
  registry.onChange((tabId) => heard.push(tabId))
  await registry.mint('t1')
  t.same(heard, ['t1'])
  t.equal(log.lines.filter((l) => l.level === 'error' && l.msg === 'handoff listener failed').length, 1)
})

t.test('a region that matches nothing is warned about, and the minted URL follows the settings of the moment', async (t) => {
  const settings = { handoffHoldMs: 1_000, publicUrl: 'http://127.0.0.1:0' }
  const { registry, tabs } = fakeRegistry(settings)
  tabs.add('t1')
  settings.publicUrl = 'http://127.0.0.1:43210' // the port became known when the server listened
  const res = await registry.mint('t1', { region: '#login' })
  t.match(res.takeover_url_secret, /^http:\/\/127\.0\.0\.1:43210\/takeover\//)
  t.same(res.surface.aim, { kind: 'viewport', missed: true })
  t.same(res.warnings.map((w) => w.code), ['takeover_selector_missed'])
  t.same(registry.summary('t1').warnings?.map((w) => w.code), ['takeover_selector_missed'])
})
