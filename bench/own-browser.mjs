// A bench's own Chromium (and, headful, its own Xvfb), launched as the host launches its own: the
// same flags, mode and viewport, the same owner marker in their environment, and the host's
// watchdog, so a bench killed mid-run (Ctrl-C twice, SIGKILL, a closed pipe) leaves nothing
// running (docs/spec.md section 22).
import { startBrowser } from '../dist/browser/backend.js'
import { startXvfb } from '../dist/browser/xvfb.js'
import { ownerEnv, ownerMarkers } from '../dist/browser/orphans.js'
import { startWatchdog } from '../dist/browser/watchdog.js'

/** Starts Chromium with its profile under `dir`; `stop()` closes it and its display. */
export async function ownBrowser ({ mode, dir, chromiumPath }) {
  const watchdog = startWatchdog(ownerMarkers(dir))
  const xvfb = mode === 'headful' ? await startXvfb('Xvfb', { ...process.env, ...ownerEnv(dir) }) : undefined
  const { browser, pid } = await startBrowser({ backend: 'chromium', chromiumPath, userDataDir: `${dir}/browser`, mode, display: xvfb?.display, env: ownerEnv(dir) })
  return {
    browser,
    pid,
    stop: async () => {
      await browser.close()
      await xvfb?.stop()
      watchdog.dismiss()
    }
  }
}
