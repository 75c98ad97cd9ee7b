// Regenerates docs/recognition.md: runs the pure real-corpus test, which scores recognition on
// test/fixtures/real and writes the page when AFHTTP_RECOGNITION_DOC names it.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const doc = fileURLToPath(new URL('../docs/recognition.md', import.meta.url))
const run = spawnSync('npx', ['tap', '--disable-coverage', '-R', 'terse', 'test/core/challenge-real.test.ts'], {
  cwd: root, stdio: 'inherit', env: { ...process.env, AFHTTP_RECOGNITION_DOC: doc }
})
process.exit(run.status ?? 1)
