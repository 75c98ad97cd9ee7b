import type { FastifyInstance } from 'fastify'
import { recognizePage, type Recognition } from '../core/challenge.js'
import { capture, failedCaptures, observePage, type CaptureName } from '../fetch/capture.js'
import { blockedByDialogReason, dialogWarning } from '../core/page-ui.js'
import { PageWatch } from '../page-ui/page-watch.js'

const SNAPSHOT_BUDGET_MS = 10_000

const snapshotBody = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    capture: { type: 'array', maxItems: 3, uniqueItems: true, items: { type: 'string', enum: ['html', 'text', 'screenshot'] } }
  }
} as const

/** Observation only: allowed while a person drives the tab (SPEC section 5). */
export default async function snapshotRoutes (app: FastifyInstance): Promise<void> {
  app.post<{ Params: { tab_id: string }, Body: { capture?: CaptureName[] } | null }>(
    '/v1/tabs/:tab_id/snapshot',
    { schema: { body: snapshotBody } },
    async (req) => {
      const tab = app.tabs.get(req.params.tab_id)
      const wanted = req.body?.capture ?? ['html', 'text']
      const handoff = app.handoffs.current(tab.id) ? app.handoffs.summary(tab.id) : null
      const dialog = PageWatch.of(tab.page, () => app.clock.now()).dialog
      if (dialog) {
        // The page runs no script until its dialog is answered: say so instead of waiting.
        const captured = failedCaptures(wanted, blockedByDialogReason(dialog))
        return { tab_id: tab.id, url: tab.page.url(), title: null, status: tab.lastResponse?.status ?? null, artifacts: captured.artifacts, warnings: [dialogWarning(dialog), ...captured.warnings], dialog, handoff }
      }
      const deadline = performance.now() + SNAPSHOT_BUDGET_MS
      const seen = await observePage(tab.page, deadline)
      const main = tab.lastResponse
      const recognition: Recognition = seen.failed ? {} : recognizePage({ status: main?.status ?? null, url: tab.page.url(), title: seen.title, html: seen.html, text: seen.text, headers: main?.headers })
      const captured = await capture(tab.page, wanted, seen, deadline)
      return {
        tab_id: tab.id,
        url: tab.page.url(),
        title: seen.title,
        status: main?.status ?? null,
        ...(recognition.page_kind ? { page_kind: recognition.page_kind } : {}),
        ...(recognition.challenge ? { challenge: recognition.challenge } : {}),
        artifacts: captured.artifacts,
        warnings: captured.warnings,
        dialog: null,
        handoff
      }
    }
  )
}
