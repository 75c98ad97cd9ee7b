// needs the panel: GET /takeover/:secret → /panel/ with its Done button (#afhttp-done).
// This is the whole driver story with a person in it: the CLI waits, a person (a second,
// headless Chromium) opens the panel URL and presses Done, the CLI re-fetches and exits 0.
import t from 'tap'
import puppeteer from 'puppeteer-core'
import { chromiumArgs, runningAsRoot } from '../../src/browser/launch-args.js'
import { startHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { startCli } from './_run.js'

const GATE = '<!doctype html><title>Just a moment...</title><p>Hang tight! We are checking your browser</p>'
const CONTENT = '<!doctype html><title>Inside</title><main><h1>Members area</h1><p>Welcome back, the content is here.</p></main>'

t.test('a person pressing Done in the panel ends --wait-for-human with the content', async (t) => {
  const host = await startHost(t)
  let passed = false
  const site = await startFixtureServer(t, { '/members': { body: () => (passed ? CONTENT : GATE) } })
  const cli = startCli(['fetch', `${site.url}/members`, '--wait-for-human', '--poll-ms', '200', '--capture', 'text'], { AFHTTP_URL: host.url, AFHTTP_TOKEN: host.token })
  t.teardown(() => { if (cli.child.exitCode === null) cli.child.kill('SIGKILL') })
  const [, printed] = await cli.waitFor(/^(https?:\/\/\S+\/takeover\/\S+)$/m)
  // The test host listens on a random port, so its public URL names port 0: keep the path, use the real origin.
  const panelUrl = host.url + new URL(printed).pathname

  const person = await puppeteer.launch({
    executablePath: host.config.chromiumPath,
    headless: true,
    args: chromiumArgs({ isRoot: runningAsRoot(), width: 800, height: 900 })
  })
  t.teardown(() => person.close())
  const page = await person.newPage()
  await page.goto(panelUrl)
  t.match(new URL(page.url()).pathname, /^\/panel\//, 'the secret left the address bar')
  await page.waitForSelector('#afhttp-done', { visible: true, timeout: 15_000 })
  await cli.waitFor(/a person has control|panel not opened yet/)

  passed = true
  await page.click('#afhttp-done')
  const res = await cli.done
  t.equal(res.code, 0, res.stderr)
  t.match(res.stderr, /the handoff finished \(human_done\)/)
  const final = res.stdout.slice(res.stdout.lastIndexOf('ok         '))
  t.match(final, /^ok\s+yes$/m)
  t.match(final, /^status\s+200\s+\(content\)$/m)
})

t.test('a person declining in the panel ends --wait-for-human with exit 3 and their note', async (t) => {
  const host = await startHost(t)
  const site = await startFixtureServer(t, { '/members': { body: GATE } })
  const cli = startCli(['fetch', `${site.url}/members`, '--wait-for-human', '--poll-ms', '200', '--capture', 'text'], { AFHTTP_URL: host.url, AFHTTP_TOKEN: host.token })
  t.teardown(() => { if (cli.child.exitCode === null) cli.child.kill('SIGKILL') })
  const [, printed] = await cli.waitFor(/^(https?:\/\/\S+\/takeover\/\S+)$/m)
  const panelUrl = host.url + new URL(printed).pathname
  const person = await puppeteer.launch({ executablePath: host.config.chromiumPath, headless: true, args: chromiumArgs({ isRoot: runningAsRoot(), width: 800, height: 900 }) })
  t.teardown(() => person.close())
  const page = await person.newPage()
  await page.goto(panelUrl)
  await page.waitForSelector('#afhttp-decline', { visible: true, timeout: 15_000 })
  await page.click('#afhttp-decline')
  await page.type('#afhttp-decline-reason', 'No access: this needs the admin account.')
  await page.click('#afhttp-decline-send')
  const res = await cli.done
  t.equal(res.code, 3, res.stderr)
  t.match(res.stderr, /the person declined: "No access: this needs the admin account\."/)
  t.match(res.stderr, /stays retained/)
  const tabId = [...host.app.tabs.list()][0]?.id
  t.ok(tabId && host.app.tabs.find(tabId)?.retained, 'the tab is still there for the driver')
})
