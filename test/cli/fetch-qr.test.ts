// `afhttp fetch --takeover` draws the panel link as a terminal QR code (docs/spec.md sections 11, 20):
// on stderr, before the summary, so stdout still ends with the URL alone on its line.
import t from 'tap'
import QRCode from 'qrcode'
import { startHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { runCli } from './_run.js'
import { terminalQr, wantsQr } from '../../src/cli/qr.js'

const GATE = '<!doctype html><title>Just a moment...</title><p>Hang tight! We are checking your browser</p>'

t.test('when the QR is drawn', async (t) => {
  t.equal(wantsQr('fetch', {}, { errIsTTY: true }), true, 'on a terminal by default')
  t.equal(wantsQr('fetch', {}, { errIsTTY: false }), false, 'not into a pipe or a file')
  t.equal(wantsQr('fetch', { qr: true }, { errIsTTY: false }), true, '--qr forces it')
  t.equal(wantsQr('fetch', { 'no-qr': true }, { errIsTTY: true }), false, '--no-qr silences it')
  t.throws(() => wantsQr('fetch', { qr: true, 'no-qr': true }, { errIsTTY: true }), { name: 'UsageError' })
})

t.test('the QR block is the panel URL\'s code', async (t) => {
  const url = 'http://127.0.0.1:8787/takeover/AbCdEfGhIjKlMnOpQrStUv'
  const block = await terminalQr(url)
  t.equal(block, await QRCode.toString(url, { type: 'terminal', small: true, errorCorrectionLevel: 'L' }))
  t.not(block, await terminalQr(`${url}x`), 'another URL draws another code')
  t.ok(block.split('\n').length < 40, 'half-height: fits a terminal')
})

t.test('afhttp fetch --takeover --qr against a real host', async (t) => {
  // The browser is started here, not in the host's ready hook (which a loaded machine can time out).
  const host = await startHost(t, { startBrowser: false })
  await host.app.browsers.get(host.config.defaultProfile)
  // The CLI asks /health before it mints: wait until the host says what a driver needs to hear.
  const ready = Date.now() + 60_000
  while (Date.now() < ready && !(await (await host.api('/health')).json() as any).status?.takeover_ready) await new Promise((resolve) => setTimeout(resolve, 200))
  const site = await startFixtureServer(t, { '/gate': { body: GATE } })
  const env = { AFHTTP_URL: host.url, AFHTTP_TOKEN: host.token }

  t.test('--qr: the code on stderr, the URL still alone on stdout\'s last line', async (t) => {
    const res = await runCli(['fetch', `${site.url}/gate`, '--takeover', '--qr'], env)
    t.equal(res.code, 3, res.stderr)
    const url = res.stdout.trimEnd().split('\n').at(-1)!
    t.match(url, /^https?:\/\/[^\s/]+\/takeover\/[A-Za-z0-9_-]{22,}$/)
    t.match(res.stderr, /Scan to open the panel on a phone:/)
    t.ok(res.stderr.includes(await terminalQr(url)), 'stderr holds the QR code of exactly that URL')
    t.match(res.stderr, /[▀▄█]/, 'drawn with block characters')
    t.notMatch(res.stdout, /[▀▄█]/, 'stdout stays plain')
  })

  t.test('--wait-for-human draws it too, before waiting', async (t) => {
    const { startCli } = await import('./_run.js')
    const cli = startCli(['fetch', `${site.url}/gate`, '--wait-for-human', '--qr'], env)
    t.teardown(() => { cli.child.kill('SIGINT') })
    await cli.waitFor(/Scan to open the panel on a phone:/, 60_000)
    const url = (await cli.waitFor(/^https?:\/\/\S+\/takeover\/\S+$/m, 60_000))[0]
    await cli.waitFor(/[▀▄█]+/)
    t.ok(cli.stderr().includes(await terminalQr(url)))
  })

  t.test('not into a pipe by default, nor with --no-qr', async (t) => {
    for (const args of [[], ['--no-qr']]) {
      const res = await runCli(['fetch', `${site.url}/gate`, '--takeover', ...args], env)
      t.equal(res.code, 3, res.stderr)
      t.notMatch(res.stderr, /Scan to open/)
      t.notMatch(res.stderr, /[▀▄█]/)
    }
  })

  t.test('--qr with --no-qr is a usage error', async (t) => {
    const res = await runCli(['fetch', `${site.url}/gate`, '--takeover', '--qr', '--no-qr'], env)
    t.equal(res.code, 2)
    t.match(res.stderr, /--qr or --no-qr/)
  })
})
