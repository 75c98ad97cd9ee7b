// What recognizing a large page costs the host's event loop (docs/performance.md, "Recognition off
// the event loop"). The loop relays every panel's frames and a person's input, so the number that
// matters is its longest stall while a page is read: inline, that is the whole recognition; on a
// recognition thread (src/fetch/recognize.ts), only the copy of the markup to the thread. Pages:
// the corpus's largest real captures and its largest gates (test/fixtures/real). Printed; no test
// times it. Run with `npm run bench:recognition-loop`.
import { readFileSync } from 'node:fs'
import { setImmediate } from 'node:timers'
import { recognizePage } from '../src/core/challenge.ts'
import { documentTitle } from '../src/core/document-title.ts'
import { RecognitionThreads } from '../src/fetch/recognize.ts'
import { visibleText } from '../test/helpers/visible-text.ts'

const REAL = new URL('../test/fixtures/real/', import.meta.url)
const { fixtures } = JSON.parse(readFileSync(new URL('index.json', REAL), 'utf8'))
const sized = fixtures.map(f => ({ f, bytes: readFileSync(new URL(f.file, REAL)).length })).sort((a, b) => b.bytes - a.bytes)
const chosen = [...sized.slice(0, 6), ...sized.filter(s => s.f.expect.page_kind === 'challenge').slice(0, 3)]
const pages = chosen.map(({ f, bytes }) => {
  const html = readFileSync(new URL(f.file, REAL), 'utf8')
  return { name: f.file, bytes, observation: { status: f.status, url: 'https://example.org/', title: documentTitle(html), html, text: visibleText(html), headers: {} } }
})

/** The longest gap between turns of the loop while `work` runs, and how long it took. */
async function stalls (work) {
  let longest = 0
  let last = performance.now()
  let done = false
  const ticker = (async () => {
    while (!done) {
      await new Promise(resolve => setImmediate(resolve))
      const now = performance.now()
      longest = Math.max(longest, now - last)
      last = now
    }
  })()
  const start = performance.now()
  await work()
  const took = performance.now() - start
  longest = Math.max(longest, performance.now() - last)
  done = true
  await ticker
  return { longest, took }
}

const threads = new RecognitionThreads({ size: 1 })
// The thread's start is paid once per host, not per page.
await threads.recognize(pages[0].observation)
const rows = []
for (const page of pages) {
  const inline = await stalls(async () => { recognizePage(page.observation) })
  const threaded = await stalls(async () => { await threads.recognize(page.observation) })
  rows.push({ ...page, inline, threaded })
  console.log(`${page.name.padEnd(60)} ${(page.bytes / 1e6).toFixed(2)} MB  inline: stall ${inline.longest.toFixed(0)} ms  thread: stall ${threaded.longest.toFixed(1)} ms, answer in ${threaded.took.toFixed(0)} ms`)
}
await threads.close()
const worst = (key) => Math.max(...rows.map(r => r[key].longest))
console.log(`longest stall: inline ${worst('inline').toFixed(0)} ms, on a thread ${worst('threaded').toFixed(1)} ms (ratio ${(worst('inline') / worst('threaded')).toFixed(0)}×)`)
