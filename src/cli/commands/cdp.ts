import { EXIT, printJson } from '../output.js'
import { UsageError, positionals, str } from '../args.js'
import type { HostCommand } from './command.js'

function parseParams (raw: string | undefined): Record<string, unknown> | undefined {
  if (raw === undefined) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch (err) {
    throw new UsageError(`JSON params are not valid JSON: ${(err as Error).message}`, 'cdp')
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError('JSON params must be an object, e.g. \'{"expression":"1+1"}\'', 'cdp')
  return parsed as Record<string, unknown>
}

export const cdpCommand: HostCommand = {
  name: 'cdp',
  summary: 'send one raw CDP command',
  help: `usage: afhttp cdp METHOD [JSON] [--profile P] [--tab TAB]

Sends one Chrome DevTools Protocol command (POST /v1/cdp) to a profile's
browser, or to a tab with --tab, and prints the result as JSON.
Low level: Target.closeTarget here has no window-anchor protection.

examples:
  afhttp cdp Browser.getVersion
  afhttp cdp Runtime.evaluate '{"expression":"document.title","returnByValue":true}' --tab t_123`,
  options: { profile: { type: 'string' }, tab: { type: 'string' } },
  access: 'token',
  async run (ctx) {
    const [method, rawParams] = positionals('cdp', ctx.positionals, ['METHOD'], ['JSON'])
    if (!/^[A-Za-z]+\.[A-Za-z]+$/.test(method)) throw new UsageError(`METHOD looks like Domain.method (e.g. Browser.getVersion), got "${method}"`, 'cdp')
    const params = parseParams(rawParams)
    const res = await ctx.client().cdp({ method, ...(params ? { params } : {}), profile: str(ctx.values, 'profile'), tab_id: str(ctx.values, 'tab') })
    // CDP results are raw protocol objects; JSON is the only faithful rendering.
    printJson(ctx.io, ctx.json ? res : res.result)
    return EXIT.ok
  }
}
