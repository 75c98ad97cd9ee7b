// The small HTML pages a person may meet instead of the panel: a dead link (410), a host
// that cannot show the page right now (503), no lease (401), too many tries (429).
// Self-contained, no script; they say what happened and what to do next, and the 503 page
// does it too: it reloads itself, so a person on a phone need not know to try again.
import type { LiveCheck } from '../browser/live-checks.js'
import type { SecretProblem } from '../handoffs/service.js'

const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

/**
 * How soon the 503 page asks again. The link it reloads is not used up by a refusal, and the
 * tries of one open page stay well inside /takeover's rate limit (TAKEOVER_RATE_LIMIT a minute
 * per address; a person with many such tabs open at once could meet the 429 page).
 */
export const UNAVAILABLE_RETRY_S = 5

function page (title: string, paragraphs: string[], extra = '', head = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">${head}<title>${escape(title)} · afhttp</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:2rem 1.25rem;background:#f6f7f9;color:#1d2330}
main{max-width:34rem;margin:0 auto;background:#fff;border-radius:12px;padding:1.5rem;box-shadow:0 1px 3px #0002}
h1{font-size:1.3rem;margin:0 0 .75rem}code{font-size:.9em}ul{padding-left:1.2rem}.bad{color:#a3261b}</style></head>
<body><main><h1>${escape(title)}</h1>${paragraphs.map((p) => `<p>${escape(p)}</p>`).join('')}${extra}</main></body></html>`
}

const GONE: Record<SecretProblem, [string, string]> = {
  unknown: ['This panel link does not work', 'It may be mistyped, already used, or replaced by a newer link. Ask whoever sent it for a fresh one.'],
  used: ['This panel link was already used', 'A panel link opens the panel once. If that was you, go back to the browser tab where the panel is open; otherwise ask for a new link.'],
  revoked: ['This panel link was replaced', 'A newer link was made for the same page, or the handoff ended. Ask for the latest link.'],
  finished: ['This handoff is over', 'The page this link was for has been handed back. There is nothing more to do here.'],
  expired: ['This panel link has expired', 'The hold on the page ran out before the link was opened. Ask for a new link.']
}

export function gonePage (problem: SecretProblem): string {
  const [title, text] = GONE[problem]
  return page(title, [text])
}

export function unavailablePage (failed: LiveCheck, checks: LiveCheck[]): string {
  const list = checks.map((c) => `<li${c.ok ? '' : ' class="bad"'}><code>${escape(c.name)}</code>: ${c.ok ? 'ok' : escape(c.error ?? 'failed')}</li>`).join('')
  return page('The live page is not available right now', [
    `The host could not show the page: the check "${failed.name}" failed (${failed.error ?? 'no detail'}).`,
    `Nothing was used up: this link still works. This page tries again by itself every ${UNAVAILABLE_RETRY_S} seconds.`
  ], `<ul>${list}</ul>`, `<meta http-equiv="refresh" content="${UNAVAILABLE_RETRY_S}">`)
}

export function noLeasePage (): string {
  return page('This panel needs its link', ['Open the panel from the link you were given. The panel works only in the browser that opened that link, and only while the handoff is open.'])
}

export function tooManyPage (): string {
  return page('Too many tries', ['Too many panel links were opened from here in a short time. Wait a minute and try again.'])
}
