import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Teardown } from './teardown.js'

export interface ReceivedHook { body: string, event: Record<string, any>, signature: string, valid: boolean }

/**
 * A real webhook receiver on 127.0.0.1 that checks each afhttp-signature against the secret.
 * `answer` decides each reply: a status, or 'hang' to never answer.
 */
export async function startWebhookReceiver (t: Teardown, secret: string, answer: (n: number) => number | 'hang' = () => 204): Promise<{ url: string, received: ReceivedHook[] }> {
  const received: ReceivedHook[] = []
  let n = 0
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = ''
    req.on('data', (d) => { body += d })
    req.on('end', () => {
      const signature = String(req.headers['afhttp-signature'] ?? '')
      const expected = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`
      const valid = signature.length === expected.length && timingSafeEqual(Buffer.from(signature), Buffer.from(expected))
      received.push({ body, event: JSON.parse(body) as Record<string, any>, signature, valid })
      const a = answer(n++)
      if (a === 'hang') return
      res.writeHead(a)
      res.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received }
}
