import { AfhttpClientError, type HostEvent } from '../../client/index.js'
import { EXIT, printLines } from '../output.js'
import { positionals, positiveInt, str } from '../args.js'
import type { HostCommand } from './command.js'

// The data fields worth a glance on one line; --json prints everything.
const SHOWN = ['takeover_url_secret', 'instructions', 'controller', 'generation', 'state', 'finish_reason', 'human_note', 'reason', 'url', 'opener_tab_id', 'viewers', 'last_event_id']

/** One human-readable line per event. */
export function renderEvent (e: HostEvent): string {
  const parts = [String(e.id), e.at, e.type]
  // Over several hosts each event names its host (ids are per host).
  const host = (e as HostEvent & { host?: string }).host
  if (host) parts.push(`host=${host}`)
  if (e.tab_id) parts.push(`tab=${e.tab_id}`)
  if (e.profile) parts.push(`profile=${e.profile}`)
  for (const key of SHOWN) {
    const v = e.data[key]
    if (v === undefined || v === null) continue
    parts.push(`${key}=${typeof v === 'string' ? (/\s/.test(v) ? JSON.stringify(v) : v) : JSON.stringify(v)}`)
  }
  return parts.join(' ')
}

export const eventsCommand: HostCommand = {
  name: 'events',
  summary: 'print the host\'s event stream (handoffs, tabs, browsers) as it happens',
  help: `usage: afhttp events [--tab TAB] [--host URL] [--last-event-id ID] [--count N] [--json]

Follows GET /v1/events and prints one line per event: id, time, type, tab,
profile and the main fields (a handoff.opened line carries the panel URL).
It reconnects by itself and resumes after the last event it printed; an
events.gap line means events were missed: re-read state (afhttp tabs).

  --tab TAB            only events about this tab (and gaps)
  --host URL           with several hosts in AFHTTP_URL: follow only this one
                       (every host is followed otherwise; each line names its host)
  --last-event-id ID   start after this event (replayed from the host's journal;
                       ids are per host: with several hosts, give --host too)
  --count N            exit after N events (default: until Ctrl-C)
  --json               one JSON object per line

exit codes: 0 stopped (Ctrl-C or --count reached), 4 host unavailable,
2 usage, 1 anything else.`,
  options: { tab: { type: 'string' }, host: { type: 'string' }, 'last-event-id': { type: 'string' }, count: { type: 'string' } },
  access: 'token',
  async run (ctx) {
    positionals('events', ctx.positionals, [])
    const tab = str(ctx.values, 'tab')
    const host = str(ctx.values, 'host')
    const count = positiveInt('events', '--count', str(ctx.values, 'count'))
    const lastEventId = positiveInt('events', '--last-event-id', str(ctx.values, 'last-event-id'))
    const stop = new AbortController()
    const stopListening = ctx.deps.onInterrupt(() => stop.abort())
    let printed = 0
    let opened = false
    let firstFailure: unknown
    const onDrop = (err: unknown): void => {
      // Never connected: the host is not there; say so instead of retrying in silence.
      if (!opened) { firstFailure = err; stop.abort(); return }
      ctx.io.err(`afhttp: event stream dropped (${err instanceof AfhttpClientError ? err.code : (err as Error).message}); reconnecting\n`)
    }
    try {
      for await (const e of ctx.client().events({ signal: stop.signal, lastEventId, ...(host !== undefined ? { host } : {}), onOpen: () => { opened = true }, onDrop })) {
        if (tab && e.tab_id !== tab && e.type !== 'events.gap') continue
        if (ctx.json) ctx.io.out(`${JSON.stringify(e)}\n`)
        else printLines(ctx.io, [renderEvent(e)])
        printed += 1
        if (count !== undefined && printed >= count) break
      }
    } finally {
      stopListening()
    }
    if (firstFailure) throw firstFailure
    return EXIT.ok
  }
}
