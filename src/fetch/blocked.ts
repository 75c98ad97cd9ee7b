// A fetch that meets a JavaScript dialog (docs/spec.md section 16): the page runs no script until a
// person answers it, so the fetch reports the dialog instead of waiting for its deadline.
import { blockedByDialogReason, dialogWarning, type OpenDialog } from '../core/page-ui.js'
import { formatWaitStrategy } from '../core/wait-strategy.js'
import type { PageWatch } from '../page-ui/page-watch.js'
import type { TabRecord } from '../tabs/types.js'
import { failedCaptures } from './capture.js'
import type { MainResponse } from './navigate.js'
import type { Inspection } from './inspection.js'
import type { FetchRequest } from './request.js'

/**
 * A page blocked by a JavaScript dialog answers no script call until someone answers the
 * dialog, and the host never does (docs/spec.md section 16): report it instead of waiting.
 */
export function blockedInspection (tab: TabRecord, req: Pick<FetchRequest, 'wait' | 'capture'>, dialog: OpenDialog, waitedMs: number, response?: MainResponse): Inspection {
  const captured = failedCaptures(req.capture, blockedByDialogReason(dialog))
  return {
    response: response ?? tab.lastResponse,
    readiness: { strategy: formatWaitStrategy(req.wait), measured: false, satisfied: false, elapsed_ms: Math.round(waitedMs), target_ready: false, samples: 0 },
    recognition: {},
    verdict: { ok: false, reclaim: false, reason: 'capture_failed', warnings: [] },
    artifacts: captured.artifacts,
    warnings: [dialogWarning(dialog), ...captured.warnings],
    blocked: dialog
  }
}

/** Runs `work` unless a dialog opens first; the losing work settles on its own, unobserved. */
export async function unlessDialog<T> (watch: PageWatch, work: Promise<T>): Promise<{ value: T } | { dialog: OpenDialog }> {
  const opened = watch.whenDialog()
  try {
    return await Promise.race([work.then((value) => ({ value })), opened.promise.then((dialog) => ({ dialog }))])
  } finally {
    opened.cancel()
    work.catch(() => undefined)
  }
}
