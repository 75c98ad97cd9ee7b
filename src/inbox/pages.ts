// The small HTML pages an operator may meet instead of the inbox: no login yet (401), a wrong
// or missing token (401/400), too many tries (429), no inbox on this host (404). Self-contained,
// no script; each says what happened and what to do. Nothing about any handoff appears here.
const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

export const INBOX_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

function page (title: string, paragraphs: string[]): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${escape(title)} · afhttp inbox</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:2rem 1.25rem;background:#f6f7f9;color:#1d2330}
main{max-width:34rem;margin:0 auto;background:#fff;border-radius:12px;padding:1.5rem;box-shadow:0 1px 3px #0002}
h1{font-size:1.3rem;margin:0 0 .75rem}code{font-size:.9em}</style></head>
<body><main id="afhttp-inbox-refusal"><h1>${escape(title)}</h1>${paragraphs.map((p) => `<p>${escape(p)}</p>`).join('')}</main></body></html>`
}

export function needLoginPage (): string {
  return page('Open your inbox login link', ['This inbox is for operators. Open the login link you were given (it ends in /inbox/login?token=…) in this browser; it signs this browser in for a week.'])
}

export function badTokenPage (missing: boolean): string {
  return missing
    ? page('This login link has no token', ['The link should end in /inbox/login?token= followed by the operator token (AFHTTP_OPERATOR_TOKEN). Ask whoever runs the host for the full link.'])
    : page('This login link is not right', ['The operator token in it is wrong or was changed. Ask whoever runs the host for the current link (AFHTTP_OPERATOR_TOKEN). Nothing was signed in.'])
}

export function tooManyLoginsPage (): string {
  return page('Too many tries', ['Too many inbox logins were tried from here in a short time. Wait a minute and try again.'])
}

export function notConfiguredPage (): string {
  return page('This host has no operator inbox', ['The inbox is on when the host is started with AFHTTP_OPERATOR_TOKEN set.'])
}
