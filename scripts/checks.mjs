// `npm test`'s checks before the suite: the type check, the lint and the build, side by side.
// Each of tsc and eslint uses one core, so on a two-core machine running them together takes
// about half the time of running them one after another. Each one's output is printed whole once
// it ends (never interleaved); any failure fails the run, after all three have ended.
import { spawn } from 'node:child_process'

const CHECKS = ['typecheck', 'lint', 'build']

function run (script) {
  return new Promise((resolve) => {
    const started = Date.now()
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] })
    const out = []
    child.stdout.on('data', (chunk) => out.push(chunk))
    child.stderr.on('data', (chunk) => out.push(chunk))
    child.on('close', (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1)
      process.stdout.write(`> npm run ${script}: ${code === 0 ? 'passed' : `failed (${signal ?? `exit ${code}`})`} in ${seconds} s\n`)
      process.stdout.write(Buffer.concat(out))
      resolve(code === 0)
    })
  })
}

const results = await Promise.all(CHECKS.map(run))
process.exit(results.every(Boolean) ? 0 : 1)
