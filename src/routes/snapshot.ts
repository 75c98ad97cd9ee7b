import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Recognition } from '../core/challenge.js'
import { recognize } from '../fetch/recognize.js'
import { capture, failedCaptures, observePage } from '../fetch/capture.js'
import { blockedByDialogReason, dialogWarning } from '../core/page-ui.js'
import { PageWatch } from '../page-ui/page-watch.js'
import { answers, SnapshotBody, SnapshotResult, TabParams } from '../schemas/index.js'

const SNAPSHOT_BUDGET_MS = 10_000

/** Observation only: allowed while a person drives the tab (docs/spec.md section 5). */
export default async function snapshotRoutes (app: FastifyInstance): Promise<void> {
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/v1/tabs/:tab_id/snapshot',
    { schema: { summary: 'Observe a tab without acting on it; allowed while a person drives', params: TabParams, body: SnapshotBody, response: answers({ 200: SnapshotResult }) } },
    async (req) => {
      const tab = app.tabs.get(req.params.tab_id)
      const wanted = req.body?.capture ?? ['html', 'text']
      // Read beside the observation: an ending still reading its outcome (at most 2 s) delays
      // neither, and the answer carries the outcome once read (docs/spec.md section 7 "Summary").
      const handoffRead = app.handoffs.current(tab.id) ? app.handoffs.settledSummary(tab.id) : Promise.resolve(null)
      handoffRead.catch(() => undefined)
      const dialog = PageWatch.of(tab.page, () => app.clock.now()).dialog
      if (dialog) {
        // The page runs no script until its dialog is answered: say so instead of waiting.
        const captured = failedCaptures(wanted, blockedByDialogReason(dialog))
        return { tab_id: tab.id, url: tab.page.url(), title: null, status: tab.lastResponse?.status ?? null, artifacts: captured.artifacts, warnings: [dialogWarning(dialog), ...captured.warnings], dialog, handoff: await handoffRead }
      }
      const deadline = performance.now() + SNAPSHOT_BUDGET_MS
      const seen = await observePage(tab.page, deadline)
      const main = tab.lastResponse
      const recognition: Recognition = seen.failed ? {} : await recognize({ status: main?.status ?? null, url: tab.page.url(), title: seen.title, html: seen.html, text: seen.text, headers: main?.headers })
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
        handoff: await handoffRead
      }
    }
  )
}
