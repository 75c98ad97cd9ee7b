// The operator inbox page (docs/spec.md section 20). Plain browser JavaScript, no build step: it reads
// the host's list from /inbox/api/stream (server-sent events pushed on every lifecycle change,
// never polled), renders every field as text, and takes a handoff with one POST. All URLs are
// relative so a path prefix in front of the host (docs/spec.md section 14) is kept.
/* global EventSource, Notification, atob */

const $ = (id) => document.getElementById(id)
const list = $('afhttp-inbox-list')
const endedList = $('afhttp-inbox-ended')
const status = $('afhttp-inbox-status')
const notice = $('afhttp-inbox-notice')

/** The host's clock minus ours, so ages and countdowns follow the host. */
let skewMs = 0
let latest = { handoffs: [], ended: [] }
/** Per tab: a note to keep showing across re-renders (e.g. "someone is in it"). */
const notes = new Map()
/** For support and tests: how many lists arrived, and when (this clock) each handoff was first shown. */
window.afhttpInbox = { updates: 0, last_update_at: 0, handoffs: 0, first_seen: {} }

function el (tag, cls, text) {
  const e = document.createElement(tag)
  if (cls) e.className = cls
  if (text !== undefined && text !== null) e.textContent = String(text)
  return e
}

function duration (ms) {
  const s = Math.max(0, Math.round(ms / 1000))
  if (s < 60) return `${s}s`
  const m = Math.floor(s / 60)
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`
}

const hostNow = () => Date.now() + skewMs

function timesText (h) {
  const now = hostNow()
  return `waiting ${duration(now - Date.parse(h.opened_at))} · ${duration(Date.parse(h.expires_at) - now)} left`
}

function viewersText (h) {
  if (h.controller === 'human') return `Someone is working on it now${h.viewers > 1 ? ` (${h.viewers} watching)` : ''}.`
  if (h.controller === 'human_disconnected') return 'Someone was working on it and lost their connection.'
  if (h.viewers > 0) return `${h.viewers} ${h.viewers === 1 ? 'person has' : 'people have'} it open.`
  return ''
}

function renderItem (h) {
  const li = el('li', 'afhttp-inbox-item')
  li.dataset.tabId = h.tab_id
  li.dataset.state = h.state
  const head = el('div', 'head')
  head.append(el('span', 'profile', h.profile), el('span', 'reason', h.reason))
  li.append(head)
  if (h.instructions) li.append(el('p', 'instructions', h.instructions))
  const where = [h.title, h.origin].filter(Boolean).join(' — ')
  if (where) li.append(el('div', 'page', where))
  li.append(el('div', 'times', timesText(h)))
  const busy = viewersText(h)
  if (busy) li.append(el('div', 'busy', busy))
  const inUse = h.controller === 'human'
  const take = el('button', inUse ? 'afhttp-inbox-watch secondary' : 'afhttp-inbox-take', inUse ? 'Watch' : 'Take it')
  take.type = 'button'
  take.addEventListener('click', () => takeIt(h.tab_id, inUse ? 'view' : 'control', take))
  li.append(take)
  const note = notes.get(h.tab_id)
  if (note) li.append(note)
  return li
}

const ENDED_WORDS = { human_done: 'finished by a person', auto_detected: 'finished (the page got through)', driver: 'finished by the program', human_declined: 'declined', tab_closed: 'the tab closed', browser_lost: 'the browser went away', shutdown: 'the host stopped', api_close: 'closed by the program' }

function renderEnded (e) {
  const li = el('li', 'afhttp-inbox-ended-item')
  li.dataset.tabId = e.tab_id
  li.dataset.state = e.state
  const head = el('div', 'head')
  head.append(el('span', 'profile', e.profile), el('span', 'reason', e.state))
  li.append(head)
  const where = [e.title, e.origin].filter(Boolean).join(' — ')
  if (where) li.append(el('div', 'page', where))
  const how = e.state === 'expired' ? 'the hold ran out' : ENDED_WORDS[e.finish_reason] || e.finish_reason || e.state
  li.append(el('div', 'times', `${how} · ${duration(hostNow() - Date.parse(e.ended_at))} ago`))
  return li
}

function render () {
  list.replaceChildren(...latest.handoffs.map(renderItem))
  $('afhttp-inbox-empty').hidden = latest.handoffs.length > 0
  endedList.replaceChildren(...latest.ended.map(renderEnded))
  $('afhttp-inbox-ended-section').hidden = latest.ended.length === 0
}

/** Ages and countdowns move every second; the list itself changes only when the host says so. */
setInterval(() => {
  for (const li of list.children) {
    const h = latest.handoffs.find((x) => x.tab_id === li.dataset.tabId)
    const times = li.querySelector('.times')
    if (h && times) times.textContent = timesText(h)
  }
}, 1000)

function showNotice (text) {
  notice.textContent = text
  notice.hidden = !text
}

async function takeIt (tabId, mode, button) {
  button.disabled = true
  notes.delete(tabId)
  try {
    const res = await fetch(`api/handoffs/${encodeURIComponent(tabId)}/take`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mode }),
      credentials: 'same-origin'
    })
    const body = await res.json().catch(() => ({}))
    if (res.ok && body.takeover_url_secret) {
      // The link works once: straight into the panel, and out of this page's history.
      location.assign(body.takeover_url_secret)
      return
    }
    const code = body.error && body.error.code
    let text = (body.error && body.error.message) || `The host answered ${res.status}.`
    if (code === 'handoff_in_use') text = 'Someone took this one a moment ago. You can watch.'
    if (code === 'operator_unauthorized') text = 'You are signed out: open your inbox login link again.'
    notes.set(tabId, el('div', 'note', text))
    render()
  } catch (err) {
    notes.set(tabId, el('div', 'note', `The host could not be reached (${err.message}).`))
    render()
  } finally {
    button.disabled = false
  }
}

function connect () {
  const source = new EventSource('api/stream')
  source.addEventListener('open', () => {
    status.textContent = 'live'
    status.classList.remove('bad')
    showNotice('')
  })
  source.addEventListener('inbox', (ev) => {
    const data = JSON.parse(ev.data)
    skewMs = Date.parse(data.now) - Date.now()
    latest = data
    render()
    const stats = window.afhttpInbox
    for (const h of data.handoffs) if (!(h.tab_id in stats.first_seen)) stats.first_seen[h.tab_id] = Date.now()
    window.afhttpInbox = { ...stats, updates: stats.updates + 1, last_update_at: Date.now(), handoffs: data.handoffs.length }
  })
  source.addEventListener('error', () => {
    status.textContent = 'reconnecting…'
    status.classList.add('bad')
    if (source.readyState === EventSource.CLOSED) {
      // A refused stream (signed out, or the inbox switched off) is not retried by the browser.
      fetch('api/handoffs', { credentials: 'same-origin' }).then((res) => {
        if (res.status === 401) showNotice('You are signed out. Open your inbox login link again.')
        else setTimeout(connect, 2000)
      }, () => setTimeout(connect, 2000))
    }
  })
}

// ---------------------------------------------------------------- Web Push

function keyBytes (b64url) {
  const b64 = b64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - b64url.length % 4) % 4)
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))
}

async function pushSetup () {
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) return
  const section = $('afhttp-inbox-push-section')
  const button = $('afhttp-inbox-push')
  const state = $('afhttp-inbox-push-state')
  section.hidden = false
  const reg = await navigator.serviceWorker.register('sw.js')
  const show = async () => {
    const sub = await reg.pushManager.getSubscription()
    button.textContent = sub ? 'Stop notifications on this device' : 'Notify me of new handoffs'
    button.className = sub ? 'secondary' : ''
    state.textContent = sub ? 'This device gets a notification for every new handoff.' : Notification.permission === 'denied' ? 'Notifications are blocked for this site in the browser settings.' : ''
  }
  button.addEventListener('click', async () => {
    button.disabled = true
    try {
      const existing = await reg.pushManager.getSubscription()
      if (existing) {
        await fetch('api/push-subscriptions', { method: 'DELETE', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ endpoint: existing.endpoint }) })
        await existing.unsubscribe()
      } else {
        if (await Notification.requestPermission() !== 'granted') throw new Error('notifications were not allowed')
        const key = await (await fetch('api/push-key')).json()
        if (!key.public_key) throw new Error((key.error && key.error.message) || 'no push key')
        const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key.public_key) })
        const res = await fetch('api/push-subscriptions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(sub.toJSON()) })
        if (!res.ok) throw new Error(`the host answered ${res.status}`)
      }
      await show()
    } catch (err) {
      state.textContent = `Could not change notifications: ${err.message}`
    } finally {
      button.disabled = false
    }
  })
  await show()
}

connect()
pushSetup().catch((err) => { $('afhttp-inbox-push-state').textContent = `Notifications are not available here (${err.message}).` })
