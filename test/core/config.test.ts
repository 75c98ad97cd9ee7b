import t from 'tap'
import { ConfigError, loadConfig, MAX_HANDOFF_HOLD_MS, withBoundPort } from '../../src/config.js'

const base = { PATH: process.env.PATH }

t.test('defaults follow docs/spec.md section 3', async (t) => {
  const c = loadConfig({ ...base })
  t.equal(c.host, '127.0.0.1')
  t.equal(c.port, 8787)
  t.equal(c.token, undefined)
  t.match(c.profilesDir, /profiles$/)
  t.equal(c.publicUrl, 'http://127.0.0.1:8787')
  t.equal(c.defaultProfile, 'default')
  t.equal(c.tabIdleMs, 600_000)
  t.equal(c.handoffHoldMs, MAX_HANDOFF_HOLD_MS)
  t.equal(c.logLevel, 'info')
  t.ok(Object.isFrozen(c))
})

t.test('values are read and the public URL follows host and port', async (t) => {
  const c = loadConfig({ ...base, AFHTTP_HOST: '127.0.0.2', AFHTTP_PORT: '9000', AFHTTP_TAB_IDLE_MS: '5000', AFHTTP_HANDOFF_HOLD_MS: '60000' })
  t.equal(c.publicUrl, 'http://127.0.0.2:9000')
  t.equal(c.port, 9000)
  t.equal(c.tabIdleMs, 5000)
  t.equal(c.handoffHoldMs, 60000)
  t.equal(loadConfig({ ...base, AFHTTP_PUBLIC_URL: 'https://panel.example.test/' }).publicUrl, 'https://panel.example.test')
})

const invalid: Array<[string, string]> = [
  ['AFHTTP_PORT', 'eighty'],
  ['AFHTTP_PORT', '70000'],
  ['AFHTTP_TOKEN', 'short'],
  ['AFHTTP_PUBLIC_URL', 'ftp://x'],
  ['AFHTTP_DEFAULT_PROFILE', '../etc'],
  ['AFHTTP_TAB_IDLE_MS', '-1'],
  ['AFHTTP_HANDOFF_HOLD_MS', String(MAX_HANDOFF_HOLD_MS + 1)],
  ['AFHTTP_LOG_LEVEL', 'loud'],
  ['AFHTTP_BROWSER_MODE', 'invisible'],
  ['AFHTTP_CHROMIUM', '/nonexistent/chromium']
]
for (const [variable, value] of invalid) {
  t.test(`invalid ${variable}=${value} fails naming the variable`, async (t) => {
    const err = t.throws(() => loadConfig({ ...base, [variable]: value })) as unknown as ConfigError
    t.type(err, ConfigError)
    t.equal(err.variable, variable)
    t.match(err.message, new RegExp(`^invalid configuration: ${variable} `))
    t.notMatch(err.message, /\n/, 'one line')
  })
}

t.test('with port 0 the public URL follows the bound port unless it was configured', async (t) => {
  const auto = loadConfig({ ...base, AFHTTP_PORT: '0' })
  t.equal(withBoundPort(auto, 41234).publicUrl, 'http://127.0.0.1:41234')
  t.equal(withBoundPort(auto, 41234).port, 41234)
  const explicit = loadConfig({ ...base, AFHTTP_PORT: '0', AFHTTP_PUBLIC_URL: 'https://panel.example.test' })
  t.equal(withBoundPort(explicit, 41234).publicUrl, 'https://panel.example.test')
  const fixed = loadConfig({ ...base })
  t.equal(withBoundPort(fixed, 41234), fixed)
})

t.test('AFHTTP_CHROMIUM may name a command on PATH', async (t) => {
  const dir = t.testdir({ 'my-chromium': '#!/bin/sh\n' })
  const { chmodSync } = await import('node:fs')
  chmodSync(`${dir}/my-chromium`, 0o755)
  t.equal(loadConfig({ PATH: dir, AFHTTP_CHROMIUM: 'my-chromium' }).chromiumPath, `${dir}/my-chromium`)
  const err = t.throws(() => loadConfig({ PATH: dir, AFHTTP_CHROMIUM: 'not-here' })) as unknown as ConfigError
  t.equal(err.variable, 'AFHTTP_CHROMIUM')
})

t.test('AFHTTP_BROWSER_MODE resolves against the display and Xvfb this machine has', async (t) => {
  const dir = t.testdir({ Xvfb: '#!/bin/sh\n' })
  const { chmodSync } = await import('node:fs')
  chmodSync(`${dir}/Xvfb`, 0o755)
  const chromium = { AFHTTP_CHROMIUM: '/usr/bin/chromium' }
  t.same(loadConfig({ PATH: dir, ...chromium }).browser, { mode: 'headful', xvfbPath: `${dir}/Xvfb` }, 'auto: our own Xvfb')
  t.same(loadConfig({ PATH: dir, DISPLAY: ':7', ...chromium }).browser, { mode: 'headful', display: ':7' }, 'an existing display wins')
  t.same(loadConfig({ PATH: dir, AFHTTP_BROWSER_MODE: 'headless', ...chromium }).browser, { mode: 'headless' })
  const fallback = loadConfig({ PATH: '/nonexistent', ...chromium })
  t.equal(fallback.browser.mode, 'headless', 'auto without either falls back')
  t.match(fallback.browser.fallback, /xvfb/i, 'and says why')
  t.equal(fallback.browserModeConfigured, 'auto')
  const err = t.throws(() => loadConfig({ PATH: '/nonexistent', AFHTTP_BROWSER_MODE: 'headful', ...chromium })) as unknown as ConfigError
  t.equal(err.variable, 'AFHTTP_BROWSER_MODE', 'headful with no way to show a window is refused at start')
  t.match(err.message, /DISPLAY is unset/)
})

t.test('AFHTTP_URL_DENY: unset denies nothing; CIDRs and private are read; anything else fails naming the variable', async (t) => {
  const chromium = { AFHTTP_CHROMIUM: '/usr/bin/chromium', PATH: process.env.PATH }
  t.equal(loadConfig(chromium).urlDeny, undefined, 'default: nothing denied')
  const deny = loadConfig({ ...chromium, AFHTTP_URL_DENY: '127.0.0.2/32,private' }).urlDeny
  t.ok(deny?.denies('127.0.0.2'))
  t.ok(deny?.denies('10.9.8.7'), 'private expands')
  t.notOk(deny?.denies('93.184.216.34'))
  const err = t.throws(() => loadConfig({ ...chromium, AFHTTP_URL_DENY: 'intranet.example' })) as unknown as ConfigError
  t.equal(err.variable, 'AFHTTP_URL_DENY')
  t.match(err.message, /invalid configuration: AFHTTP_URL_DENY .*neither a CIDR nor "private"/)
})
