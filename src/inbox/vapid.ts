// The host's VAPID key pair (docs/spec.md section 20): generated on the first start with an inbox and
// kept 0600 in the profiles directory, so browsers subscribed yesterday still accept today's
// pushes. Written with the four-step durable write; never regenerated over a file that exists.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import webPush from 'web-push'
import { durableWrite } from '../store/durable-write.js'

export const VAPID_FILE = '.afhttp-vapid.json'

export interface VapidKeys {
  /** Uncompressed P-256 point, base64url: what browsers subscribe with. */
  readonly publicKey: string
  readonly privateKey: string
}

const B64URL = /^[A-Za-z0-9_-]+$/

function parse (text: string, file: string): VapidKeys {
  let doc: { public_key?: unknown, private_key?: unknown }
  try { doc = JSON.parse(text) as typeof doc } catch { throw new Error(`${file} is not valid JSON`) }
  const { public_key: publicKey, private_key: privateKey } = doc
  if (typeof publicKey !== 'string' || !B64URL.test(publicKey) || Buffer.from(publicKey, 'base64url').length !== 65 ||
    typeof privateKey !== 'string' || !B64URL.test(privateKey) || Buffer.from(privateKey, 'base64url').length !== 32) {
    throw new Error(`${file} does not hold a P-256 key pair (public_key, private_key, base64url)`)
  }
  return { publicKey, privateKey }
}

/**
 * The stored key pair, or a new one stored first. A file that exists but cannot be read as a
 * key pair is an error, not a reason to make new keys: that would silently orphan every
 * subscription (the operator decides, by moving the file away).
 */
export async function loadOrCreateVapid (profilesDir: string): Promise<{ keys: VapidKeys, file: string, created: boolean }> {
  const file = join(profilesDir, VAPID_FILE)
  try {
    return { keys: parse(await readFile(file, 'utf8'), file), file, created: false }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
  const generated = webPush.generateVAPIDKeys()
  const keys = { publicKey: generated.publicKey, privateKey: generated.privateKey }
  const doc = { schema_version: 1, created_at: new Date().toISOString(), public_key: keys.publicKey, private_key: keys.privateKey }
  await durableWrite(file, `${JSON.stringify(doc, null, 2)}\n`, { mode: 0o600 })
  return { keys, file, created: true }
}
