// Permission prompts are browser UI nobody sees in a fetch or a screencast (docs/spec.md section 16):
// every listed permission is denied for all origins when a browser starts, so no page waits
// on an invisible prompt; a profile may grant some per origin through its metadata.
import type { FastifyInstance } from 'fastify'
import type { Browser } from 'puppeteer-core'
import { PROMPTED_PERMISSIONS, type PermissionGrants } from '../core/permissions.js'

/** A browser that does not answer does not hold fetches up for longer than this. */
const READY_WAIT_MS = 2_000
const applied = new WeakMap<Browser, Promise<void>>()

/** Settles once a browser's permissions are in place; a fetch waits for it (only the first one ever waits). */
export async function permissionsReady (browser: Browser): Promise<void> {
  const p = applied.get(browser)
  if (!p) return
  let timer: NodeJS.Timeout | undefined
  await Promise.race([p, new Promise<void>((resolve) => { timer = setTimeout(resolve, READY_WAIT_MS) })])
  clearTimeout(timer)
}

export function applyPermissions (app: FastifyInstance, profile: string, browser: Browser): Promise<void> {
  const p = apply(app, profile, browser)
  applied.set(browser, p.catch(() => undefined))
  return p
}

async function apply (app: FastifyInstance, profile: string, browser: Browser): Promise<void> {
  const context = browser.defaultBrowserContext()
  await Promise.all(PROMPTED_PERMISSIONS.map((name) => context.setPermission('*', { permission: { name }, state: 'denied' })))
  let grants: PermissionGrants = {}
  try {
    grants = (await app.profiles.get(profile)).permissions ?? {}
  } catch { /* an unreadable profile keeps the defaults: everything denied */ }
  for (const [origin, names] of Object.entries(grants)) {
    await Promise.all(names.map((name) => context.setPermission(origin, { permission: { name }, state: 'granted' })))
  }
  if (Object.keys(grants).length) app.log.info({ profile, origins: Object.keys(grants) }, 'profile permissions granted')
}
