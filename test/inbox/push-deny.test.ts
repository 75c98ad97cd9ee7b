// AFHTTP_URL_DENY holds for push services as for pages (docs/spec.md sections 3, 20 and 21): a
// subscription whose push service sits at a denied address, by IP literal or by a name that
// resolves there, gets nothing sent; an allowed one is connected to. Real sockets on 127.0.0.0/8.
import t from 'tap'
import { createServer, type Server } from 'node:net'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import webPush from 'web-push'
import pino from 'pino'
import { PushSender } from '../../src/inbox/push-sender.js'
import { PushSubscriptions } from '../../src/inbox/push-store.js'
import { parseUrlDeny } from '../../src/core/url-deny.js'

/** A TCP listener that counts the connections made to it (a push service that never answers). */
async function listener (t: { teardown: (fn: () => unknown) => void }, host: string): Promise<{ port: number, connections: () => number }> {
  let connections = 0
  const server: Server = createServer((socket) => { connections++; socket.destroy() })
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { port: (server.address() as { port: number }).port, connections: () => connections }
}

async function senderFor (t: { teardown: (fn: () => unknown) => void }, endpoint: string, deny: string): Promise<PushSender> {
  const dir = await mkdtemp(join(tmpdir(), 'afhttp-push-deny-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const store = new PushSubscriptions(dir)
  await store.load()
  const p256dh = webPush.generateVAPIDKeys().publicKey // any P-256 point stands for the browser's key
  await store.add({ endpoint, keys: { p256dh, auth: Buffer.alloc(16, 7).toString('base64url') } }, new Date())
  const keys = webPush.generateVAPIDKeys()
  return new PushSender(store, keys, 'mailto:ops@afhttp.invalid', pino({ level: 'silent' }), parseUrlDeny(deny))
}

const PAYLOAD = { type: 'handoff.opened', title: 't', body: 'b', profile: 'default', reason: 'denied', instructions: null, url: 'http://127.0.0.1/inbox/' } as const

t.test('a push service at a denied IP literal is never connected to', async (t) => {
  const service = await listener(t, '127.0.0.2')
  const sender = await senderFor(t, `https://127.0.0.2:${service.port}/push/x`, '127.0.0.2/32')
  await sender.sendAll(PAYLOAD)
  t.equal(service.connections(), 0, 'no connection')
  t.match(sender.stats, { denied: 1, sent: 0, failed: 0 })
})

t.test('a push service whose name resolves into a denied range is never connected to', async (t) => {
  const service = await listener(t, '127.0.0.1')
  const sender = await senderFor(t, `https://localhost:${service.port}/push/x`, '127.0.0.0/8,::1/128')
  await sender.sendAll(PAYLOAD)
  t.equal(service.connections(), 0, 'no connection')
  t.match(sender.stats, { denied: 1, sent: 0, failed: 0 })
})

t.test('an allowed push service is connected to (the listener sees what a send does)', async (t) => {
  const service = await listener(t, '127.0.0.2')
  const sender = await senderFor(t, `https://127.0.0.2:${service.port}/push/x`, '10.0.0.0/8')
  await sender.sendAll(PAYLOAD)
  t.equal(service.connections(), 1, 'one connection (its TLS then fails: a failure, not a denial)')
  t.match(sender.stats, { denied: 0, sent: 0, failed: 1 })
})
