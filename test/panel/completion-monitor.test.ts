// The completion monitor itself (src/panel/completion.ts) through a long watch, on a real page in a
// real Chromium: a release late in the watch gets its whole window (src/core/completion-window.ts)
// and is not absorbed into a check about to stop. The arithmetic has its own tests; this one fails
// if the monitor stops following it (a window capped from the first release, or releases that do
// not extend the running watch). The page is read, never shown, so a headless browser serves.
// A page whose whole view is one frame (docs/spec.md section 6) is watched in that frame.
import t from 'tap'
import { readFile } from 'node:fs/promises'
import { setTimeout as sleep } from 'node:timers/promises'
import pino from 'pino'
import { CompletionMonitor } from '../../src/panel/completion.js'
import { WATCH_MS } from '../../src/core/completion-window.js'
import { isHeld, newHandoff, type Handoff } from '../../src/core/handoff.js'
import type { CompletionHandoffs } from '../../src/handoffs/service.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { launchViewerBrowser } from '../helpers/panel-browser.js'

/** The handoff service's completion side, over one handoff, keeping what the monitor did. */
class OneHandoff implements CompletionHandoffs {
  checksTaken = 0
  finishedAt: number | undefined
  constructor (readonly handoff: Handoff, private readonly url: () => string) {}
  current (): Handoff | undefined { return this.handoff }
  isHeld (): boolean { return isHeld(this.handoff, Date.now()) }
  takeCheck (): boolean { this.checksTaken++; return true }
  touched (): void {}
  autoFinish (): void { this.finishedAt ??= performance.now() }
  noteChallenge (_tabId: string, _widget?: string, gateFrame?: string): void { if (gateFrame !== undefined) this.handoff.gateFrame = gateFrame; else delete this.handoff.gateFrame }
  noteFrameMovedOn (): void { this.handoff.frameMovedOn = true }
  navigatedSince (): boolean { return this.url() !== this.handoff.startUrl }
}

t.test('releases all through a watch longer than the old 15 s cap keep one check going, and the last one still sees the page get through', async (t) => {
  const server = await startFixtureServer(t, {
    '/check': { body: '<!doctype html><title>One more step</title><main><h1>One more step</h1><p>Press Continue when you are done.</p><button>Continue</button></main>' },
    '/account': { body: '<!doctype html><title>Your account</title><nav><a href="/">Home</a></nav><main><h1>Your account</h1><p>Signed in. Orders, settings and messages are below.</p></main>' }
  })
  const browser = await launchViewerBrowser(t)
  const page = await browser.newPage()
  await page.goto(`${server.url}/check`)
  const handoffs = new OneHandoff(newHandoff({ fence: 'f', tabId: 'tab-1', now: Date.now(), holdMs: 120_000, startUrl: page.url(), generation: 1, challengeSeen: true }), () => page.url())
  const monitor = new CompletionMonitor({ tab: { id: 'tab-1', page }, handoffs, now: () => Date.now(), log: pino({ level: 'silent' }) })
  t.teardown(() => monitor.dispose())

  // A person pressing again and again on a page that answers but stays put: every release comes
  // well inside the window the one before it gave, so one watch runs across them all.
  const everyMs = WATCH_MS / 2
  const started = performance.now()
  monitor.moment()
  while (performance.now() - started < 16_000) {
    await sleep(everyMs)
    monitor.moment()
  }
  const lastRelease = performance.now()
  t.equal(handoffs.finishedAt, undefined, 'the page stayed put, so nothing finished yet')
  // The last press leads somewhere, a little later: the window it opened must still be looking.
  await sleep(WATCH_MS / 2)
  await page.goto(`${server.url}/account`)
  const deadline = lastRelease + WATCH_MS + 5_000
  while (handoffs.finishedAt === undefined && performance.now() < deadline) await sleep(100)
  t.ok(handoffs.finishedAt !== undefined, `the handoff finished after a release ${Math.round(lastRelease - started)} ms into the watch`)
  t.equal(handoffs.checksTaken, 1, 'every release extended the running watch; none started another')
})

const FRAMING = (src: string): string => `<!doctype html><html><head><title>A blog</title><style>html,body{width:100%;height:100%;margin:0}</style></head><body><iframe id="mainFrame" src="${src}" style="width:100%;height:99.8%;border:0"></iframe></body></html>`
const POST = '<!doctype html><title>Field notes</title><main><h1>Field notes</h1><p>Seven herons fished the weir this morning, two more than last week.</p></main>'

t.test('a gate in a frame that fills the view finishes the handoff when the frame shows another document, though the top never moved', async (t) => {
  // A real 2025 Cloudflare "Just a moment…" at its real status, in a full-size iframe of an outer
  // page that shows nothing else (the shape of Naver Blog's, as in test/e2e/page-in-frame.test.ts).
  const gate = await readFile(new URL('../fixtures/real/cloudflare-just-a-moment-2025-kxz-1.html', import.meta.url), 'utf8')
  const server = await startFixtureServer(t, {
    '/gated': { body: FRAMING('/check') },
    '/check': { status: 403, body: gate }
  })
  const browser = await launchViewerBrowser(t)
  const page = await browser.newPage()
  await page.goto(`${server.url}/gated`)
  const startUrl = page.url()
  const handoffs = new OneHandoff(newHandoff({ fence: 'f', tabId: 'tab-1', now: Date.now(), holdMs: 120_000, startUrl, generation: 1, challengeSeen: true }), () => page.url())
  const monitor = new CompletionMonitor({ tab: { id: 'tab-1', page }, handoffs, now: () => Date.now(), log: pino({ level: 'silent' }) })
  t.teardown(() => monitor.dispose())

  // The person presses in the check; it is still there, so nothing finishes.
  monitor.moment()
  await sleep(WATCH_MS / 2)
  t.equal(handoffs.finishedAt, undefined, 'the check is still in the frame: the handoff is still held')

  // The check is passed: like Cloudflare's, it loads its own address again, which now serves the
  // post. The capture's script rewrote the frame's address in place to the one it was captured at
  // (a `__cf_chl_rt_tk` query on its own path), so that address is the one served the post and
  // reloaded: the same URL, another document.
  const [frame] = page.mainFrame().childFrames()
  t.ok(frame, 'the check is in its own frame')
  if (frame === undefined) return
  const address = frame.url()
  server.route(new URL(address).pathname, { body: POST })
  await frame.evaluate(() => { location.reload() })
  const deadline = performance.now() + WATCH_MS + 5_000
  while (handoffs.finishedAt === undefined && performance.now() < deadline) await sleep(100)
  t.ok(handoffs.finishedAt !== undefined, 'the handoff finished by itself once the frame showed the post')
  t.equal(page.url(), startUrl, 'the top document never moved: the frame alone told the check was passed')
  t.equal(page.mainFrame().childFrames()[0]?.url(), address, 'nor did the frame\'s address: its new document told it')
  t.equal(handoffs.handoff.frameMovedOn, true, 'the handoff keeps that its page moved on, for its outcome')
  t.equal(handoffs.checksTaken, 1, 'one press, one check')
})

t.test('a frame that fills the view and was never seen holding a check does not finish a handoff', async (t) => {
  const server = await startFixtureServer(t, {
    '/blog': { body: FRAMING('/posts') },
    '/posts': { body: POST },
    '/later': { body: POST.replace('Seven herons', 'Nine herons') }
  })
  const browser = await launchViewerBrowser(t)
  const page = await browser.newPage()
  await page.goto(`${server.url}/blog`)
  // A handoff that was told of a challenge (the driver's word) over a page whose frame shows a post.
  const handoffs = new OneHandoff(newHandoff({ fence: 'f', tabId: 'tab-1', now: Date.now(), holdMs: 120_000, startUrl: page.url(), generation: 1, challengeSeen: true }), () => page.url())
  const monitor = new CompletionMonitor({ tab: { id: 'tab-1', page }, handoffs, now: () => Date.now(), log: pino({ level: 'silent' }) })
  t.teardown(() => monitor.dispose())
  monitor.moment()
  await sleep(WATCH_MS / 4)
  // The frame shows another document without a check: nothing shows a check was ever passed there.
  await page.mainFrame().childFrames()[0]?.evaluate((url) => { location.replace(url) }, `${server.url}/later`)
  await sleep(WATCH_MS + 1_000)
  t.equal(handoffs.finishedAt, undefined, 'nothing finished: the person presses Done')
  t.equal(handoffs.handoff.frameMovedOn, undefined, 'and no frame moved on from a check')
  t.equal(handoffs.checksTaken, 1)
})
