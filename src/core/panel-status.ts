// Which news of a handoff the panel page believes (docs/spec.md section 7 "Control"). The socket pushes
// every change as it happens; the status poll asks over HTTP now and then, for the banner and for
// a socket that is down. A poll's answer is only as new as the moment its request left: one sent
// before the socket's latest state describes the handoff before that state. The poll fired at
// page load is the one that bit: answered after the socket's take, it put back the agent's
// generation, and the person's first click went out stamped stale and was dropped.

/**
 * Whether a status answer may overwrite what the socket said. `sentAt` is when the poll's
 * request left, `socketStateAt` when the socket's latest state arrived (one clock, the page's).
 */
export function statusIsNewer (sentAt: number, socketStateAt: number | undefined): boolean {
  return socketStateAt === undefined || sentAt > socketStateAt
}
