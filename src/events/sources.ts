import type { FastifyInstance } from 'fastify'
import type { EventInput } from '../core/event-journal.js'
import type { Transition } from '../core/lifecycle.js'

// The public events of docs/spec.md section 15, as a subscriber of the host's lifecycle
// (src/schemas/lifecycle.ts): each transition a driver may hear becomes one event, its `data`
// the public part of the payload (src/schemas/events.ts). A mint's panel URL rides beside
// `handoff.opened` as a sealed capability: the stream and the webhook get it, the journal shows
// it only while it can still be exchanged.
export function wireEventSources (app: FastifyInstance): void {
  const { events, lifecycle } = app
  const publish = (t: Transition, data: EventInput['data'], sealed?: Parameters<typeof events.publish>[1]): void => {
    events.publish({ type: t.type, tab_id: t.tab_id, profile: t.profile, data } as EventInput, sealed)
  }

  lifecycle.on('tab.opened', (t) => publish(t, t.data))
  lifecycle.on('tab.closed', (t) => publish(t, t.data))
  lifecycle.on('browser.started', (t) => publish(t, t.data))
  lifecycle.on('browser.lost', (t) => publish(t, t.data))
  const minted = (t: Transition<'handoff.opened' | 'handoff.url_reissued'>, extras: { panelUrl?: Parameters<typeof events.publish>[1] }): void => {
    const { reason: _reason, ...data } = t.data
    publish(t, data, extras.panelUrl)
  }
  lifecycle.on('handoff.opened', minted)
  lifecycle.on('handoff.url_reissued', minted)
  lifecycle.on('handoff.viewer_joined', (t) => publish(t, { handoff_fence: t.data.handoff_fence, viewers: t.data.viewers }))
  lifecycle.on('handoff.control', (t) => {
    const { handoff_fence: fence, controller, generation, state } = t.data
    publish(t, { handoff_fence: fence, controller, generation, state })
  })
  const ended = (t: Transition<'handoff.finished' | 'handoff.expired' | 'handoff.revoked'>): void => {
    const { by: _by, held_ms: _held, ...data } = t.data
    publish(t, data)
  }
  lifecycle.on('handoff.finished', ended)
  lifecycle.on('handoff.expired', ended)
  lifecycle.on('handoff.revoked', ended)
}
