// The reclaim verdict of SPEC §6. A takeover fetch may close or recycle its tab
// only on affirmative mechanical evidence; anything short of that keeps the tab
// for a person. The same verdict is the fetch result's `ok`, in either mode.

import { DENIAL_STATUSES, type Recognition } from './challenge.js'
import type { Warning } from '../schemas/common.js'

export interface ReclaimEvidence {
  status: number | null
  hasVisibleText: boolean
  documentEmpty: boolean
  recognition: Recognition
  requestedCaptures: string[]
  /** Requested captures that failed or came back empty. */
  failedCaptures: string[]
  readiness?: { measured: boolean; satisfied: boolean; target_ready: boolean }
}

export type VerdictReason =
  | 'challenge' | 'denied' | 'http_error' | 'empty' | 'capture_failed' | 'readiness_unsatisfied' | 'content_unverified'

export interface Verdict {
  ok: boolean
  reclaim: boolean
  reason?: VerdictReason
  warnings: Warning[]
}

export function decideReclaim (e: ReclaimEvidence): Verdict {
  const readinessMeasured = e.readiness?.measured === true
  const readinessHolds = !readinessMeasured || (e.readiness!.satisfied && e.readiness!.target_ready)
  // A satisfied selector-stable target is the driver naming the content it
  // needs, so it verifies a page the heuristics could not classify.
  const contentVerified = e.recognition.page_kind === 'content' || (readinessMeasured && readinessHolds)
  const is2xx = e.status !== null && e.status >= 200 && e.status <= 299

  // Checked in priority order: the first failing one names the verdict.
  const failures: Array<[VerdictReason, boolean]> = [
    ['challenge', e.recognition.challenge !== undefined || e.recognition.page_kind === 'challenge'],
    ['denied', e.recognition.page_kind === 'denied' || (e.status !== null && DENIAL_STATUSES.has(e.status))],
    ['http_error', e.recognition.page_kind === 'http_error' || (e.status !== null && e.status >= 400)],
    ['empty', e.recognition.page_kind === 'empty' || e.documentEmpty || !e.hasVisibleText],
    ['capture_failed', e.failedCaptures.length > 0],
    ['readiness_unsatisfied', !readinessHolds],
    // Also covers a status that is not 2xx and not an error (null, 1xx, 3xx):
    // the page loaded, but nothing shows it is what was asked for.
    ['content_unverified', !is2xx || !contentVerified]
  ]
  const reason = failures.find(([, failed]) => failed)?.[0]

  const warnings: Verdict['warnings'] = []
  if (e.recognition.page_kind === undefined && e.recognition.challenge === undefined && !contentVerified) {
    warnings.push({
      code: 'takeover_content_unverified',
      message: `The page loaded (status ${e.status ?? 'unknown'}) but is neither recognizable content nor a recognized challenge; a person should look at it.`
    })
  }
  const ok = reason === undefined
  return { ok, reclaim: ok, ...(reason !== undefined && { reason }), warnings }
}
