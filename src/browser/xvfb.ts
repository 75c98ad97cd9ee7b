// docs/spec.md section 13: with no DISPLAY, the host runs Chromium on an Xvfb of its own, owns it and
// stops it on close. Xvfb picks a free display number itself (-displayfd), so two hosts on one
// machine never race for ":99".
import { spawn, type ChildProcess } from 'node:child_process'

/** Larger than any window we open, so a site sees a screen at least as large as the window. */
export const XVFB_SCREEN = '1920x1080x24'
const START_TIMEOUT_MS = 10_000

export interface XvfbServer {
  /** e.g. ":3" */
  readonly display: string
  readonly pid: number
  /** Set when the server exits for any reason. */
  readonly exited: Promise<void>
  stop (): Promise<void>
}

/** `signal` aborts a start still waiting for its display (the host is shutting down). */
export async function startXvfb (path: string, env: Record<string, string | undefined>, signal?: AbortSignal): Promise<XvfbServer> {
  if (signal?.aborted) throw new Error('Xvfb was not started: the host is shutting down')
  const child = spawn(path, ['-displayfd', '3', '-screen', '0', XVFB_SCREEN, '-nolisten', 'tcp', '-nocursor'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    env
  })
  let stderr = ''
  child.stderr?.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-2_000) })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const display = await readDisplay(child, exited, () => stderr, signal)
  return {
    display,
    pid: child.pid as number,
    exited,
    async stop () {
      if (child.exitCode !== null || child.signalCode !== null) return
      child.kill('SIGTERM')
      const killed = setTimeout(() => child.kill('SIGKILL'), 2_000)
      await exited
      clearTimeout(killed)
    }
  }
}

function readDisplay (child: ChildProcess, exited: Promise<void>, stderr: () => string, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = ''
    const onAbort = (): void => fail('start aborted: the host is shutting down')
    const fail = (why: string): void => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      child.kill('SIGKILL')
      const detail = stderr().trim().split('\n').slice(-2).join(' / ')
      reject(new Error(`Xvfb ${why}${detail ? `: ${detail}` : ''}`))
    }
    const timer = setTimeout(() => fail(`did not report a display within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS)
    const fd3 = child.stdio[3] as NodeJS.ReadableStream | null
    fd3?.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /^(\d+)\n/.exec(out)
      if (m) {
        clearTimeout(timer)
        signal?.removeEventListener('abort', onAbort)
        resolve(`:${m[1]}`)
      }
    })
    child.once('error', (err) => fail(`could not start (${err.message})`))
    signal?.addEventListener('abort', onAbort, { once: true })
    void exited.then(() => { if (!/^\d+\n/.test(out)) fail(`exited before it was ready (code ${child.exitCode ?? child.signalCode})`) })
  })
}
