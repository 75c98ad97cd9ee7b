// Runs the built CLI (dist/cli/index.js) as a real subprocess. `npm test` builds dist before tap;
// when running tap by hand, run `npx tsc -p tsconfig.build.json` first.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'
import { guardEnv } from '../helpers/guard.js'

export const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'cli', 'index.js')
if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first (npx tsc -p tsconfig.build.json)`)

export interface CliRun { code: number | null, signal: NodeJS.Signals | null, stdout: string, stderr: string }

/** A child with its output so far and a way to wait for a pattern in it. */
export interface LiveCli {
  child: ChildProcess
  stdout: () => string
  stderr: () => string
  /** Resolves with the first match of `re` in stdout+stderr, rejects after `ms`. */
  waitFor: (re: RegExp, ms?: number) => Promise<RegExpMatchArray>
  done: Promise<CliRun>
}

/**
 * Only what the CLI needs: no AFHTTP_* from the developer's shell leaks into a test. tap's
 * process-info and coverage variables pass through so the subprocess counts toward coverage.
 */
export function cliEnv (vars: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME }
  for (const [k, v] of Object.entries(process.env)) if (/^(NODE_OPTIONS|NODE_V8_COVERAGE|_TAPJS_)/.test(k)) env[k] = v
  Object.assign(env, guardEnv())
  for (const [k, v] of Object.entries(vars)) if (v !== undefined) env[k] = v
  return env
}

export function startCli (args: string[], env: Record<string, string | undefined>): LiveCli {
  const child = spawn(process.execPath, [CLI, ...args], { env: cliEnv(env), stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  const waiters: Array<() => void> = []
  const poke = (): void => { for (const w of waiters.splice(0)) w() }
  child.stdout!.on('data', (d: Buffer) => { out += d.toString(); poke() })
  child.stderr!.on('data', (d: Buffer) => { err += d.toString(); poke() })
  const done = new Promise<CliRun>((resolve) => {
    child.on('close', (code, signal) => { poke(); resolve({ code, signal, stdout: out, stderr: err }) })
  })
  const waitFor = (re: RegExp, ms = 30_000): Promise<RegExpMatchArray> => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${re}\nstdout:\n${out}\nstderr:\n${err}`)), ms)
    const check = (): void => {
      const m = (out + '\n' + err).match(re)
      if (m) { clearTimeout(timer); resolve(m); return }
      if (child.exitCode !== null) { clearTimeout(timer); reject(new Error(`exited ${child.exitCode} before ${re}\nstdout:\n${out}\nstderr:\n${err}`)); return }
      waiters.push(check)
    }
    check()
  })
  return { child, stdout: () => out, stderr: () => err, waitFor, done }
}

export function runCli (args: string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  return startCli(args, env).done
}
