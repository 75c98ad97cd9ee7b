import type { FetchResult, HumanTakeoverAction } from '../../client/index.js'
import { EXIT, formatBytes } from '../output.js'

/** The first human_takeover action of a result, if any. */
export function humanAction (result: FetchResult): HumanTakeoverAction | undefined {
  return result.actions?.find((a): a is HumanTakeoverAction => a.kind === 'human_takeover')
}

/**
 * 0 when the content is verified; 3 when a person is needed and a panel URL exists; 4 when a
 * person is needed but no URL could be minted (takeover unavailable); 1 for any other ok:false.
 */
export function fetchExitCode (result: FetchResult): number {
  if (result.ok) return EXIT.ok
  const action = humanAction(result)
  if (action) return action.takeover_url_secret ? EXIT.human : EXIT.unavailable
  return EXIT.other
}

function artifactLine (result: FetchResult): string {
  const a = result.artifacts ?? {}
  const parts: string[] = []
  if (a.html !== undefined) parts.push(`html ${formatBytes(Buffer.byteLength(a.html))}`)
  if (a.text !== undefined) parts.push(`text ${formatBytes(Buffer.byteLength(a.text))}`)
  if (a.screenshot) parts.push(`screenshot ${a.screenshot.mime} ${formatBytes(Math.floor(a.screenshot.base64.length * 3 / 4))}`)
  return parts.join(', ') || 'none'
}

/** A short readable summary; the panel URL, when there is one, is the last line on its own. */
export function renderFetch (result: FetchResult, written: string[] = []): string[] {
  const lines = [`ok         ${result.ok ? 'yes' : 'no'}`]
  lines.push(`status     ${result.status ?? '-'}${result.page_kind ? `  (${result.page_kind})` : '  (page kind unknown)'}`)
  const final = result.final_url && result.final_url !== result.url ? ` -> ${result.final_url}` : ''
  lines.push(`url        ${result.url}${final}`)
  if (result.challenge) lines.push(`challenge  ${result.challenge.provider ?? 'unrecognized provider'}: ${result.challenge.evidence.join('; ')}`)
  const r = result.readiness
  // Only selector strategies are measured ("scoped readiness"); for the others the strategy says it all.
  if (r) lines.push(`readiness  ${r.strategy}${r.measured ? `: ${r.satisfied ? 'satisfied' : 'NOT satisfied'} after ${r.elapsed_ms} ms` : ''}`)
  lines.push(`artifacts  ${artifactLine(result)}`)
  if (written.length) lines.push(`written    ${written.join(', ')}`)
  for (const w of result.warnings ?? []) lines.push(`warning    ${w.code}: ${w.message}`)
  if (result.tab_id) lines.push(`tab        ${result.tab_id}${result.tab_retained ? ' (retained)' : ' (not kept)'}`)
  const action = humanAction(result)
  if (!result.ok && !action && !result.tab_retained) lines.push('note       rerun with --takeover to keep the tab and get a panel URL for a person')
  if (action) {
    if (action.takeover_url_secret) {
      lines.push(`A person is needed (${action.reason}). Open this panel URL${action.expires_at ? ` before ${action.expires_at}` : ''}:`)
      lines.push(action.takeover_url_secret)
    } else {
      lines.push(`A person is needed (${action.reason}) but no panel URL could be minted (see the takeover_url_unavailable warning).`)
      if (result.tab_id) lines.push(`The tab is kept; try again with: afhttp handoff ${result.tab_id}`)
    }
  }
  return lines
}
