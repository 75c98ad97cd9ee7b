// The host's half of "sharp when zoomed" (docs/panel.md), on a real tab of a real headful host
// whose page keeps changing: every ask gets a still of exactly the clip asked for, at the
// density asked for; the frames of the clip that Chromium's screencast emits while a still is
// taken reach no viewer, and the stream goes on after them.
import t from 'tap'
import { decodeFrame, type FrameHeader } from '../../src/panel/frame-codec.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { startHost } from '../helpers/host.js'

const PAGE = `<!doctype html><title>Ticking</title><body style="margin:0;font:14px sans-serif">
${'<p>Please wait while we check your browser. '.repeat(40)}</p>
<div id="tick" style="position:fixed;left:420px;top:120px;font:32px monospace"></div>
<script>setInterval(() => { tick.textContent = String(Date.now() % 100000) }, 40)</script>`

/** Width × height of a JPEG, from its SOF marker. */
function jpegSize (b: Uint8Array): string {
  const v = Buffer.from(b)
  for (let i = 2; i < v.length - 9;) {
    if (v[i] !== 0xff) { i++; continue }
    const m = v[i + 1]
    if (m >= 0xc0 && m <= 0xc3) return `${v.readUInt16BE(i + 7)}x${v.readUInt16BE(i + 5)}`
    i += 2 + v.readUInt16BE(i + 2)
  }
  return '?'
}

t.test('stills of a page that keeps changing', async (t) => {
  const host = await startHost(t)
  const site = await startFixtureServer(t, { '/wait': { status: 403, body: PAGE } })
  const fetched = await (await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}/wait`, takeover: true }) })).json() as any
  const tab = host.app.tabs.get(fetched.tab_id)!
  const streamer = host.app.panel.streamer(tab)
  const frames: FrameHeader[] = []
  const stills: Array<{ header: FrameHeader, size: string, at: number }> = []
  const viewer = {
    offer: (b: Uint8Array) => { frames.push(decodeFrame(b).header) },
    offerStill: (b: Uint8Array) => { const d = decodeFrame(b); stills.push({ header: d.header, size: jpegSize(d.jpeg), at: frames.length }) }
  }
  streamer.add(viewer)
  streamer.want(viewer, { maxWidth: 1280, maxHeight: 720 })
  const waitFor = async (what: string, cond: () => boolean, ms = 20_000): Promise<void> => {
    for (const end = Date.now() + ms; !cond();) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  await waitFor('a first frame', () => frames.length > 0)
  const viewport = `${frames[0].deviceWidth}x${frames[0].deviceHeight}`

  const rect = { x: 400, y: 100, width: 427, height: 240 }
  for (let i = 1; i <= 10; i++) {
    streamer.detail(viewer, rect, 2.74)
    await waitFor(`still ${i}`, () => stills.length >= i)
  }
  t.equal(stills.length, 10, 'every ask got one still')
  t.same(stills.map((s) => s.header.detail), Array(10).fill({ ...rect, scale: 2.74 }), 'each of exactly the clip asked for')
  t.same([...new Set(stills.map((s) => s.size))], ['1170x658'], '…drawn at that density: 427 × 2.74 by 240 × 2.74 pixels')
  t.same([...new Set(frames.map((f) => `${f.deviceWidth}x${f.deviceHeight}`))], [viewport], `every frame sent showed the whole ${viewport} viewport`)
  const { taken, swallowed } = streamer.stills
  t.equal(taken, 10, 'the host took ten stills')
  t.ok(swallowed > 0, `the screencast did emit ${swallowed} frames of the clip meanwhile (so the check above means something), and none reached the viewer`)

  // The stream goes on after the stills: the ticking page is still seen changing.
  const before = frames.length
  await waitFor('frames after the last still', () => frames.length >= before + 3)
  t.pass('frames keep coming after the stills')

  t.test('a huge ask is bounded', async (t) => {
    const had = stills.length
    streamer.detail(viewer, { x: -100, y: -100, width: 5000, height: 5000 }, 40)
    await waitFor('the bounded still', () => stills.length > had)
    const clip = stills.at(-1)!.header.detail!
    t.same({ x: clip.x, y: clip.y, width: clip.width, height: clip.height }, { x: 0, y: 0, width: frames[0].deviceWidth, height: frames[0].deviceHeight }, 'cut to the viewport')
    t.ok(clip.scale * clip.scale * clip.width * clip.height <= 4_040_000, `drawn at ${clip.scale}×: at most ${4_000_000} pixels`)
  })

  t.test('an ask withdrawn while its still is being taken gets nothing', async (t) => {
    const had = stills.length
    const taken = streamer.stills.taken
    // The largest still takes the longest: time enough to see the capture under way.
    streamer.detail(viewer, { x: 0, y: 0, width: 1280, height: 720 }, 5)
    await waitFor('the capture to start', () => streamer.stills.capturing, 5_000)
    streamer.detail(viewer, null, 1)
    await waitFor('the capture to end', () => streamer.stills.taken > taken)
    await new Promise((resolve) => setTimeout(resolve, 300))
    t.equal(stills.length, had, 'the still was taken but not sent')
  })

  t.test('a still asked for while a dialog blocks the page waits for it, and no clip frame gets out', async (t) => {
    const cdp = await tab.page.createCDPSession()
    await cdp.send('Page.enable')
    const opened = new Promise((resolve) => cdp.once('Page.javascriptDialogOpening', resolve))
    await tab.page.evaluate(() => { setTimeout(() => alert('Hold on'), 50) })
    await opened
    const had = stills.length
    const sentBefore = frames.length
    streamer.detail(viewer, rect, 2.74)
    await waitFor('the capture to start', () => streamer.stills.capturing, 5_000)
    // Longer than any timeout a capture might be given up after: Chromium still owes it.
    await new Promise((resolve) => setTimeout(resolve, 2_500))
    t.equal(stills.length, had, 'no still while the dialog is open: the page draws nothing until it is answered')
    t.ok(streamer.stills.capturing, 'the capture is still owed')
    t.comment(`frames sent while the dialog was open: ${frames.length - sentBefore}`)
    await cdp.send('Page.handleJavaScriptDialog', { accept: true })
    await waitFor('the still once the dialog is answered', () => stills.length > had)
    const after = frames.length
    await waitFor('frames after the still', () => frames.length >= after + 5)
    t.same([...new Set(frames.map((f) => `${f.deviceWidth}x${f.deviceHeight}`))], [viewport], 'every frame sent still showed the whole viewport')
    t.same(stills.at(-1)!.header.detail, { ...rect, scale: 2.74 })
    await cdp.detach()
  })

  t.test('a viewer that left gets no still', async (t) => {
    const had = stills.length
    streamer.detail(viewer, rect, 2.74)
    streamer.remove(viewer)
    await new Promise((resolve) => setTimeout(resolve, 900))
    t.equal(stills.length, had)
  })
})
