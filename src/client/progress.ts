// How a handoff that is still waiting for a person reads in one line: the CLI's `--wait`
// (src/cli/commands/fetch-wait.ts) and the MCP server's wait (src/mcp/wait.ts) print the same.
import type { HandoffSummary } from './types.js'

const STATE_TEXT: Record<string, string> = {
  open: 'panel not opened yet',
  human: 'a person has control',
  human_disconnected: "the person's panel disconnected"
}

/** `m:ss`, or `h:mm:ss` from an hour on. */
export function formatDuration (ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000))
  const h = Math.floor(total / 3600)
  const m = Math.floor((total % 3600) / 60)
  const s = String(total % 60).padStart(2, '0')
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`
}

/** The progress line for one summary: elapsed, hold left, who controls, whether the host still checks. */
export function renderProgress (s: HandoffSummary, elapsedMs: number, nowMs: number): { text: string, key: string } {
  const left = Date.parse(s.expires_at) - nowMs
  const parts = [
    'waiting for a person',
    `${formatDuration(elapsedMs)} elapsed`,
    Number.isFinite(left) ? (left > 0 ? `${formatDuration(left)} hold left` : 'hold time is up') : 'hold end unknown',
    STATE_TEXT[s.state] ?? s.state,
    s.will_check_again
      ? `host checking for completion (${s.checks_left} check${s.checks_left === 1 ? '' : 's'} left)`
      : 'host no longer checks: press Done in the panel'
  ]
  return { text: parts.join(' · '), key: `${s.state}|${s.will_check_again}` }
}
