import t, { type Test } from 'tap'
import { startHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'

// A page that sends itself on at once is a redirect in all but name (docs/spec.md section 6): the
// fetch answers with where it went. These pages stand for browser mechanisms, not for any site:
// a meta refresh, a script on load, a form that submits itself (the way a SAML identity provider
// hands a sign-in back), a Refresh header. Before the host followed them, the fetch read the
// bounce page while the next document replaced it: a blank page, or page_unresponsive.
const page = (title: string, head: string, body = ''): string =>
  `<!doctype html><html><head><title>${title}</title>${head}</head><body>${body}</body></html>`
const destination = page('Destination', '', '<h1>Destination</h1><p>The page the redirect was for, with words to read.</p>')

t.test('a fetch follows a page that sends itself on at once', async (t) => {
  const host = await startHost(t)
  const posted: string[] = []
  const site = await startFixtureServer(t, {
    '/meta': { body: page('Redirecting', '<meta http-equiv="refresh" content="0; url=/destination">') },
    '/script': { body: page('Redirecting', '', '<script>addEventListener("load", () => setTimeout(() => { location.href = "/destination" }, 0))</script>') },
    '/saml': {
      body: page('Working', '', '<form method="post" action="/acs"><input type="hidden" name="SAMLResponse" value="PHNhbWw+"></form><script>addEventListener("load", () => document.forms[0].submit())</script>')
    },
    '/acs': {
      body: (req) => {
        let data = ''
        req.on('data', (chunk: Buffer) => { data += chunk.toString() })
        req.on('end', () => posted.push(`${req.method ?? ''} ${data}`))
        return destination
      }
    },
    '/header': { headers: { refresh: '0; url=/destination' }, body: page('Moved', '', '<p>Moved.</p>') },
    '/hop1': { body: page('Hop 1', '<meta http-equiv="refresh" content="0; url=/hop2">') },
    '/hop2': { body: page('Hop 2', '<meta http-equiv="refresh" content="0; url=/hop3">') },
    '/hop3': { body: page('Hop 3', '<meta http-equiv="refresh" content="0; url=/destination">') },
    '/to-missing': { body: page('Redirecting', '<meta http-equiv="refresh" content="0; url=/missing">') },
    '/ping': { body: page('Ping', '<meta http-equiv="refresh" content="0; url=/pong">') },
    '/pong': { body: page('Pong', '<meta http-equiv="refresh" content="0; url=/ping">', '<p>Pong, the page the loop stops on.</p>') },
    '/countdown': { body: page('You are leaving', '<meta http-equiv="refresh" content="5; url=/destination">', '<p>You will be taken to the destination in five seconds.</p>') },
    '/destination': { body: destination }
  })
  const fetch = async (path: string, wait?: string): Promise<any> => {
    const res = await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: `${site.url}${path}`, capture: ['html', 'text'], ...(wait !== undefined && { wait }) }) })
    t.equal(res.status, 200, `${path}: a result, not an error envelope`)
    return await res.json()
  }
  const arrived = (t: Test, json: any, what: string, at = '/destination'): void => {
    t.equal(json.final_url, `${site.url}${at}`, `${what}: final_url is where it went`)
    t.equal(json.ok, true, `${what}: ok`)
    t.equal(json.page_kind, 'content', `${what}: content`)
    t.match(json.artifacts.text, /The page the redirect was for/, `${what}: the text is the destination's`)
    t.match(json.artifacts.html, /<title>Destination<\/title>/, `${what}: the html is the destination's`)
    t.same(json.warnings, [], `${what}: nothing failed to be read`)
  }

  for (const wait of ['load', 'domcontentloaded', 'networkidle']) {
    t.test(`a meta refresh of 0 seconds (wait ${wait})`, async (t) => {
      // Repeated: observing the bounce page was a race the fetch lost only now and then.
      for (let i = 0; i < 3; i++) arrived(t, await fetch('/meta', wait), `run ${i + 1}`)
    })
  }

  t.test('a script that moves on when the page has loaded', async (t) => {
    for (let i = 0; i < 3; i++) arrived(t, await fetch('/script'), `run ${i + 1}`)
  })

  t.test('a form that submits itself, as an identity provider hands a sign-in back', async (t) => {
    arrived(t, await fetch('/saml'), 'auto-submitted form', '/acs')
    t.same(posted, ['POST SAMLResponse=PHNhbWw%2B'], 'the site got the form as posted')
  })

  t.test('a Refresh header', async (t) => {
    arrived(t, await fetch('/header'), 'Refresh header')
  })

  t.test('a chain of three', async (t) => {
    arrived(t, await fetch('/hop1'), 'three hops')
    t.equal(site.hits('/hop3'), 1, 'each hop was loaded once')
  })

  t.test('the status is the last document\'s', async (t) => {
    const json = await fetch('/to-missing')
    t.equal(json.final_url, `${site.url}/missing`)
    t.equal(json.status, 404, `the status of the page the redirect ended on (${JSON.stringify(json).slice(0, 900)})`)
    t.equal(json.page_kind, 'http_error')
    t.equal(json.ok, false)
  })

  t.test('two pages that send each other back and forth end where the loop is held', async (t) => {
    const started = performance.now()
    const json = await fetch('/ping')
    t.equal(json.final_url, `${site.url}/pong`, 'the second page: the way back to the first is held')
    t.match(json.artifacts.text, /the page the loop stops on/)
    t.ok(performance.now() - started < 25_000, 'answered well before the fetch timeout')
  })

  t.test('a countdown is a page meant to be read', async (t) => {
    const before = site.hits('/destination')
    const json = await fetch('/countdown')
    t.equal(json.final_url, `${site.url}/countdown`, 'not followed')
    t.match(json.artifacts.text, /in five seconds/)
    t.equal(site.hits('/destination'), before, 'the destination was not asked for')
  })
})
