// docs/spec.md section 22: a host that dies by SIGKILL or OOM leaves no process running. Nothing in a
// process can run after SIGKILL, so a tiny watchdog outside it does the cleaning: a `sh` that
// holds a pipe from the host (its stdin) and, when the pipe closes without a goodbye (the host
// is gone, whatever killed it), SIGKILLs every process carrying the host's owner marker in its
// environment (src/browser/orphans.ts) together with the process group each marked group
// leader heads. Chromium's zygote and renderers overwrite their environment with their process
// title, but they stay in the group of the browser process, which puppeteer starts as a group
// leader. The watchdog runs in its own session, so a kill aimed at the host's process group
// does not take it along, and it carries no marker itself.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'

/** How long the watchdog keeps sweeping for processes that appear or linger. */
const SWEEPS = 25
const SWEEP_PAUSE_S = '0.2'

// $@ holds the markers ("KEY=VALUE" entries, all of which a process must carry). Writing
// "bye" before closing the pipe is a clean shutdown: the host ended its children itself.
const SCRIPT = `
read -r line
[ "$line" = bye ] && exit 0
groups=''
n=0
while [ "$n" -lt ${SWEEPS} ]; do
  n=$((n + 1))
  found=0
  for f in $(grep -lsFxz -e "$1" /proc/[0-9]*/environ); do
    ok=1
    for m in "$@"; do grep -qsFxz -e "$m" "$f" || { ok=0; break; }; done
    [ "$ok" = 1 ] || continue
    d=\${f%/environ}
    pid=\${d#/proc/}
    read -r st < "$d/stat" 2>/dev/null || continue
    rest=\${st##*) }
    state=\${rest%% *}
    [ "$state" = Z ] && continue
    r=\${rest#* }
    r=\${r#* }
    pgid=\${r%% *}
    [ "$pgid" = "$pid" ] && groups="$groups $pid"
    kill -KILL "$pid" 2>/dev/null && found=1
  done
  for g in $groups; do kill -KILL "-$g" 2>/dev/null && found=1; done
  # Two sweeps at least: a child forked while the first one ran is caught by the second.
  [ "$found" = 0 ] && [ "$n" -gt 1 ] && exit 0
  sleep ${SWEEP_PAUSE_S}
done
`

export interface Watchdog {
  readonly pid: number | undefined
  /** A clean shutdown: the watchdog exits without killing anything. */
  dismiss (): void
}

export interface WatchdogLogger { warn (obj: object, msg: string): void }

/** Whether this system has what the watchdog needs (procfs and a POSIX sh). */
export function watchdogSupported (): boolean {
  return process.platform === 'linux' && existsSync('/proc/self/environ') && existsSync('/bin/sh')
}

/**
 * Starts a watchdog that, once this process is gone, kills every process whose environment
 * holds all of `markers`. It never keeps this process's event loop alive, and it is started
 * again if it dies while this process runs.
 */
export function startWatchdog (markers: string[], log?: WatchdogLogger): Watchdog {
  if (markers.length === 0) throw new Error('a watchdog needs at least one marker')
  let child: ChildProcess | undefined
  let dismissed = false
  const launch = (): void => {
    if (!watchdogSupported()) return
    const c = spawn('/bin/sh', ['-c', SCRIPT, 'afhttp-watchdog', ...markers], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
      // No marker of its own (a sweep must not end it), nothing inherited beyond a PATH.
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }
    })
    child = c
    c.on('error', (err) => { log?.warn({ error: err.message }, 'the process watchdog could not start') })
    c.stdin?.on('error', () => { /* the watchdog is gone; 'exit' restarts it */ })
    c.once('exit', () => {
      if (dismissed || child !== c) return
      log?.warn({ pid: c.pid }, 'the process watchdog exited; starting it again')
      setTimeout(() => { if (!dismissed) launch() }, 1_000).unref()
    })
    c.unref()
    ;(c.stdin as unknown as { unref?: () => void } | null)?.unref?.()
  }
  launch()
  return {
    get pid () { return child?.pid },
    dismiss () {
      if (dismissed) return
      dismissed = true
      child?.stdin?.end('bye\n')
    }
  }
}
