import { AfhttpError, isAfhttpError } from '../errors.js'
import type { Recognition } from '../core/challenge.js'
import { recognize } from './recognize.js'
import { decideReclaim, type Verdict } from '../core/verdict.js'
import type { TabRecord, TabRegistry } from '../tabs/types.js'
import type { Clock } from '../core/clock.js'
import type { Egress } from '../browser/egress.js'
import type { DriverHandoffs } from '../handoffs/service.js'
import { navigate, type MainResponse } from './navigate.js'
import { awaitReadiness, type Readiness } from './readiness.js'
import { capture, observePage } from './capture.js'
import { blockedInspection, unlessDialog } from './blocked.js'
import type { FetchRequest } from './request.js'
import type { Inspection } from './inspection.js'
import { observationDeadline } from './deadline.js'
import { documentOf, judgeByFillingFrame } from './filling-frame.js'
import type { FetchResult, HumanTakeoverAction, Warning } from '../schemas/index.js'
import { fileChooserWarning } from '../core/page-ui.js'
import { PageWatch } from '../page-ui/page-watch.js'
import { permissionsReady } from '../page-ui/permissions.js'
import { localeReady } from '../browser/identity.js'
import { EgressWatch } from './egress-watch.js'

// The public shapes live once, in src/schemas/.
export type { FetchResult, Warning }

/** What a fetch asks of the rest of the host; src/routes/fetch.ts builds it once from the app. */
export interface FetchDeps {
  tabs: Pick<TabRegistry, 'get' | 'open' | 'assertAgentMayAct' | 'beginWork' | 'touch' | 'release'>
  /** A takeover fetch mints the panel link of the page it hands over (docs/spec.md section 6). */
  handoffs: Pick<DriverHandoffs, 'mint'>
  /** The host's clock, which the page's watch stamps its dialogs with. */
  clock: Pick<Clock, 'now'>
  /** The profile a fetch without one uses (AFHTTP_DEFAULT_PROFILE). */
  defaultProfile: string
  /** The profile's egress forwarder, when its browser runs one (docs/spec.md section 21). */
  egress: (profile: string) => Egress | undefined
}


/** Observes the page as it is now: readiness, recognition, captures and the verdict. */
export async function inspectTab (tab: TabRecord, req: Pick<FetchRequest, 'wait' | 'capture'>, deadline: number, response?: MainResponse): Promise<Inspection> {
  const readiness = await awaitReadiness(tab.page, req.wait, deadline)
  const observeBy = observationDeadline(deadline)
  const seen = await observePage(tab.page, observeBy)
  const main = response ?? tab.lastResponse
  // An unobservable page is not an empty one: recognise nothing rather than invent a kind.
  const top: Recognition = seen.failed ? {} : await recognize({ status: main?.status ?? null, url: tab.page.url(), title: seen.title, html: seen.html, text: seen.text, headers: main?.headers })
  const framed = seen.failed ? undefined : await viewInFrame(tab.page, top, seen.text, observeBy)
  const recognition = framed?.recognition ?? top
  // The text a person reads is the frame's; the HTML stays the document the address served.
  const captured = await capture(tab.page, req.capture, framed ? { ...seen, text: framed.text } : seen, observeBy)
  const judged = decideReclaim({
    status: main?.status ?? null,
    hasVisibleText: (framed?.text ?? seen.text).trim().length > 0,
    documentEmpty: framed === undefined && seen.html.replace(/<(head|script|style)[\s\S]*?<\/\1>/gi, '').replace(/<[^>]*>/g, '').trim() === '' && seen.text.trim() === '',
    recognition,
    requestedCaptures: req.capture,
    failedCaptures: captured.failed,
    readiness: readiness.measured ? readiness : undefined
  })
  const verdict: Verdict = seen.failed
    ? { ok: false, reclaim: false, reason: 'capture_failed', warnings: [{ code: 'page_unresponsive', message: `The page could not be observed: ${seen.failed}.` }] }
    : judged
  return { response: main, readiness, recognition, verdict, artifacts: captured.artifacts, warnings: [...(framed ? [framed.warning] : []), ...captured.warnings, ...verdict.warnings], ...(framed ? { frameDocument: framed.document } : {}) }
}

/** A top document that shows nothing over a frame that fills the view is judged by the frame's document (src/core/frame-view.ts). */
async function viewInFrame (page: TabRecord['page'], top: Recognition, topText: string, deadline: number): Promise<{ recognition: Recognition, text: string, document: string, warning: Warning } | undefined> {
  const framed = await judgeByFillingFrame(page, top, topText, deadline)
  if (framed === undefined) return undefined
  const { sight, recognition } = framed
  return { recognition, text: sight.text, document: documentOf(sight), warning: { code: 'page_in_frame', message: `The page shows one frame that fills it (${sight.url}); page_kind and the text capture are that frame's document's, the html capture is the top document's: fetch the frame's URL for its HTML.` } }
}

function readinessWarning (r: Readiness): Warning[] {
  return r.measured && !r.satisfied
    ? [{ code: 'readiness_timeout', message: `${r.strategy} was not satisfied within the timeout (${r.samples} samples).` }]
    : []
}

/** POST /v1/fetch (docs/spec.md section 6). */
export async function runFetch (deps: FetchDeps, req: FetchRequest): Promise<FetchResult> {
  const started = performance.now()
  const deadline = started + req.timeoutMs
  const timings: Record<string, number> = {}
  const mark = (name: string, since: number): void => { timings[name] = Math.round(performance.now() - since) }

  let tab: TabRecord
  const ownTab = req.tabId === undefined
  if (req.tabId !== undefined) {
    tab = deps.tabs.get(req.tabId)
    if (req.profile && req.profile !== tab.profile) throw new AfhttpError('invalid_request', `tab_id: the tab belongs to profile ${tab.profile}`, { field: 'tab_id' })
    deps.tabs.assertAgentMayAct(tab)
  } else {
    const t0 = performance.now()
    tab = await deps.tabs.open(req.profile ?? deps.defaultProfile, req.url)
    mark('open_tab_ms', t0)
  }
  // Watch before navigating: a dialog opened on load must be seen, not waited for.
  // Busy from the moment the window is taken: the pool counts running fetches as its demand.
  const done = deps.tabs.beginWork(tab)
  try {
    const tp = performance.now()
    PageWatch.of(tab.page, () => deps.clock.now())
    // No page may meet a permission prompt before the denials (and the profile's grants) are set.
    await permissionsReady(tab.page.browser())
    // docs/spec.md section 21: the profile's locale is on the page before it loads anything.
    await localeReady(tab.page)
    mark('prepare_ms', tp)
    return await fetchInTab(deps, req, tab, ownTab, { started, deadline, timings, mark })
  } finally {
    done()
  }
}

interface Clocking { started: number, deadline: number, timings: Record<string, number>, mark: (name: string, since: number) => void }

async function fetchInTab (deps: FetchDeps, req: FetchRequest, tab: TabRecord, ownTab: boolean, c: Clocking): Promise<FetchResult> {
  const { started, deadline, timings, mark } = c
  deps.tabs.touch(tab.id)

  const watch = PageWatch.of(tab.page)
  const choosersBefore = watch.choosersDuringWork
  let response: MainResponse | undefined
  let seen: Inspection | undefined
  // docs/spec.md section 21: what the profile's forwarder refused or could not carry, while this fetch ran.
  const egress = deps.egress(tab.profile)
  const egressWatch = egress && new EgressWatch(tab.page, egress, req.url)
  try {
    if (req.url !== undefined && !watch.dialog) {
      const t0 = performance.now()
      try {
        const loaded = await unlessDialog(watch, navigate(tab.page, req.url, req.wait, req.timeoutMs))
        if ('dialog' in loaded) seen = blockedInspection(tab, req, loaded.dialog, performance.now() - t0)
        else response = loaded.value
      } catch (err) {
        throw await failedNavigation(deps, tab, ownTab, req, egressWatch?.verdict({ err }) ?? err)
      }
      // The forwarder answered for the site (a refused address, a proxy that is down): no page was loaded.
      const refused = response && egressWatch?.verdict({ response })
      if (refused) throw await failedNavigation(deps, tab, ownTab, req, refused)
      mark('navigate_ms', t0)
    }
  } finally {
    egressWatch?.stop()
  }
  const t1 = performance.now()
  if (!seen) {
    const inspected = watch.dialog ? { dialog: watch.dialog } : await unlessDialog(watch, inspectTab(tab, req, deadline, response))
    seen = 'dialog' in inspected ? blockedInspection(tab, req, inspected.dialog, performance.now() - t1, response) : inspected.value
  }
  if (watch.choosersDuringWork > choosersBefore) seen.warnings.push(fileChooserWarning())
  if (egressWatch) seen.warnings.push(...egressWatch.warnings())
  mark('inspect_ms', t1)
  deps.tabs.touch(tab.id)

  const result: FetchResult = {
    ok: seen.verdict.ok,
    url: req.url ?? tab.page.url(),
    final_url: tab.page.url(),
    status: seen.response?.status ?? null,
    ...(seen.recognition.page_kind ? { page_kind: seen.recognition.page_kind } : {}),
    ...(seen.recognition.challenge ? { challenge: seen.recognition.challenge } : {}),
    readiness: seen.readiness,
    artifacts: seen.artifacts,
    warnings: [...seen.warnings, ...readinessWarning(seen.readiness)],
    tab_id: tab.id,
    tab_retained: false,
    actions: [],
    trace: { timings }
  }

  if (req.takeover && !seen.verdict.reclaim) {
    tab.retained = true
    result.tab_retained = true
    result.trace.retained_tab_id = tab.id
    result.actions.push(await humanAction(deps, tab, req, seen, result.warnings))
  } else if (ownTab || (req.takeover && seen.verdict.reclaim)) {
    // A plain fetch closes only its own tab; a successful takeover re-fetch recycles the caller's.
    // Only a window this fetch opened and no person saw may be reset for a later fetch.
    const t2 = performance.now()
    await closeQuietly(deps, tab, result, ownTab)
    mark('release_ms', t2)
  }
  mark('total_ms', started)
  return result
}

async function humanAction (deps: FetchDeps, tab: TabRecord, req: FetchRequest, seen: Inspection, warnings: Warning[]): Promise<HumanTakeoverAction> {
  const action: HumanTakeoverAction = { kind: 'human_takeover', reason: seen.blocked ? 'dialog' : seen.verdict.reason ?? 'content_unverified' }
  const mint = (): ReturnType<typeof deps.handoffs.mint> => deps.handoffs.mint(tab.id, {
    region: req.region,
    readySelector: req.wait.kind === 'selector-stable' ? req.wait.selector : undefined,
    challengeSeen: seen.recognition.challenge !== undefined,
    // A widget seen in the frame that fills the view is aimed at in that frame (gateFrame says so).
    widgetSelector: seen.recognition.widget_selector,
    gateFrame: seen.recognition.challenge !== undefined ? seen.frameDocument : undefined,
    instructions: req.instructions,
    reason: action.reason
  })
  try {
    // A live check that misses its budget once on a busy machine (no frame within 4 s) is not a
    // browser that cannot be taken over: ask once more before handing back a fetch without a link.
    const minted = await mint().catch((err: unknown) => {
      if (isAfhttpError(err) && err.code === 'takeover_unavailable') return mint()
      throw err
    })
    action.takeover_url_secret = minted.takeover_url_secret
    action.handoff_fence = minted.handoff_fence
    action.expires_at = minted.expires_at
    warnings.push(...minted.warnings)
  } catch (err) {
    const coded = isAfhttpError(err) ? err : new AfhttpError('internal', (err as Error).message)
    warnings.push({ code: 'takeover_url_unavailable', message: `No panel URL could be minted (${coded.code}): ${coded.message}` })
  }
  return action
}

async function closeQuietly (deps: FetchDeps, tab: TabRecord, result: FetchResult, reusable: boolean): Promise<void> {
  try {
    await deps.tabs.release(tab.id, reusable)
  } catch (err) {
    // The guard failed, or a handoff began meanwhile: the page stays open and the caller learns where.
    tab.retained = true
    result.tab_retained = true
    result.trace.retained_tab_id = tab.id
    result.warnings.push({ code: isAfhttpError(err) ? err.code : 'anchor_guard_failed', message: (err as Error).message })
  }
}

async function failedNavigation (deps: FetchDeps, tab: TabRecord, ownTab: boolean, req: FetchRequest, err: unknown): Promise<AfhttpError> {
  const coded = isAfhttpError(err) ? err : new AfhttpError('navigation_failed', (err as Error).message)
  let retained = !ownTab
  if (ownTab && req.takeover) {
    // A takeover fetch keeps the tab so a person can look at what failed to load.
    tab.retained = true
    retained = true
  } else if (ownTab) {
    try { await deps.tabs.release(tab.id) } catch { retained = true }
  }
  return retained
    ? new AfhttpError(coded.code, coded.message, { ...coded.details, tab_id: tab.id, trace: { retained_tab_id: tab.id } })
    : coded
}
