// The MCP tools (docs/spec.md section 18), each an HTTP API call through the driver library: stdio and
// the host's /mcp run this same code against one or several hosts.
import type { TSchema } from 'typebox'
import type { AfhttpClient, FetchRequest } from '../client/index.js'
import { MCP_WAIT_S_MAX } from '../limits.js'
import {
  McpCloseResult, McpCloseTabArgs, McpFetchPageArgs, McpListTabsArgs, McpPage, McpTabArgs, McpTabList, McpWaitArgs,
  type McpFetchPageArgs as FetchPageArgs, type McpPage as Page, type McpTabArgs as TabArgs, type McpTabList as TabList, type McpWaitArgs as WaitArgs
} from '../schemas/mcp.js'
import { askPerson, pageAfter, type PageContext } from './ask-person.js'
import { humanAction, pageFromFetch, pageFromSnapshot, personNeeded, withoutFence } from './page.js'
import type { ToolCall } from './tool-call.js'
import { isLive, waitWithProgress } from './wait.js'

export interface ToolDef {
  name: string
  title: string
  description: string
  args: TSchema
  result: TSchema
  annotations: { readOnlyHint?: boolean, destructiveHint?: boolean, idempotentHint?: boolean, openWorldHint?: boolean }
  run: (client: AfhttpClient, call: ToolCall, args: never) => Promise<unknown>
}

// wait_for_person does not know why the fetch needed a person (the summary does not say), so a
// re-ask's message says only that the page still needs one.
const RE_ASK_REASON = 'person_needed'

async function fetchPage (client: AfhttpClient, call: ToolCall, args: FetchPageArgs): Promise<Page> {
  const req: FetchRequest = {
    url: args.url,
    takeover: args.takeover ?? true,
    capture: ['html', 'text'],
    ...(args.profile !== undefined ? { profile: args.profile } : {}),
    ...(args.wait !== undefined ? { wait: args.wait as FetchRequest['wait'] } : {}),
    ...(args.timeout_ms !== undefined ? { timeout_ms: args.timeout_ms } : {}),
    ...(args.instructions !== undefined ? { instructions: args.instructions } : {})
  }
  const r = await client.fetch(req, { signal: call.signal })
  const action = humanAction(r)
  if (r.ok || !action) return pageFromFetch(r, args.max_chars, null)
  const summary = await client.handoffSummary(r.tab_id, { signal: call.signal }).catch(() => null)
  const page = pageFromFetch(r, args.max_chars, summary)
  const link = action.takeover_url_secret
  if (link === undefined || !call.urlElicitation || action.handoff_fence === undefined) return { ...page, person: personNeeded(action, link) }
  const ctx: PageContext = { client, call, maxChars: args.max_chars, refetch: { wait: req.wait, timeout_ms: req.timeout_ms } }
  return askPerson(ctx, {
    tabId: r.tab_id,
    link,
    fence: action.handoff_fence,
    reason: action.reason,
    instructions: args.instructions,
    pageUrl: r.final_url,
    expiresAt: action.expires_at ?? summary?.expires_at ?? ''
  })
}

async function waitForPerson (client: AfhttpClient, call: ToolCall, args: WaitArgs): Promise<Page> {
  const ctx: PageContext = { client, call, maxChars: args.max_chars, refetch: {} }
  const summary = await client.handoffSummary(args.tab_id, { signal: call.signal })
  if (!isLive(summary)) return pageAfter(ctx, args.tab_id, RE_ASK_REASON, { summary, timedOut: false })
  if (call.urlElicitation && summary.state === 'open') {
    // Nobody has opened the panel: ask this client's person, with a fresh link for the same handoff.
    const mint = await client.handoff(args.tab_id, {}, { signal: call.signal })
    if (mint.takeover_url_secret !== undefined) {
      const snap = await client.snapshot(args.tab_id, { capture: [] }, { signal: call.signal })
      return askPerson(ctx, {
        tabId: args.tab_id,
        link: mint.takeover_url_secret,
        fence: mint.handoff_fence,
        reason: RE_ASK_REASON,
        instructions: summary.instructions,
        pageUrl: snap.url,
        expiresAt: mint.expires_at
      })
    }
  }
  const waited = await waitWithProgress(client, call, args.tab_id, (args.timeout_s ?? MCP_WAIT_S_MAX) * 1000, summary)
  return pageAfter(ctx, args.tab_id, RE_ASK_REASON, waited)
}

async function snapshot (client: AfhttpClient, call: ToolCall, args: TabArgs): Promise<Page> {
  return pageFromSnapshot(await client.snapshot(args.tab_id, { capture: ['text'] }, { signal: call.signal }), args.max_chars)
}

async function listTabs (client: AfhttpClient, call: ToolCall): Promise<TabList> {
  const { tabs } = await client.listTabs({ signal: call.signal })
  return { tabs: tabs.map((t) => ({ ...t, handoff: withoutFence(t.handoff) })) }
}

export const TOOLS: readonly ToolDef[] = [
  {
    name: 'fetch_page',
    title: 'Fetch a page (a person steps in when it needs one)',
    description: 'Loads a URL in a persistent browser profile and returns its text. When the page needs a person (a bot check, a login, a denial), the tab is kept: a client with URL elicitation shows the person a link to the live page and this call returns the page after their work; other clients get `person.panel_url` to hand to a person, then call wait_for_person.',
    args: McpFetchPageArgs,
    result: McpPage,
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    run: fetchPage as ToolDef['run']
  },
  {
    name: 'snapshot',
    title: 'Observe a tab',
    description: 'The current text, title and state of a kept tab, without acting on it (works while a person drives).',
    args: McpTabArgs,
    result: McpPage,
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: snapshot as ToolDef['run']
  },
  {
    name: 'list_tabs',
    title: 'List tabs',
    description: 'Every open tab of the host(s): profile, URL, title, who controls it, and its handoff.',
    args: McpListTabsArgs,
    result: McpTabList,
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: listTabs as ToolDef['run']
  },
  {
    name: 'close_tab',
    title: 'Close a tab',
    description: 'Closes a kept tab (and ends its handoff, if a person was asked).',
    args: McpCloseTabArgs,
    result: McpCloseResult,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: (async (client: AfhttpClient, call: ToolCall, args: { tab_id: string }) => client.closeTab(args.tab_id, { signal: call.signal })) as ToolDef['run']
  },
  {
    name: 'wait_for_person',
    title: 'Wait for the person',
    description: 'Waits until the person working a tab is through (or `timeout_s` passes) and returns the page then. A client with URL elicitation is asked to show the person a fresh link when nobody has opened the panel yet.',
    args: McpWaitArgs,
    result: McpPage,
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    run: waitForPerson as ToolDef['run']
  }
]
