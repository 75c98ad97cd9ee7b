// The MCP wait's progress notes (docs/spec.md section 18): the client hears that the call waits for
// a person as soon as the host's first summary is read, then every MCP_PROGRESS_MS, and the notes
// stop with the wait. The client and the call are stand-ins; no clock is needed: the ticker never fires within these waits.
import t from 'tap'
import type { AfhttpClient, HandoffSummary } from '../../src/client/index.js'
import { waitWithProgress } from '../../src/mcp/wait.js'
import type { ToolCall } from '../../src/mcp/tool-call.js'

const OPEN: HandoffSummary = {
  tab_id: 'tab_aaaaaaaaaaaaaaaa', state: 'open', handoff_fence: 'f', expires_at: new Date(Date.now() + 600_000).toISOString(),
  controller: 'agent', generation: 1, auto_done: false, will_check_again: true, checks_left: 3
}
const FINISHED: HandoffSummary = { ...OPEN, state: 'finished', finish_reason: 'human_done', will_check_again: false, checks_left: 0 } as HandoffSummary

/** A call that records its progress notes. */
function recordingCall (): { call: ToolCall, notes: string[] } {
  const notes: string[] = []
  const call = { signal: new AbortController().signal, progress: (_step: number, text: string) => { notes.push(text) } } as unknown as ToolCall
  return { call, notes }
}

/** A client whose wait hears each summary the test reads to it, and ends on a finished one. */
function scriptedClient (): { client: AfhttpClient, read: (s: HandoffSummary) => void } {
  let onSummary: ((s: HandoffSummary) => void) | undefined
  let end: ((s: HandoffSummary) => void) | undefined
  const client = {
    waitForHandoff: async (_tab: string, opts: { onSummary: (s: HandoffSummary) => void }) => {
      onSummary = opts.onSummary
      return await new Promise<HandoffSummary>((resolve) => { end = resolve })
    }
  } as unknown as AfhttpClient
  return { client, read: (s) => { onSummary!(s); if (s.state === 'finished') end!(s) } }
}

t.test('the first summary read is a progress note at once; a person through in a second still leaves one', async (t) => {
  const { call, notes } = recordingCall()
  const { client, read } = scriptedClient()
  const waiting = waitWithProgress(client, call, OPEN.tab_id, 60_000)
  await new Promise((resolve) => setImmediate(resolve))
  t.same(notes, [], 'nothing to tell before the host answered')
  read(OPEN)
  t.equal(notes.length, 1, 'told as soon as the first summary came')
  t.match(notes[0], /^waiting for a person/)
  read(OPEN)
  t.equal(notes.length, 1, 'later summaries wait for the ticker')
  read(FINISHED)
  const result = await waiting
  t.equal(result.summary?.state, 'finished')
  t.equal(notes.length, 1, 'an ended handoff is not told as waiting')
})

t.test('a summary handed in is told at once, and no second time for the first read', async (t) => {
  const { call, notes } = recordingCall()
  const { client, read } = scriptedClient()
  const waiting = waitWithProgress(client, call, OPEN.tab_id, 60_000, OPEN)
  t.equal(notes.length, 1)
  await new Promise((resolve) => setImmediate(resolve))
  read(OPEN)
  t.equal(notes.length, 1)
  read(FINISHED)
  await waiting
})

t.test('a handoff already ended at the first read is no waiting note', async (t) => {
  const { call, notes } = recordingCall()
  const { client, read } = scriptedClient()
  const waiting = waitWithProgress(client, call, OPEN.tab_id, 60_000)
  await new Promise((resolve) => setImmediate(resolve))
  read(FINISHED)
  await waiting
  t.same(notes, [])
})
