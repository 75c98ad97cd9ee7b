import t from 'tap'
import puppeteer from 'puppeteer-core'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'
import { chromiumArgs } from '../../src/browser/launch-args.js'

t.test('a cdp profile attaches to an existing browser and fetches through it', async (t) => {
  // The outside browser's profile is removed only after the browser has closed: a fixture directory
  // tap removes on its own schedule can go while Chromium still writes into it (ENOTEMPTY), and
  // the browser is then never closed.
  const userDataDir = await mkdtemp(join(tmpdir(), 'afhttp-outside-'))
  const outside = await puppeteer.launch({
    executablePath: process.env.AFHTTP_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    userDataDir,
    args: chromiumArgs({ isRoot: process.getuid?.() === 0, width: 1280, height: 720 })
  })
  t.teardown(async () => {
    await outside.close()
    await rm(userDataDir, { recursive: true, force: true, maxRetries: 5 })
  })
  const host = await startHost(t, { startBrowser: false })
  const site = await startFixtureServer(t, { '/page': { body: '<!doctype html><title>Remote</title><p>Served to an attached browser today.</p>' } })

  const created = await host.api('/v1/profiles', { method: 'POST', body: JSON.stringify({ name: 'remote', backend: 'cdp', cdp_url: outside.wsEndpoint() }) })
  t.equal(created.status, 201)
  const res = await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ profile: 'remote', url: `${site.url}/page` }) })
  const body = await res.json()
  t.equal(body.ok, true)
  t.match(body.artifacts.text, /attached browser/)
  const described = await (await host.api('/v1/profiles/remote')).json()
  t.equal(described.profile.running.connected, true)
  // Targets, not pages: the fetch's own window may be closing right now (it closes after the answer).
  const urls = outside.targets().filter((tg) => tg.type() === 'page').map((tg) => tg.url())
  t.ok(urls.includes('about:blank#afhttp-window-anchor'), 'the anchor guard also protects an attached browser')

  // Closing the host only disconnects from a browser it did not launch.
  await host.close()
  t.ok(outside.connected, 'the attached browser keeps running')
})

t.test('a cdp profile whose endpoint is gone is backend_unavailable', async (t) => {
  const host = await startHost(t, { startBrowser: false })
  await host.api('/v1/profiles', { method: 'POST', body: JSON.stringify({ name: 'gone', backend: 'cdp', cdp_url: 'ws://127.0.0.1:9/devtools/browser/none' }) })
  const res = await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ profile: 'gone', url: 'http://127.0.0.1:9/' }) })
  t.equal(res.status, 503)
  const body = await res.json()
  t.equal(body.error.code, 'backend_unavailable')
  t.equal(body.error.retryable, true)
})
