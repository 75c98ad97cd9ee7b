// One person's panel connection (docs/spec.md section 7): who they are, their socket and frame
// sink, and the words they get when their input cannot reach the page.
import { randomBytes } from 'node:crypto'
import WebSocket from 'ws'
import { isHeld, summarize, type Handoff } from '../core/handoff.js'
import type { FrameSink } from './frame-sink.js'
import type { Lease } from './lease.js'
import type { HostMessage, PanelMessage, StateMessage } from './messages.js'

export interface Viewer {
  readonly id: string
  readonly ws: WebSocket
  readonly sink: FrameSink
  readonly lease: Lease
  size?: { width: number, height: number, dpr: number, whole: boolean }
  stale: number
}

/** A viewer's id: random, so one viewer cannot name another's control (docs/spec.md section 7). */
export function newViewerId (): string {
  return `v_${randomBytes(9).toString('base64url')}`
}

/** A text message to one viewer, if its socket is still open. */
export function sendTo (viewer: Viewer, msg: HostMessage): void {
  if (viewer.ws.readyState === WebSocket.OPEN) viewer.ws.send(JSON.stringify(msg))
}

/**
 * What a viewer's own connection settles before the tab sees it: frame acks, and a view link's
 * attempts to act, refused here rather than by hidden buttons (docs/spec.md section 7). True when
 * the message is done with. Complaints are said once per burst.
 */
export function answeredByViewer (viewer: Viewer, msg: PanelMessage): boolean {
  if (msg.t === 'ack') {
    // Frames flow by this count (docs/panel.md "A slow viewer"): one the socket never carried is the panel's bug.
    if (!viewer.sink.acked(msg.n) && viewer.stale++ % 50 === 0) sendTo(viewer, { t: 'error', message: `ack.n ${msg.n} is not a count of frames sent on this socket` })
    return true
  }
  if (viewer.lease.mode !== 'view' || msg.t === 'size' || msg.t === 'detail') return false
  if (viewer.stale++ % 50 === 0) sendTo(viewer, { t: 'refused', action: msg.t, reason: 'view_only', message: 'This is a view-only link: you can watch, not act.' })
  return true
}

/** Why input from this viewer did not reach the page, in the person's words. */
export function staleInputMessage (h: Handoff | undefined, viewerId: string, now: number): string {
  if (!h || !isHeld(h, now)) return 'The hold on this page is over: that input was not sent.'
  if (h.control.controller !== 'human' || h.control.holder !== viewerId) return 'You do not have control: that input was not sent. Press “Take control” to use the page.'
  return 'Control changed while that input was on its way: it was not sent. Try again.'
}

/** The handoff as one viewer sees it: whether they control it, their mode, how many watch. */
export function stateMessage (h: Handoff | undefined, viewer: Viewer, viewers: number, now: number): StateMessage {
  if (!h) return { t: 'state', viewer: viewer.id, state: 'revoked' }
  return {
    t: 'state',
    viewer: viewer.id,
    you_control: h.control.controller === 'human' && h.control.holder === viewer.id,
    mode: viewer.lease.mode,
    viewers,
    now,
    ...summarize(h, now)
  }
}
