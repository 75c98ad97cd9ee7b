import t from 'tap'
import { stat, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { resolveToken, tokenMatches, TOKEN_FILE } from '../../src/store/token.js'

t.test('a configured token wins and nothing is written', async (t) => {
  const dir = t.testdir()
  const r = await resolveToken('configured-token-123456', dir)
  t.same(r, { token: 'configured-token-123456', source: 'env' })
  await t.rejects(stat(join(dir, TOKEN_FILE)))
})

t.test('without a token one is generated once, mode 0600, and reused', async (t) => {
  const dir = t.testdir()
  const first = await resolveToken(undefined, dir)
  t.equal(first.source, 'generated')
  t.ok(first.token.length >= 40, '256 random bits')
  const st = await stat(join(dir, TOKEN_FILE))
  t.equal(st.mode & 0o777, 0o600)
  const second = await resolveToken(undefined, dir)
  t.equal(second.source, 'file')
  t.equal(second.token, first.token)
  t.equal((await readFile(join(dir, TOKEN_FILE), 'utf8')).trim(), first.token)
})

t.test('a too-short stored token is replaced', async (t) => {
  const dir = t.testdir()
  await writeFile(join(dir, TOKEN_FILE), 'x\n')
  const r = await resolveToken(undefined, dir)
  t.equal(r.source, 'generated')
  t.not(r.token, 'x')
})

t.test('tokenMatches compares exactly', async (t) => {
  t.ok(tokenMatches('abc', 'abc'))
  t.notOk(tokenMatches('abc', 'abd'))
  t.notOk(tokenMatches('ab', 'abc'))
  t.notOk(tokenMatches('', 'abc'))
})
