// A Chromium that takes its time to start, as on a loaded machine: a wrapper that sleeps, then
// execs the real one (same pid, same process group), for AFHTTP_CHROMIUM.
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Teardown } from './teardown.js'

export async function slowChromium (t: Teardown, delaySeconds: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'afhttp-slow-chromium-'))
  const path = join(dir, 'chromium')
  await writeFile(path, `#!/bin/sh\nsleep ${delaySeconds}\nexec /usr/bin/chromium "$@"\n`)
  await chmod(path, 0o755)
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  return path
}
