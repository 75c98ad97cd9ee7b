// One tools/call as the tools see it: its cancellation, its progress channel and the way to
// ask the client's person for something. Built from the SDK's handler context by server.ts.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js'
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js'

export type ElicitAnswer = 'accept' | 'decline' | 'cancel'

export interface ToolCall {
  /** Aborts when the client cancels the call or the connection closes. */
  signal: AbortSignal
  /** Sends `notifications/progress` when the client gave a progress token; otherwise nothing. */
  progress: (step: number, message: string) => void
  /** The client declared URL elicitation (`elicitation: {url: {}}`, MCP 2025-11-25). */
  urlElicitation: boolean
  /** `elicitation/create` with `mode: "url"` on this call's stream; resolves with the person's answer. */
  elicitUrl: (opts: { elicitationId: string, url: string, message: string, timeoutMs: number }) => Promise<ElicitAnswer>
  /** `notifications/elicitation/complete` for an accepted elicitation whose work ended. */
  elicitationComplete: (elicitationId: string) => Promise<void>
}

export function toolCallOf (server: Server, extra: RequestHandlerExtra<ServerRequest, ServerNotification>): ToolCall {
  const progressToken = extra._meta?.progressToken
  const related = { relatedRequestId: extra.requestId }
  return {
    signal: extra.signal,
    progress (step, message) {
      if (progressToken === undefined || extra.signal.aborted) return
      // A lost progress note is not worth failing the call for: the result still comes.
      extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: step, message } }).catch(() => undefined)
    },
    urlElicitation: server.getClientCapabilities()?.elicitation?.url !== undefined,
    async elicitUrl ({ elicitationId, url, message, timeoutMs }) {
      const res = await server.elicitInput({ mode: 'url', elicitationId, url, message }, { ...related, signal: extra.signal, timeout: timeoutMs })
      return res.action
    },
    async elicitationComplete (elicitationId) {
      await server.createElicitationCompletionNotifier(elicitationId, related)()
    }
  }
}
