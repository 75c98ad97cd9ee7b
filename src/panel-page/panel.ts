// The takeover panel (docs/spec.md section 10): wires the live view, input capture and the
// host connection to the controls. Stable hooks: #afhttp-view, #afhttp-done,
// #afhttp-control, #afhttp-decline, #afhttp-instructions, #afhttp-focus, #afhttp-banner and
// window.afhttpPanelStats; browser UI
// outside the page (docs/spec.md section 16) in #afhttp-dialog, #afhttp-picker, #afhttp-file.
import type { EndedMessage, FocusState, HostMessage, LiveStateMessage, PanelInput, PanelWireMessage, TabsMessage } from '../panel/messages.js'
import type { HandoffSummary } from '../core/handoff.js'
import { DECLINE_NOTE_MAX_CHARS } from '../limits.js'
import type { PanelStats } from './stats.js'
import { View } from './view.js'
import { PointerCapture } from './pointer.js'
import { KeyboardCapture } from './keyboard.js'
import { BANNER_THRESHOLD, declineOverHttp, doneOverHttp, pollStatus, renewLease, Socket, type HttpAnswer } from './connection.js'
import { PageUi } from './page-ui.js'
import { SitePermissions } from './permissions.js'
import { Outbox, type Gate, type Pending } from './outbox.js'
import { statusIsNewer } from '../core/panel-status.js'

// The panel's own elements (panel/index.html): always there, so looked up without a null check.
const $ = <E extends HTMLElement = HTMLElement>(id: string): E => document.getElementById(id) as E
const now = (): number => performance.timeOrigin + performance.now()
const tab = new URLSearchParams(location.search).get('tab') ?? ''
const LIVE = new Set(['open', 'human', 'human_disconnected'])
const coarse = matchMedia('(pointer: coarse)').matches

const stats: PanelStats = window.afhttpPanelStats = {
  frames: 0, bytes: 0, last_frame_at: null, inputs_sent: 0, inputs_held: 0, inputs_waited: 0, inputs_refused: 0,
  frames_drawn: 0, frames_skipped: 0, first_frame_at: null, last_drawn_at: null,
  script_at: now(), last_input_at: null, ws_connects: 0, ws_open_at: null, aim: null, controller: null, you_control: false, state: null,
  generation: null, status_answers: 0, status_stale: 0, mode: null, zoom: 1, tab_id: tab, stills_drawn: 0, stills_dropped: 0, still_bytes: 0
}
const ui = {
  view: $('afhttp-view'), control: $<HTMLButtonElement>('afhttp-control'), done: $<HTMLButtonElement>('afhttp-done'), focus: $('afhttp-focus'),
  hold: $('afhttp-hold'), banner: $('afhttp-banner'), note: $('afhttp-note'), overlay: $('afhttp-overlay'),
  page: $('afhttp-page'), aim: $<HTMLButtonElement>('afhttp-aim'), kbd: $<HTMLButtonElement>('afhttp-kbd'), decline: $<HTMLButtonElement>('afhttp-decline'),
  instructions: $('afhttp-instructions'), declineBox: $<HTMLFormElement>('afhttp-decline-box'), declineReason: $<HTMLTextAreaElement>('afhttp-decline-reason')
}
// The host's bound on a decline reason (src/limits.ts), not a second copy in the markup.
ui.declineReason.maxLength = DECLINE_NOTE_MAX_CHARS

/** The last state from the host (a revoked one carries no summary), kept current by the status poll. */
let state: Partial<LiveStateMessage> | null = null
/** When the socket's latest state arrived (performance.now()): older status answers lose to it. */
let socketStateAt: number | undefined
let focus: FocusState = { editable: false, kind: 'none', label: '' }
let skew = 0
let ended = false
let noteUntil = 0
const stops: Array<() => void> = []

/** The state came over the socket that is open now (a reconnect asks again before input goes). */
let fresh = false
/** The host's tab list arrived: with the state, all the panel needs to lay itself out. */
let tabsSeen = false

const view = new View(ui.view, stats)

/**
 * Whether the person's input can go (docs/spec.md section 17): it waits while the socket opens and
 * until the host's state says who controls the tab; it can never go from a view link, while
 * another viewer (or nobody) has control here, or once the handoff is over.
 */
function gate (): Gate {
  if (ended) return 'refuse'
  if (!state || !fresh || !socket.open) return 'hold'
  if (state.mode === 'view') return 'refuse'
  return state.you_control === true ? 'send' : 'refuse'
}
const mayInput = (): boolean => gate() === 'send'

/** Why input cannot go from this panel, in the person's words. */
function whyRefused (): string {
  if (ended) return 'This handoff is over: nothing more reaches the page.'
  if (state?.mode === 'view') return 'View-only link: you can watch this page, not act on it.'
  if (state?.controller === 'human') return 'Another viewer has control; you are watching.'
  return 'You are watching. Press “Take control” to use the page.'
}

const outbox = new Outbox({
  gate,
  // Stamped with the generation current when it goes, not when it was made: input held until
  // the host granted control goes under that control (the host drops older generations).
  deliver: (msg) => {
    if (socket.send({ ...msg, g: state?.generation ?? 0 })) {
      stats.inputs_sent++
      stats.last_input_at = now()
    }
  },
  refused: (count, full) => {
    stats.inputs_refused = outbox.refusedCount
    const what = count === 1 ? 'That input was' : `${count} inputs were`
    notify(full ? `${what} not sent: the host has not answered for too long.` : `${what} not sent. ${whyRefused()}`, 'warn')
  }
})

function sendInput (msg: PanelInput | Pending): void {
  outbox.push(msg)
  stats.inputs_held = outbox.held
  stats.inputs_waited = outbox.heldCount
}

function flushInput (): void {
  outbox.flush()
  stats.inputs_held = outbox.held
}

function notify (text: string, tone: 'info' | 'warn' = 'info'): void {
  ui.note.textContent = text
  ui.note.title = text // the note is one line; the whole text stays reachable
  ui.note.dataset.tone = tone
  noteUntil = Date.now() + 6_000
}

function overlay (text: string | null, endedView = false): void {
  ui.overlay.hidden = !text
  ui.overlay.textContent = text ?? ''
  ui.overlay.dataset.ended = String(endedView)
}

const socket = new Socket({
  tab,
  stats,
  onOpen: () => {
    fresh = false
    socket.send(view.wantedSize())
    overlay(stats.frames_drawn ? null : 'Waiting for the first picture…')
  },
  onFrame: (buffer) => {
    view.push(buffer)
    if (!ended && !ui.overlay.hidden) overlay(null)
  },
  onMessage: (m) => {
    if (m.t === 'state') { state = m; fresh = true; socketStateAt = performance.now(); if ('now' in m) skew = m.now - Date.now(); render(); startView(); flushInput() }
    else if (m.t === 'focus') { onFocus(m) }
    else if (m.t === 'refused') notify(refusal(m), 'warn')
    else if (m.t === 'granted') permissions.granted(m.permission, m.origin)
    else if (m.t === 'ended') end(m)
    else if (m.t === 'tabs') { renderTabs(m); tabsSeen = true; startView() }
    else if (pageUi.handle(m)) return
    else if (m.t === 'error') console.warn('afhttp host:', m.message)
  },
  onDown: () => { fresh = false; if (!ended) overlay('Connection lost. Reconnecting…') },
  onFinal: (code) => { if (!ended) end({ state: code === 4401 ? 'lease' : 'closed' }) }
})

const pageUi = new PageUi({ tab, send: sendInput, mayInput, notify })
const permissions = new SitePermissions({ send: sendInput, mayInput, notify, url: () => ui.page.title, relayout: () => view.relayout?.() })
const keyboard = new KeyboardCapture({
  field: $<HTMLTextAreaElement>('afhttp-keys'), send: sendInput, gate, notify, refused: () => notify(whyRefused(), 'warn'), onFocusChange: () => renderFocus()
})
const pointer = new PointerCapture({
  view,
  send: sendInput,
  gate,
  onPress: (e, allowed) => {
    if (!allowed) { notify(whyRefused(), 'warn'); return }
    lastPressAt = performance.now()
    const r = ui.view.getBoundingClientRect()
    keyboard.placeAt(e.clientX - r.left, e.clientY - r.top)
    // A phone keyboard should open only when there is a field to type into.
    if (e.pointerType === 'mouse' || focus.editable) keyboard.focus()
  }
})

// The first picture is drawn once the bars above it are final (docs/spec.md section 17): the host's
// state (instructions, control) and tab list are shown first; the "Whole page" button follows
// the frame's aim before that frame is laid out.
function startView (): void {
  if (!state || !tabsSeen || view.ready) return
  render()
  view.start()
}
view.beforeLayout = (header) => { ui.aim.hidden = header.aim.kind === 'viewport' }
// A press made before the picture was laid out is mapped and sent now.
view.onDrawn = flushInput

// A zoomed view wants sharper frames, and a sharp still of what it shows: tell the host once
// the fingers settle.
pointer.onZoom = () => view.onResize()
view.detail.onStale = () => socket.send(view.wantedDetail())

let resizeTimer = 0
let askedDetail = false
view.onResize = () => {
  clearTimeout(resizeTimer)
  resizeTimer = setTimeout(() => {
    socket.send(view.wantedSize())
    view.detail.moved()
    const detail = view.wantedDetail()
    // "No still" needs saying once, not after every resize.
    if (detail.rect || askedDetail) socket.send(detail)
    askedDetail = detail.rect !== null
  }, 150)
}

/** The tab strip (#afhttp-tabs): shown while a popup is open, one button per window. */
function renderTabs (m: TabsMessage): void {
  // A still of the tab shown before is no picture of this one; a new one is asked for.
  if (m.shown !== stats.tab_id) { view.detail.forgetFrames(); view.onResize() }
  stats.tab_id = m.shown
  stats.tabs = m.tabs.length
  const strip = $('afhttp-tabs')
  strip.replaceChildren(...m.tabs.map((t, i) => {
    const b = document.createElement('button')
    b.type = 'button'
    b.setAttribute('role', 'tab')
    b.setAttribute('aria-selected', String(t.tab_id === m.shown))
    b.dataset.tabId = t.tab_id
    let host = t.url
    try { host = new URL(t.url).host || t.url } catch { /* not a URL: show it as it is */ }
    // Text only: a page's URL is not ours to render as markup.
    b.textContent = t.popup ? `Popup ${i}: ${host}` : `Page: ${host}`
    b.title = t.url
    b.addEventListener('click', () => { socket.send({ t: 'show', tab_id: t.tab_id }) })
    return b
  }))
  strip.hidden = m.tabs.length < 2
  if (m.tabs.length > 1 && m.shown !== tab) notify('The page opened a new window; it is shown here. It returns to the page when it closes.')
}

/**
 * The page's focus changed. On a touch device the phone's keyboard follows it: up when a tap
 * made the page focus a field, down when focus left (docs/spec.md section 10 "Phones").
 */
let lastPressAt = 0
const FOCUS_AFTER_PRESS_MS = 5_000 // a focus this soon after a press is its doing (a loaded host took > 2 s)
function onFocus (m: FocusState & { url: string }): void {
  const was = focus.editable === true
  focus = m
  ui.page.textContent = m.url
  ui.page.title = m.url
  if (coarse && mayInput()) {
    if (m.editable === true && !was && performance.now() - lastPressAt < FOCUS_AFTER_PRESS_MS) keyboard.focus()
    else if (m.editable !== true && was && keyboard.focused) keyboard.blur()
  }
  renderFocus()
}

function refusal (m: Extract<HostMessage, { t: 'refused' }>): string {
  if (m.action === 'take' && m.reason === 'held_by_other') return 'Another viewer has control. You can take it once they release it or disconnect.'
  if (m.action === 'release') return 'You do not have control to release.'
  if (m.action === 'input') return m.message ?? 'The host did not pass that input to the page.'
  return m.message ?? `The host refused ${m.action}.`
}

function render (): void {
  const you = state?.you_control === true
  Object.assign(stats, { controller: state?.controller ?? null, you_control: you, state: state?.state ?? null, generation: state?.generation ?? null })
  const mode = state?.mode ?? 'control'
  stats.mode = mode
  document.body.dataset.mode = mode
  // Instructions are the driver's plain text: textContent, never HTML.
  const words = typeof state?.instructions === 'string' ? state.instructions : ''
  if (ui.instructions.textContent !== words) ui.instructions.textContent = words
  ui.instructions.hidden = words === ''
  renderHold()
  ui.control.textContent = you ? 'Release control' : 'Take control'
  ui.control.dataset.holding = String(you)
  ui.view.dataset.control = String(you)
  pageUi.refresh()
  if (Date.now() > noteUntil) {
    const other = state?.controller === 'human' && !you
    ui.note.dataset.tone = other ? 'warn' : 'info'
    ui.note.textContent = mode === 'view'
      ? 'View-only link: you can watch this page, not act on it.'
      : other
      ? 'Another viewer has control; you are watching.'
      : state?.will_check_again
        ? `The host checks the page after each click and Enter (${state.checks_left} checks left). Press Done when you are through.`
        : 'Press Done when you are through.'
  }
  renderFocus()
}

function renderFocus (): void {
  const [st, text] = !state?.you_control
    ? ['watching', 'Watching: take control to type']
    : focus.editable === true
      ? keyboard.focused
        ? ['typing', `Typing goes to ${focus.label || focus.kind}`]
        : ['blurred', `Click the page to type into ${focus.label || focus.kind}`]
      : focus.editable === null
        ? ['frame', 'Typing goes into an embedded frame']
        : ['none', 'No text field is focused: typing goes nowhere']
  ui.focus.dataset.state = st
  ui.focus.textContent = text
  ui.focus.title = text
}

const ENDED_TEXT: Record<string, string> = {
  human_done: 'Done. The page was handed back; you can close this tab.',
  human_declined: 'You handed the page back without finishing; the program that asked was told. You can close this tab.',
  api_close: 'The program took the page back. You can close this tab.',
  revoked: 'This handoff was withdrawn. You can close this tab.',
  auto_detected: 'The page got through and was handed back automatically. You can close this tab.',
  driver: 'The program took the page back. You can close this tab.',
  expired: 'The hold on this page expired. Ask for a new link if the page still needs you.',
  lease: 'This panel is no longer active. Open a fresh panel link to continue.',
  browser_lost: 'The browser behind this page went away, so this handoff ended. Ask for a new link if the page still needs you.',
  tab_closed: 'The page was closed, so this handoff ended. You can close this tab.',
  shutdown: 'The host shut down, so this handoff ended. Ask for a new link if the page still needs you.',
  closed: 'This handoff is closed. You can close this tab.'
}

/** How a handoff ended, as the socket, the status poll or an HTTP Done/decline says it. */
type Ending = Partial<Pick<EndedMessage, 'finish_reason'>> & { state: string } | HandoffSummary

function end (info: Ending): void {
  if (ended) return
  ended = true
  Object.assign(stats, { state: info.state, finish_reason: info.finish_reason ?? null, you_control: false })
  socket.stop()
  for (const stop of stops) stop()
  keyboard.releaseAll()
  flushInput()
  ui.control.disabled = true
  ui.done.disabled = true
  ui.decline.disabled = true
  ui.declineBox.hidden = true
  permissions.close()
  for (const m of ['dialog', 'select', 'chooser', 'picker']) pageUi.handle({ t: m, [m]: null })
  overlay(ENDED_TEXT[info.finish_reason ?? ''] ?? ENDED_TEXT[info.state] ?? ENDED_TEXT.closed, true)
  ui.note.textContent = ''
}

ui.control.addEventListener('click', () => {
  if (!socket.send({ t: state?.you_control ? 'release' : 'take' })) notify('Not connected; try again in a moment.', 'warn')
})
/** Ends over HTTP when the socket cannot carry it; whatever goes wrong is told, never thrown. */
async function endOverHttp (send: () => Promise<HttpAnswer>, failed: string): Promise<void> {
  const res = await send().catch((): HttpAnswer => ({ ok: false, body: null }))
  if (res.ok) end(res.body)
  else notify(res.body?.error?.message ?? failed, 'warn')
}

ui.done.addEventListener('click', () => {
  if (socket.send({ t: 'done' })) return
  // No socket yet (or it dropped): the same person can still finish over HTTP.
  void endOverHttp(() => doneOverHttp(tab), 'Done did not reach the host; try again.')
})
ui.decline.addEventListener('click', () => {
  ui.declineBox.hidden = !ui.declineBox.hidden
  if (!ui.declineBox.hidden) ui.declineReason.focus()
  view.relayout?.()
})
$('afhttp-decline-cancel').addEventListener('click', () => { ui.declineBox.hidden = true; view.relayout?.() })
ui.declineBox.addEventListener('submit', (e) => {
  e.preventDefault()
  const reason = ui.declineReason.value.trim().slice(0, DECLINE_NOTE_MAX_CHARS)
  const msg: PanelWireMessage = reason ? { t: 'decline', reason } : { t: 'decline' }
  if (socket.send(msg)) return
  void endOverHttp(() => declineOverHttp(tab, reason), 'That did not reach the host; try again.')
})
ui.aim.addEventListener('click', () => {
  view.whole = !view.whole
  ui.aim.setAttribute('aria-pressed', String(view.whole))
  ui.aim.textContent = view.whole ? 'Show the part that needs you' : 'Whole page'
  view.relayout()
  socket.send(view.wantedSize())
  // …and, once settled, the still this new picture may want.
  view.onResize()
})
ui.kbd.hidden = !coarse
ui.kbd.addEventListener('click', () => keyboard.focus())

stops.push(pollStatus(tab, (body, failures, status, sentAt) => {
  ui.banner.hidden = failures < BANNER_THRESHOLD
  ui.banner.textContent = 'Connection to the host lost. Retrying…'
  // The socket's "ended" message says why, when it is on its way; give it a moment.
  if (status === 401) { setTimeout(() => end({ state: 'lease' }), 1_000); return false }
  if (!body) return true
  skew = Date.parse(body.now) - Date.now()
  if (!LIVE.has(body.handoff.state)) { end(body.handoff); return false }
  stats.status_answers++
  if (!state) return true
  // A poll that left before the socket's latest state would put back an older control generation.
  if (!statusIsNewer(sentAt, socketStateAt)) { stats.status_stale++; return true }
  Object.assign(state, body.handoff, { you_control: state.you_control })
  render()
  return true
}))
stops.push(renewLease(tab, (ok, status, body) => {
  if (status === 401) setTimeout(() => end({ state: 'lease' }), 1_000)
  else if (!ok && status === 503) notify(`The host's live checks are failing (${body?.error?.details?.check ?? 'unknown'}); retrying.`, 'warn')
}))
function renderHold (): void {
  if (!state?.expires_at) return
  const left = Math.max(0, Date.parse(state.expires_at) - (Date.now() + skew))
  const s = Math.ceil(left / 1000)
  ui.hold.textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')} left`
  ui.hold.dataset.low = String(s < 60)
}
const tick = setInterval(() => {
  renderHold()
  if (Date.now() > noteUntil && state) render()
}, 500)
stops.push(() => clearInterval(tick))

socket.connect()
