import { AfhttpClientError, type FetchRequest, type FetchResult } from '../../client/index.js'
import { EXIT, ProgressLine, printJson, printLines } from '../output.js'
import { UsageError, bool, parseCapture, parseWait, positionals, positiveInt, shellQuote, str } from '../args.js'
import type { HostCommand, CommandContext } from './command.js'
import { fetchExitCode, humanAction, renderFetch } from './fetch-summary.js'
import { writeArtifacts } from './fetch-out.js'
import { explainDecline, waitForHandoff, type WaitOutcome } from './fetch-wait.js'
import { tabEventWaker } from './event-wake.js'
import { printQr, wantsQr } from '../qr.js'

const DEFAULT_POLL_MS = 1_000

function buildRequest (ctx: CommandContext): FetchRequest {
  const [url] = positionals('fetch', ctx.positionals, [], ['URL'])
  const tab = str(ctx.values, 'tab')
  if (url === undefined && tab === undefined) throw new UsageError('give a URL, or --tab TAB to capture a tab without navigating', 'fetch')
  if (url !== undefined && !/^[a-z][a-z0-9+.-]*:/i.test(url)) throw new UsageError(`URL must be absolute (e.g. https://example.com/), got "${url}"`, 'fetch')
  const req: FetchRequest = {
    url,
    profile: str(ctx.values, 'profile'),
    tab_id: tab,
    takeover: bool(ctx.values, 'takeover') || bool(ctx.values, 'wait-for-human') || undefined,
    wait: parseWait('fetch', str(ctx.values, 'wait')),
    capture: parseCapture('fetch', str(ctx.values, 'capture')),
    timeout_ms: positiveInt('fetch', '--timeout', str(ctx.values, 'timeout')),
    region: str(ctx.values, 'region')
  }
  // The API rejects unknown fields, and undefined would only be dropped by JSON anyway; keep the body minimal.
  return Object.fromEntries(Object.entries(req).filter(([, v]) => v !== undefined)) as FetchRequest
}

/** Writes --out, prints (unless already shown) and returns the exit code the result calls for. */
async function conclude (ctx: CommandContext, result: FetchResult, opts: { print: boolean, code?: number }): Promise<number> {
  const out = str(ctx.values, 'out')
  const written = out ? await writeArtifacts(out, result) : []
  if (ctx.json) printJson(ctx.io, result)
  else if (opts.print) printLines(ctx.io, renderFetch(result, written))
  else if (written.length) printLines(ctx.io, [`written    ${written.join(', ')}`])
  return opts.code ?? fetchExitCode(result)
}

function resumeLine (ctx: CommandContext, req: FetchRequest, tabId: string): string {
  const words = ['afhttp', 'fetch', ...(req.url ? [req.url] : []), '--tab', tabId, '--wait-for-human']
  const flags: Array<[string, string | undefined]> = [
    ['--profile', req.profile], ['--wait', req.wait], ['--capture', req.capture?.join(',')], ['--timeout', req.timeout_ms?.toString()],
    ['--region', req.region], ['--out', str(ctx.values, 'out')], ['--url', ctx.target.urlFromFlag ? ctx.target.url : undefined]
  ]
  for (const [flag, value] of flags) if (value !== undefined) words.push(flag, value)
  if (ctx.json) words.push('--json')
  return words.map(shellQuote).join(' ')
}

function explainEnd (outcome: Exclude<WaitOutcome, { kind: 'finished' | 'unreachable' }>, tabId: string, restart: string): string {
  if (outcome.kind === 'declined') return explainDecline(outcome, tabId)
  if (outcome.kind === 'interrupted') {
    const until = outcome.summary ? ` (hold until ${outcome.summary.expires_at})` : ''
    return `stopped waiting. Tab ${tabId} stays retained with its handoff open${until}; the panel URL above stays valid until it is opened or the hold ends.\nresume with:\n  ${restart}`
  }
  if (outcome.kind === 'gone') return `the tab or its handoff no longer exists (${outcome.error.code}): it was closed or the host restarted. Start again with --takeover.`
  return outcome.summary.state === 'expired'
    ? `the handoff expired at ${outcome.summary.expires_at} before a person finished; the tab is no longer protected. Start again with --takeover.`
    : `the handoff was revoked${outcome.summary.finish_reason ? ` (${outcome.summary.finish_reason})` : ''} before a person finished. Start again with --takeover.`
}

/** --wait-for-human: fetch, show the panel URL, wait on the handoff summary, then re-fetch the same tab. */
async function fetchWaitingForHuman (ctx: CommandContext, req: FetchRequest): Promise<number> {
  const pollMs = positiveInt('fetch', '--poll-ms', str(ctx.values, 'poll-ms')) ?? DEFAULT_POLL_MS
  const client = ctx.client()
  let first: FetchResult | undefined
  try {
    first = await client.fetch(req)
  } catch (err) {
    // Resuming on a tab a person still holds: the fetch is refused, so wait on the open handoff instead.
    if (!(err instanceof AfhttpClientError && err.code === 'tab_under_human_control' && req.tab_id)) throw err
    ctx.io.err(`tab ${req.tab_id} already has an open handoff; waiting on it. Its panel URL was printed when it was minted; "afhttp handoff ${req.tab_id}" mints a fresh one.\n`)
  }
  const action = first && humanAction(first)
  if (first && (first.ok || !action?.takeover_url_secret || !first.tab_id)) return conclude(ctx, first, { print: true })
  const tabId = first?.tab_id ?? req.tab_id as string
  if (first && action?.takeover_url_secret) {
    if (wantsQr('fetch', ctx.values, ctx.io)) await printQr(ctx.io, action.takeover_url_secret)
    // With --json, stdout carries only the final result, so the URL goes to stderr.
    if (ctx.json) ctx.io.err(`A person is needed (${action.reason}). Open this panel URL:\n${action.takeover_url_secret}\n`)
    else printLines(ctx.io, renderFetch(first))
  }

  const controller = new AbortController()
  const stopListening = ctx.deps.onInterrupt(() => controller.abort())
  const progress = new ProgressLine(ctx.io, ctx.deps.now)
  // Events wake the wait instead of polling; a host without them is polled as before.
  const waker = await tabEventWaker(client, tabId)
  let outcome: WaitOutcome
  try {
    outcome = await waitForHandoff(client, {
      wake: waker?.wake,
      tabId,
      expiresAt: action?.expires_at,
      pollMs,
      now: ctx.deps.now,
      sleep: ctx.deps.sleep,
      signal: controller.signal,
      progress: (text, key) => progress.show(text, key)
    })
  } finally {
    waker?.close()
    stopListening()
    progress.end()
  }
  if (outcome.kind === 'unreachable') throw outcome.error
  if (outcome.kind === 'finished') {
    ctx.io.err(`the handoff finished${outcome.summary.finish_reason ? ` (${outcome.summary.finish_reason})` : ''}; fetching tab ${tabId} again\n`)
    return conclude(ctx, await client.fetch({ ...req, tab_id: tabId, takeover: true }), { print: true })
  }
  ctx.io.err(`afhttp: ${explainEnd(outcome, tabId, resumeLine(ctx, req, tabId))}\n`)
  // The command ends on the first result (what a person was needed for); it is already on screen.
  return first ? conclude(ctx, first, { print: false, code: EXIT.human }) : EXIT.human
}

export const fetchCommand: HostCommand = {
  name: 'fetch',
  summary: 'fetch a page; with --takeover, keep the tab and get a panel URL when a person is needed',
  help: `usage: afhttp fetch URL [--profile P] [--tab TAB] [--takeover] [--wait STRATEGY]
                  [--capture html,text,screenshot] [--timeout MS] [--region CSS]
                  [--out DIR] [--json] [--wait-for-human] [--poll-ms MS] [--qr | --no-qr]

  URL                 page to load; optional with --tab (then the tab's current
                      document is captured without navigating)
  --profile P         browser profile (default: the host's default profile)
  --tab TAB           reuse a retained tab
  --takeover          keep the tab and mint a panel URL unless the content is verified
  --wait STRATEGY     load | domcontentloaded | networkidle | selector:CSS | selector-stable:CSS
  --capture LIST      any of html,text,screenshot (default html,text)
  --timeout MS        navigation budget (host default 30000)
  --region CSS        the part of the page a person should be shown
  --out DIR           write page.html, page.txt, screenshot.jpg|png and result.json
  --wait-for-human    implies --takeover: print the panel URL, wait until the person
                      finishes, then fetch the same tab again and print that result.
                      Ctrl-C stops waiting and keeps the tab; it prints how to resume.
  --qr, --no-qr       draw the panel URL as a QR code on stderr too, to open it on a
                      phone (default: on when stderr is a terminal)
  --poll-ms MS        how often to read the handoff summary on a host without
                      GET /v1/events (default 1000); with events the summary is
                      read when the host reports a change, and this only paces
                      the progress line

exit codes: 0 content verified, 3 a person is needed (panel URL printed on its own
line), 4 host or takeover unavailable, 2 usage, 1 anything else (e.g. ok:false
without --takeover).`,
  options: {
    profile: { type: 'string' },
    tab: { type: 'string' },
    takeover: { type: 'boolean' },
    wait: { type: 'string' },
    capture: { type: 'string' },
    timeout: { type: 'string' },
    region: { type: 'string' },
    out: { type: 'string' },
    'wait-for-human': { type: 'boolean' },
    'poll-ms': { type: 'string' },
    qr: { type: 'boolean' },
    'no-qr': { type: 'boolean' }
  },
  access: 'token',
  async run (ctx) {
    const req = buildRequest(ctx)
    const qr = wantsQr('fetch', ctx.values, ctx.io)
    if (bool(ctx.values, 'wait-for-human')) return fetchWaitingForHuman(ctx, req)
    const result = await ctx.client().fetch(req)
    const link = humanAction(result)?.takeover_url_secret
    if (qr && link) await printQr(ctx.io, link)
    return conclude(ctx, result, { print: true })
  }
}
