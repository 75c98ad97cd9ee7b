import t from 'tap'
import { ConfigError, loadConfig, MAX_TAB_POOL, publicPathPrefix } from '../../src/config.js'

const base = { PATH: process.env.PATH }

t.test('AFHTTP_TAB_POOL: default 2, 0 allowed, bounded, one clear line otherwise', async (t) => {
  t.equal(loadConfig({ ...base }).tabPool, 2)
  t.equal(loadConfig({ ...base, AFHTTP_TAB_POOL: '0' }).tabPool, 0)
  t.equal(loadConfig({ ...base, AFHTTP_TAB_POOL: String(MAX_TAB_POOL) }).tabPool, MAX_TAB_POOL)
  for (const bad of [String(MAX_TAB_POOL + 1), '-1', 'two', '1.5']) {
    const err = (() => { try { loadConfig({ ...base, AFHTTP_TAB_POOL: bad }) } catch (e) { return e } })()
    t.ok(err instanceof ConfigError, `${bad} is refused`)
    t.match((err as ConfigError).message, /^invalid configuration: AFHTTP_TAB_POOL /)
  }
})

t.test('the public URL\'s path prefix', async (t) => {
  t.equal(publicPathPrefix(loadConfig({ ...base })), '')
  t.equal(publicPathPrefix(loadConfig({ ...base, AFHTTP_PUBLIC_URL: 'https://ingress.example.test/r/afhttp-2/' })), '/r/afhttp-2')
  t.equal(publicPathPrefix(loadConfig({ ...base, AFHTTP_PUBLIC_URL: 'https://ingress.example.test' })), '')
})
